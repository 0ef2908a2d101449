"""gateway/reference/llms_text.py: /llms.txt follows the llmstxt.org convention (an H1 title,
a blockquote summary, then H2 sections of Markdown links, the last one "Optional") and lists
every operation of the OpenAPI document once, linked to its page /docs/<path after /v1/>.md
with its methods, path and credits (the proto's (http).credits)."""

from __future__ import annotations

import re

from gateway.endpoints import discover_endpoints
from gateway.operation_names import page_name
from gateway.reference.llms_text import link_elements, link_field, llms_text
from gateway.reference.openapi import build_openapi

DOCUMENT = build_openapi(discover_endpoints(), version="test")
TEXT = llms_text(DOCUMENT)
_ENTRY = re.compile(
    r"^- \[([^\]]+)\]\(/docs/([^)]+)\.md\): .* \(((?:GET|POST)(?:/POST)?) (/v1/\S+?)(?:, (\d+) credits?)?\)$"
)


def test_the_text_opens_with_the_title_and_a_blockquote_summary():
    lines = TEXT.splitlines()
    assert lines[0] == f"# {DOCUMENT['info']['title']}" and lines[1] == "" and lines[2].startswith("> ")


def test_the_sections_are_h2_and_the_last_is_optional():
    sections = re.findall(r"^## (.+)$", TEXT, re.MULTILINE)
    assert sections[0] == "Start here" and sections[-1] == "Optional"


def test_every_endpoint_is_listed_once_linked_to_its_page_with_its_methods_and_credits():
    listed = {}
    for line in TEXT.splitlines():
        matched = _ENTRY.match(line)
        if matched:
            name, page, methods, path, credits = matched.groups()
            assert name == page == page_name(path), line
            assert path not in listed, path
            listed[path] = (methods, credits)
    for endpoint in discover_endpoints():
        methods, credits = listed[endpoint.path]
        assert methods == ("POST" if endpoint.http.post_only else "GET/POST"), endpoint.path
        if endpoint.http.credits:
            assert int(credits) == endpoint.http.credits, endpoint.path


def test_one_credit_is_singular_and_more_are_plural():
    assert re.search(r"/v1/positions, 1 credit\)$", TEXT, re.MULTILINE)
    assert re.search(r"/v1/transits, 5 credits\)$", TEXT, re.MULTILINE)


def test_the_introduction_is_the_first_link():
    assert "- [Introduction](/docs/introduction.md)" in TEXT.split("## Start here", 1)[1].split("##", 1)[0]


def test_the_essentials_lead_with_local_time_through_place_and_tz():
    first = TEXT.split("\n- ", 1)[1].splitlines()[0]
    assert first.startswith("Times are local") and "`place`" in first and "`tz`" in first
    assert "Do not convert to UTC yourself" in first


def test_a_page_is_described_by_the_llms_txt_at_the_root_that_covers_it():
    # llms.txt v2: rel="describedby" from a page to the llms.txt covering it, as a Link field or <link>.
    assert link_field() == '</llms.txt>; rel="describedby"'
    assert link_elements() == "<link rel='describedby' href='/llms.txt'>"


def test_a_page_with_a_markdown_version_links_it_as_its_text_markdown_alternate():
    assert link_field("/docs/guides/limits.md") == (
        '</llms.txt>; rel="describedby", </docs/guides/limits.md>; rel="alternate"; type="text/markdown"'
    )
    assert link_elements("/docs/a&b.md").endswith("<link rel='alternate' href='/docs/a&amp;b.md' type='text/markdown'>")


def test_the_guides_markdown_is_listed_before_the_optional_links():
    text = llms_text(DOCUMENT, [("Celestial", "/docs/guides.md"), ("Limits", "/docs/guides/limits.md")])
    guides = text.split("## Guides\n\n", 1)[1].split("\n\n", 1)[0]
    assert guides == "- [Celestial](/docs/guides.md)\n- [Limits](/docs/guides/limits.md)"
    assert text.index("## Guides") < text.index("## Optional") and "## Guides" not in TEXT
