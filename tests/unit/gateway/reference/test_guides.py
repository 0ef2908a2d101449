"""The README and docs/*.md as files: every relative link resolves to a file of the repository
(and its anchor to a heading of that page), every page is linked from the README, and the
renderer of gateway/reference/guides.py rewrites links as the gateway serves them."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import urlsplit

import pytest
from markdown_it import MarkdownIt

from gateway.reference.guides import README, github_anchor, markdown_text, render_guide, served_url
from shared.runtime.config import REPO_ROOT

SOURCES = [README] + sorted(f"docs/{path.name}" for path in (REPO_ROOT / "docs").glob("*.md"))
PAGES = sorted(path.stem for path in (REPO_ROOT / "docs").glob("*.md"))


def links(source: str) -> list[str]:
    """Return the target of every link and image of one Markdown file, as written."""
    found = []
    for token in MarkdownIt("commonmark").enable("table").parse((REPO_ROOT / source).read_text()):
        for child in token.children or ():
            if child.type == "link_open":
                found.append(child.attrGet("href"))
            elif child.type == "image":
                found.append(child.attrGet("src"))
    return found


def anchors(source: str) -> set[str]:
    """Return the anchors of one Markdown file's headings (GitHub's, as the gateway gives them)."""
    text = (REPO_ROOT / source).read_text()
    return {
        github_anchor(re.sub(r"[`*]", "", line.lstrip("#"))) for line in text.splitlines() if re.match(r"#{1,6} ", line)
    }


@pytest.mark.parametrize("source", SOURCES)
def test_every_relative_link_resolves_to_a_file_and_its_anchor_to_a_heading(source):
    for target in links(source):
        parts = urlsplit(target)
        if parts.scheme or target.startswith("/"):
            continue  # an absolute URL, or a route of the gateway (tests/api/test_guides_api.py)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(source), parts.path)) if parts.path else source
        assert (REPO_ROOT / path).exists(), f"{source}: {target} is no file"
        if parts.fragment and path.endswith(".md"):
            assert parts.fragment in anchors(path), f"{source}: {target} names no heading of {path}"


def test_the_readme_links_every_docs_page():
    linked = {posixpath.normpath(target.split("#")[0]) for target in links(README)}
    assert {f"docs/{page}.md" for page in PAGES} <= linked


def test_the_readme_is_the_front_door_in_a_few_hundred_lines():
    readme = (REPO_ROOT / README).read_text()
    assert len(readme.splitlines()) <= 300
    for shown in (
        "make setup",
        "make run",
        "make test",
        "## A first request",
        "docs/reference.png",
        "docs/dashboard-",
        "## Licence",
    ):
        assert shown in readme, shown


def test_links_are_rewritten_to_the_gateways_routes_and_unserved_files_lose_their_link():
    markdown = (
        "# A `page`\n\n[b](batch.md#errors) [r](../README.md) [c](../gateway/app.py) ![m](map.png) "
        "[w](https://example.org) ![plot](../var/plot.png)\n"
    )
    title, body = render_guide(markdown, "docs/page.md", {"batch"}, {"map.png"})
    assert title == "A page" and '<h1 id="a-page">' in body
    assert 'href="/docs/guides/batch#errors"' in body and 'href="/docs/guides"' in body
    assert "<span>c</span>" in body and "gateway/app.py" not in body
    assert 'src="/docs/guides/map.png"' in body and 'href="https://example.org"' in body
    assert "plot" in body and "var/plot.png" not in body


def test_a_link_leaving_the_served_pages_is_none():
    assert served_url("docs/batch.md", "../LICENSE", {"batch"}, set()) is None
    assert served_url("docs/batch.md", "notes.md", {"batch"}, set()) is None


def test_a_pages_markdown_links_the_other_pages_markdown_and_unserved_files_lose_their_link():
    # llms.txt v2: a page's Markdown version at its URL with .md appended, linking Markdown.
    markdown = (
        "# A page\n\n[b](batch.md#errors) [r](../README.md) [c](../gateway/app.py) ![m](map.png) "
        "[w](https://example.org) ![plot](../var/plot.png) [over\ntwo lines](batch.md)\n\n"
        "```sh\n[not a link](batch.md)\n```\n"
    )
    served = markdown_text(markdown, "docs/page.md", {"batch"}, {"map.png"})
    assert "[b](/docs/guides/batch.md#errors) [r](/docs/guides.md) c ![m](/docs/guides/map.png) " in served
    assert "[w](https://example.org) plot [over\ntwo lines](/docs/guides/batch.md)" in served
    assert "```sh\n[not a link](batch.md)\n```" in served
