"""``/llms.txt``: a short Markdown index of the API for language models (the llmstxt.org
proposal, v2 of August 2026: a title, a one-paragraph summary, then lists of links), written from
the OpenAPI document, each operation linking its Markdown page at ``/docs/<path>.md`` (its API
path after /v1/); and the link relations by which v2 lets an agent find them from a page.

v2's link relations (https://llmstxt.org/changes.html): ``rel="describedby"`` points from a
page to the llms.txt that covers it, ``rel="alternate" type="text/markdown"`` from a page to its
Markdown version, each as an HTTP ``Link`` field or an HTML ``<link>`` element
(:func:`link_field`, :func:`link_elements`). Every page of the reference names /llms.txt, which
sits at the root and so covers the whole site; each guide names its Markdown
(gateway/reference/guides.py). The operations' Markdown pages are the Markdown of no one HTML
page (/docs renders the whole OpenAPI document), so /docs names none."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from gateway.operation_names import page_name
from gateway.reference.operation_markdown import INTRODUCTION_PAGE

SUMMARY = (
    "An HTTP/JSON API computing planetary positions, houses, charts and aspects, time-lord "
    "periods, transit scans, eclipses, heliacal events and astrocartography lines with the "
    "Swiss Ephemeris, billed in credits per request."
)

#: Local time leads: a model that converts a birth time to UTC itself gets DST and history
#: wrong, and place= and tz= exist so that it need not.
ESSENTIALS = """\
- Times are local: send `datetime` without an offset (1985-07-13T14:05) with `place` (a town's id from /v1/places: its coordinates and zone) or `tz` (an IANA zone, Europe/Paris). Do not convert to UTC yourself: the API applies the zone's history and says how it read each time in `meta.moment`.
- Every /v1 request needs a key: `Authorization: Bearer svc_live_...` (or `X-API-Key`).
- GET takes parameters in the query string; POST takes the same names in a JSON body.
- A moment is exactly one of `datetime` (ISO 8601; without an offset, place or tz, it is UTC) or `jd` (Julian Day, UT1).
- Success is `{"data", "meta", "warnings"?}`; an error is `{"errors": [{"code", "message", "suggestion", "param"?}]}`.
- Only a 2xx costs credits; 402 is `insufficient_credits`, or `spend_cap_reached` (a spend cap of the account or key: do not retry before its `resets_at`); retry 429 and 503 after `Retry-After` seconds.
"""  # noqa: E501 (one essential a line, as /llms.txt serves them)


#: Where the index is served: the root, covering every page of the site (v2's path scoping).
LLMS_TXT_PATH = "/llms.txt"
MARKDOWN = "text/markdown"


def link_relations(markdown_url: str | None = None) -> list[tuple[str, str, str | None]]:
    """Return a page's v2 link relations as (target, rel, type): the llms.txt that covers it,
    and its Markdown version when it has one."""
    relations: list[tuple[str, str, str | None]] = [(LLMS_TXT_PATH, "describedby", None)]
    if markdown_url is not None:
        relations.append((markdown_url, "alternate", MARKDOWN))
    return relations


def link_field(markdown_url: str | None = None) -> str:
    """Return the value of a page's HTTP ``Link`` field (RFC 8288) with its v2 link relations."""
    return ", ".join(
        f'<{target}>; rel="{rel}"' + (f'; type="{kind}"' if kind else "")
        for target, rel, kind in link_relations(markdown_url)
    )


def link_elements(markdown_url: str | None = None) -> str:
    """Return an HTML page's ``<link>`` elements with its v2 link relations, for its head."""
    return "".join(
        f"<link rel='{rel}' href='{html.escape(target)}'" + (f" type='{kind}'" if kind else "") + ">"
        for target, rel, kind in link_relations(markdown_url)
    )


def llms_text(document: dict[str, Any], guides: Sequence[tuple[str, str]] = ()) -> str:
    """Return the text of /llms.txt for ``document``: its operations grouped by tag, each a
    link to its Markdown page with its summary and cost, then ``guides`` ((title, URL of its
    Markdown), gateway/reference/guides.py), then the optional links."""
    lines = [f"# {document['info']['title']}", "", f"> {SUMMARY}", "", ESSENTIALS]
    lines += [
        "## Start here",
        "",
        f"- [Introduction](/docs/{INTRODUCTION_PAGE}.md): authentication, the first request, moments, the envelope, "
        "errors, credits and limits",
        "",
    ]
    by_tag: dict[str, list[str]] = {}
    for path, operations in document["paths"].items():
        operation = operations.get("get") or operations["post"]
        methods = "/".join(method.upper() for method in operations)
        cost = operation.get("x-credits")
        costs = f", {cost} credit{'s' if cost != 1 else ''}" if cost is not None else ""
        entry = f"- [{page_name(path)}](/docs/{page_name(path)}.md): {operation['summary']} ({methods} {path}{costs})"
        by_tag.setdefault(operation["tags"][0], []).append(entry)
    for tag, entries in by_tag.items():
        lines += [f"## {tag.capitalize()}", "", *entries, ""]
    if guides:
        lines += ["## Guides", "", *(f"- [{title}]({url})" for title, url in guides), ""]
    lines += [
        "## Optional",
        "",
        "- [OpenAPI 3.1 document](/v1/openapi.json): every operation's parameters and answers as JSON Schema",
        "- [Interactive reference](/docs): the same, with Try it",
        "",
    ]
    return "\n".join(lines)
