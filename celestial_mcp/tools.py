"""The MCP tools of the API: one per operation of its OpenAPI document, named after its path,
taking the operation's parameters, answering with the endpoint's JSON.

Every tool sends its arguments as the JSON body of a POST (each endpoint takes its
parameters so, batch and astrocartography's ``targets`` included), with the user's key, so
credits, limits and origins apply exactly as to any other call; arguments its input schema
does not admit (``bodies: 5`` where the schema says a string or an array of strings) are a
tool error naming the argument, and nothing is sent.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

import httpx
import mcp_types as types
from jsonschema import Draft202012Validator

from gateway.operation_names import operation_name


@dataclass(frozen=True)
class OperationTool:
    """One operation as an MCP tool."""

    name: str
    path: str
    description: str
    input_schema: dict[str, Any]

    def argument_errors(self, arguments: Any) -> list[str]:
        """Return what in ``arguments`` the tool's input schema (JSON Schema 2020-12, the
        dialect of OpenAPI 3.1) does not admit, one sentence each naming the argument's path;
        empty when it admits them all."""
        validator = _validator(self.name, self.input_schema)
        found = sorted(validator.iter_errors(arguments), key=lambda error: [str(part) for part in error.absolute_path])
        return [f"{_argument_path(error.absolute_path)}: {_without_long_instance(error)}" for error in found]

    def as_tool(self) -> types.Tool:
        """Return the tool's MCP definition."""
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=self.input_schema,
            # Every operation computes and changes nothing but the caller's balance.
            annotations=types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False),
        )


def operation_tools(document: dict[str, Any]) -> dict[str, OperationTool]:
    """Return a tool per operation of ``document``, by tool name."""
    tools = {}
    for path, operations in document["paths"].items():
        post = operations.get("post")
        if post is None:
            continue
        summary = post.get("summary", "")
        description = f"{summary}. {post.get('description', '')}".strip()
        schema = post["requestBody"]["content"]["application/json"]["schema"]
        name = operation_name(path)
        tools[name] = OperationTool(name, path, description, _resolved(schema, document))
    return tools


def _resolved(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """Return ``schema`` with its ``$ref`` s into the document's components replaced by their
    targets: a tool's input schema stands alone."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _resolved(target, document)
        return {key: _resolved(value, document) for key, value in schema.items()}
    if isinstance(schema, list):
        return [_resolved(value, document) for value in schema]
    return schema


_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(name: str, schema: dict[str, Any]) -> Draft202012Validator:
    """Return the validator of the tool ``name``'s ``schema``, built once per tool."""
    if name not in _VALIDATORS:
        _VALIDATORS[name] = Draft202012Validator(schema)
    return _VALIDATORS[name]


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


async def call_operation(client: httpx.AsyncClient, tool: OperationTool, arguments: dict[str, Any], key: str | None) -> types.CallToolResult:
    """Return the tool's result: the endpoint's JSON answer (or the document it answers
    instead: an image as image content, a PNG chart wheel; any other as text, an iCalendar
    file or an SVG), or a tool error carrying the API's status, code,
    message and suggestion (so the model can correct its call). Arguments the tool's input
    schema does not admit are a tool error before any call (nothing is sent, nothing charged)."""
    problems = tool.argument_errors(arguments)
    if problems:
        return _tool_error(
            f"The arguments do not match the input schema of {tool.name}, so nothing was sent:\n"
            + "\n".join(f"- {problem}" for problem in problems)
            + "\nCorrect them as the schema says (a string or an array of strings for a list such as bodies).",
            None,
        )
    if not key:
        return _tool_error("No API key: set CELESTIAL_API_KEY, or send Authorization: Bearer <key> to this MCP server.", None)
    try:
        answer = await client.post(tool.path, json=arguments, headers={"Authorization": f"Bearer {key}"})
    except httpx.HTTPError as error:
        return _tool_error(f"The Celestial API could not be reached at {client.base_url}: {error}", None)
    content_type = answer.headers.get("content-type", "")
    if answer.is_success and content_type.startswith("image/png"):
        # A picture the model can see (a chart wheel's format=png).
        return types.CallToolResult(content=[types.ImageContent(data=base64.b64encode(answer.content).decode(), mime_type="image/png")])
    if answer.is_success and not content_type.startswith("application/json"):
        # A document the operation answers instead of JSON (format=ics: an iCalendar file).
        return types.CallToolResult(content=[types.TextContent(text=answer.text)])
    try:
        body = answer.json()
    except ValueError:
        return _tool_error(f"HTTP {answer.status_code} from the Celestial API, not JSON: {answer.text[:200]}", None)
    if answer.is_success:
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(body))], structured_content=body)
    lines = [f"HTTP {answer.status_code}"]
    for error in body.get("errors", ()):
        param = f" (parameter {error['param']})" if error.get("param") else ""
        lines.append(f"{error.get('code')}{param}: {error.get('message')} Suggestion: {error.get('suggestion')}")
    retry_after = answer.headers.get("Retry-After")
    if retry_after:
        lines.append(f"Retry after {retry_after} s.")
    return _tool_error("\n".join(lines), body)


def _tool_error(text: str, body: dict[str, Any] | None) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=body, is_error=True)
