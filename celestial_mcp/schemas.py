"""JSON Schema helpers of the MCP tools: a schema standing alone (its ``$ref`` s replaced), and
the check of a tool's arguments against a schema, in sentences a model can act on."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator


def resolved(schema: Any, document: dict[str, Any]) -> Any:
    """Return ``schema`` with its ``$ref`` s into the document's components replaced by their
    targets: a tool's input schema stands alone."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return resolved(target, document)
        return {key: resolved(value, document) for key, value in schema.items()}
    if isinstance(schema, list):
        return [resolved(value, document) for value in schema]
    return schema


_VALIDATORS: dict[str, Draft202012Validator] = {}


def argument_errors(schema: dict[str, Any], arguments: Any) -> list[str]:
    """Return what in ``arguments`` ``schema`` (JSON Schema 2020-12, the dialect of OpenAPI 3.1)
    does not admit, one sentence each naming the argument's path; empty when it admits them all."""
    key = json.dumps(schema, sort_keys=True)
    if key not in _VALIDATORS:
        _VALIDATORS[key] = Draft202012Validator(schema)
    found = sorted(
        _VALIDATORS[key].iter_errors(arguments), key=lambda error: [str(part) for part in error.absolute_path]
    )
    return [f"{_argument_path(error.absolute_path)}: {_without_long_instance(error)}" for error in found]


def _argument_path(path: Any) -> str:
    """Return a JSON path of the arguments as the API's errors name it (targets[0].body)."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text or "arguments"


def _without_long_instance(error: Any) -> str:
    """Return what the validation error says, in words a model can act on: for a value that
    matches none of a oneOf, the kinds of value the schema admits; at most 200 characters."""
    if error.validator == "oneOf":
        kinds = " or ".join(_kind(option) for option in error.validator_value)
        message = f"{json.dumps(error.instance)[:80]} is not {kinds}"
    else:
        message = error.message
    return message if len(message) <= 200 else message[:200] + "..."


def _kind(schema: dict[str, Any]) -> str:
    """Return the kind of value ``schema`` admits, in words ("a string", "an array of strings")."""
    kind = schema.get("type", "value")
    if kind == "array":
        return f"an array of {_kind(schema.get('items', {})).split(' ', 1)[-1]}s"
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"
