"""docs/mcp.md's sizes of the MCP tool sets, held to what tools/list carries: the full set's
(one tool per operation, from the OpenAPI document the gateway serves) and the curated set's,
in all and tool by tool. The document's figures are rounded ("about"), so a test holds them
within a stated share of the measure rather than to the character: a new endpoint or a
rewritten description that moves a figure past it fails here until the document says the new
one (the command that measures them: this file, run with -s, prints each)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from celestial_mcp.curated import TOOLS, curated_tool
from celestial_mcp.tools import operation_tools

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
#: A total may be this far from the document's figure: the figures are given to three
#: significant digits (a rounding of at most 0.2%), the rest is the drift tolerated.
TOTAL_SHARE = 0.02
#: One curated tool's figure may be this far from its measure (a sentence of its ~1,000-2,000).
TOOL_SHARE = 0.05


def _chars(tool) -> int:
    """Return the characters of ``tool`` as tools/list carries it (JSON, by its wire names)."""
    return len(json.dumps(tool.model_dump(mode="json", by_alias=True, exclude_none=True)))


def _figure(pattern: str, *, prose: bool = True) -> int:
    """Return the number (with thousands commas) the one match of ``pattern`` in docs/mcp.md
    captures; in ``prose`` every run of white space is one space (a sentence wraps anywhere)."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(pattern, re.sub(r"\s+", " ", text) if prose else text)
    assert len(found) == 1, (pattern, found)
    return int(found[0].replace(",", ""))


def _near(stated: int, measured: int, share: float) -> bool:
    return abs(stated - measured) <= share * measured


def test_the_full_sets_size_in_the_document_is_tools_list_of_the_served_document_within_2_percent(api):
    document = api.get("/v1/openapi.json").json()
    sizes = {name: _chars(tool.as_tool()) for name, tool in operation_tools(document).items()}
    total = sum(sizes.values())
    print("full tools/list characters:", total, "natal_chart:", sizes["natal_chart"])
    assert _near(_figure(r"against about ([\d,]+) for one tool per operation"), total, TOTAL_SHARE)
    assert _near(_figure(r"Its `tools/list` is about ([\d,]+) characters"), total, TOTAL_SHARE)
    assert _near(_figure(r"natal_chart alone about ([\d,]+)\)"), sizes["natal_chart"], TOOL_SHARE)


def test_the_curated_sets_sizes_in_the_document_are_tools_list_within_2_percent_in_all_and_5_each():
    sizes = {tool.name: _chars(curated_tool(tool)) for tool in TOOLS}
    print("curated tools/list characters:", sizes, "total", sum(sizes.values()))
    assert _near(_figure(r"small enough to list \(about ([\d,]+) characters"), sum(sizes.values()), TOTAL_SHARE)
    for name, size in sizes.items():
        stated = _figure(rf"\n\| `{name}` \|.*\| ([\d,]+) \|\n", prose=False)
        assert _near(stated, size, TOOL_SHARE), (name, stated, size)
