"""The README's first request is a recorded example (gateway/reference/docs_assets/examples), so the
answer it shows is one the replay test keeps true."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit

from gateway.reference.examples import load_examples
from shared.runtime.config import REPO_ROOT

MEMBER = re.compile(r'"(\w+)":("[^"]*"|true|false|null|-?[0-9.eE+-]+)')


def _first_request_section() -> str:
    readme = (REPO_ROOT / "README.md").read_text()
    return readme.split("## A first request", 1)[1].split("\n## ", 1)[0]


def test_the_readmes_first_request_is_the_recorded_positions_example():
    section = _first_request_section()
    example = load_examples()["/v1/positions"]
    url = re.search(r"'(http://[^']+)'", section).group(1)
    assert urlsplit(url).path == example.operation
    assert dict(parse_qsl(urlsplit(url).query)) == example.request

    shown = section.split("```json", 1)[1].split("```", 1)[0]
    first_body = shown.split("}", 1)[0]
    recorded = example.response["data"][0]
    members = dict(MEMBER.findall(first_body))
    assert len(members) == len(recorded)
    assert {name: json.loads(value) for name, value in members.items()} == recorded
    assert f'"credits_used":{example.response["meta"]["credits_used"]}' in shown
