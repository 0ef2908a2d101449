"""gateway/reference/introduction.py: the introduction /docs shows above the operations:
every operation it links exists, every ``<status> <code>`` it names is a code the service
answers with that status (decisions.md's table; the catalogue of shared/errors.py and
kernel/errors.py), the span of moments it states is the kernel's (hand-checked against the
Julian Days it quotes), and the guides, when there are any, are listed at its end."""

from __future__ import annotations

import re

import swisseph

import kernel.errors  # noqa: F401  (its domain errors join the catalogue)
from gateway.endpoints import discover_endpoints
from gateway.reference.introduction import INTRODUCTION, introduction, operation_link
from shared.errors import error_classes

#: decisions.md, "Error codes and statuses", the rows the introduction relies on.
DECISIONS_STATUSES = {
    "invalid_parameter": 400,
    "missing_parameter": 400,
    "conflicting_parameters": 400,
    "out_of_range": 400,
    "invalid_api_key": 401,
    "insufficient_credits": 402,
    "origin_not_allowed": 403,
    "origin_required": 403,
    "rate_limit_exceeded": 429,
    "service_unavailable": 503,
}


def test_an_operation_link_is_the_op_anchor_of_its_method_and_path():
    assert operation_link("/v1/positions") == "#op/GET/v1/positions"
    assert operation_link("/v1/batch", "post") == "#op/POST/v1/batch"


def test_every_operation_the_introduction_links_exists_with_that_method():
    served = {("GET", e.path) for e in discover_endpoints() if not e.http.post_only}
    served |= {("POST", e.path) for e in discover_endpoints()} | {("POST", "/v1/batch")}
    linked = re.findall(r"\]\(#op/(GET|POST)(/v1/[^)]+)\)", INTRODUCTION)
    assert linked and set(linked) <= served


def test_every_markdown_page_it_links_is_an_operations_page():
    pages = {e.path.removeprefix("/v1/") for e in discover_endpoints()}
    linked = re.findall(r"\]\(/docs/([^)]+)\.md\)", INTRODUCTION)
    assert linked and set(linked) <= pages


def test_every_status_and_code_it_names_is_answered_with_that_status():
    catalogue = {cls.code: cls.http_status for cls in error_classes() if getattr(cls, "code", None)}
    named = {(int(status), code) for status, code in re.findall(r"`(\d{3}) ([a-z_]+)`", INTRODUCTION)}
    assert named
    for status, code in named:
        assert catalogue.get(code) == status, code
        assert DECISIONS_STATUSES.get(code, status) == status, code


def test_the_span_of_moments_matches_the_julian_days_it_quotes():
    first, last = (float(jd) for jd in re.search(r"\(JD ([0-9.]+) to ([0-9.]+)\)", INTRODUCTION).groups())
    assert swisseph.revjul(first) == (-3001, 2, 3, 0.0) and swisseph.revjul(last) == (3000, 1, 1, 0.0)
    assert "-3001-02-03T00:00:00Z (3002 BCE) to 3000-01-01T00:00:00Z" in INTRODUCTION


def test_without_guides_the_introduction_is_the_text_and_with_them_it_ends_with_their_links():
    assert introduction() == INTRODUCTION
    with_guides = introduction([("Moments", "/docs/guides/moments"), ("Errors", "/docs/guides/errors")])
    assert with_guides.startswith(INTRODUCTION)
    assert with_guides.rstrip().endswith("- [Moments](/docs/guides/moments)\n- [Errors](/docs/guides/errors)")
    assert "\n## Guides\n" in with_guides


def section(title: str) -> str:
    return INTRODUCTION.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_first_request_and_the_moments_lead_with_a_clock_time_in_place_or_tz():
    opening = INTRODUCTION.split("\n\n")[0]
    assert "`place`" in opening and "`tz`" in opening
    for title in ("The first request", "Moments"):
        text = section(title)
        first_paragraph = text.strip().split("\n\n")[0]
        assert "`place`" in first_paragraph and "`tz`" in first_paragraph, title
        assert text.index("`place`") < text.index("UTC"), title
    first_call = re.search(r"```sh\n(.*?)```", section("The first request"), re.DOTALL).group(1)
    assert "place=" in first_call and "tz=" in first_call and "Z&" not in first_call
