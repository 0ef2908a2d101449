"""Examples from real calls: one recorded request and the answer it really got, per
operation, kept in ``gateway/reference/docs_assets/examples/<operation>.json`` and merged into the
OpenAPI document (``make examples`` records them from a running stack; a test replays them).

A file holds ``{"operation", "method", "request", "status", "response"}``: ``request`` is the
query string's parameters (as the strings a query string carries) for ``GET``, the JSON body
for ``POST``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from gateway.operation_names import operation_name

EXAMPLES_DIR = Path(__file__).resolve().parent / "docs_assets" / "examples"
#: The name of the recorded example in each operation's ``examples`` maps.
EXAMPLE_NAME = "recorded"


@dataclass(frozen=True)
class Example:
    """One recorded call: the request and the answer it got."""

    operation: str
    method: str
    request: dict[str, Any]
    status: int
    response: dict[str, Any]

    @property
    def summary(self) -> str:
        """Return a one-line description of the call, e.g. ``GET /v1/positions?datetime=...``."""
        if self.method == "GET":
            query = "&".join(f"{name}={value}" for name, value in self.request.items())
            return f"GET {self.operation}?{query}"
        return f"POST {self.operation}"


def example_path(operation: str) -> Path:
    """Return the file of ``operation``'s recorded example."""
    return EXAMPLES_DIR / f"{operation_name(operation)}.json"


def load_examples(directory: Path = EXAMPLES_DIR) -> dict[str, Example]:
    """Return every recorded example in ``directory``, by operation path."""
    examples = {}
    for path in sorted(directory.glob("*.json")):
        record = orjson.loads(path.read_bytes())
        examples[record["operation"]] = Example(**record)
    return examples


def example_record(example: Example) -> bytes:
    """Return the file text of ``example``: indented JSON, keys in a stable order."""
    record = {
        "operation": example.operation,
        "method": example.method,
        "request": example.request,
        "status": example.status,
        "response": example.response,
    }
    return orjson.dumps(record, option=orjson.OPT_INDENT_2) + b"\n"


def with_examples(document: dict[str, Any], examples: dict[str, Example]) -> dict[str, Any]:
    """Return a copy of ``document`` whose operations carry the recorded examples.

    A GET operation gets each parameter's recorded value as its ``example`` (what the
    reference's "Try it" fills in) and the answer as its 200 response's example; a POST
    operation gets the same parameters as its body's example, typed as its body's schema
    types them (:func:`typed_body`), and the same answer.
    """
    merged = copy.deepcopy(document)
    for path, example in examples.items():
        operations = merged["paths"].get(path)
        if operations is None:
            continue
        named = {EXAMPLE_NAME: {"summary": example.summary, "value": example.response}}
        for method, operation in operations.items():
            status = str(example.status)
            content = operation["responses"].get(status, {}).get("content", {}).get("application/json")
            if content is not None:
                content["examples"] = named
            if method == "get":
                for parameter in operation.get("parameters", ()):
                    if parameter["name"] in example.request:
                        parameter["example"] = typed_value(example.request[parameter["name"]], parameter["schema"])
            else:
                body = operation["requestBody"]["content"]["application/json"]
                sent = example.request if example.method == "POST" else typed_body(example.request, body["schema"])
                body["examples"] = {EXAMPLE_NAME: {"summary": example.summary, "value": sent}}
    return merged


def typed_body(query: dict[str, str], schema: dict[str, Any]) -> dict[str, Any]:
    """Return the JSON body carrying the query-string parameters ``query`` as the values the
    body's ``schema`` types them, so the body example is valid against its own schema."""
    return {name: typed_value(text, schema["properties"].get(name, {})) for name, text in query.items()}


def typed_value(text: str, schema: dict[str, Any]) -> Any:
    """Return a query string's ``text`` as the JSON value ``schema`` types it: a number, an
    integer or a boolean; anything else (a list stays its comma-separated text, which a body
    takes too) as the text."""
    kind = schema.get("type")
    if kind == "number":
        return float(text)
    if kind == "integer":
        return int(text)
    if kind == "boolean":
        return text.lower() in ("true", "1")
    return text


def without_examples(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``document`` with no recorded example: the schemas alone, for tools
    that would otherwise spend their budget resending the examples (the fuzzers)."""
    stripped = copy.deepcopy(document)
    for operations in stripped["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", ()):
                parameter.pop("example", None)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            body.pop("examples", None)
            for response in operation["responses"].values():
                response.get("content", {}).get("application/json", {}).pop("examples", None)
    return stripped
