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
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import httpx
import mcp_types as types

from celestial_mcp.curated import CuratedTool, operation_schema, shaped_result
from celestial_mcp.schemas import argument_errors, resolved
from gateway.operation_names import operation_name


@dataclass(frozen=True)
class OperationTool:
    """One operation as an MCP tool."""

    name: str
    path: str
    description: str
    input_schema: dict[str, Any]

    def argument_errors(self, arguments: Any) -> list[str]:
        """Return what in ``arguments`` the tool's input schema does not admit, one sentence
        each naming the argument's path; empty when it admits them all."""
        return argument_errors(self.input_schema, arguments)

    def as_tool(self) -> types.Tool:
        """Return the tool's MCP definition."""
        return types.Tool(
            name=self.name,
            description=self.description,
            input_schema=self.input_schema,
            # Every operation computes and changes nothing but the caller's balance.
            annotations=types.ToolAnnotations(
                read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
            ),
        )


def operation_tools(document: dict[str, Any]) -> dict[str, OperationTool]:
    """Return a tool per operation of ``document``, by tool name."""
    tools = {}
    for path, operations in document["paths"].items():
        post = operations.get("post")
        # A resource's operations (/v1/charts: x-resource) store and delete; every tool here is
        # read-only (its annotations say so), so they are left to the HTTP API and the clients.
        if post is None or post.get("x-resource"):
            continue
        summary = post.get("summary", "")
        description = f"{summary}. {post.get('description', '')}".strip()
        schema = post["requestBody"]["content"]["application/json"]["schema"]
        name = operation_name(path)
        tools[name] = OperationTool(name, path, description, resolved(schema, document))
    return tools


async def call_operation(
    client: httpx.AsyncClient, tool: OperationTool, arguments: dict[str, Any], key: str | None
) -> types.CallToolResult:
    """Return the tool's result: the endpoint's JSON answer (or the document it answers
    instead: an image as image content, a PNG chart wheel; any other as text, an iCalendar
    file or an SVG), or a tool error carrying the API's status, code,
    message and suggestion (so the model can correct its call). Arguments the tool's input
    schema does not admit are a tool error before any call (nothing is sent, nothing charged)."""
    problems = tool.argument_errors(arguments)
    if problems:
        return _schema_error(tool.name, problems)
    answer = await _post(client, tool.path, arguments, key)
    if isinstance(answer, types.CallToolResult):
        return answer
    content_type = answer.headers.get("content-type", "")
    if answer.is_success and content_type.startswith("image/png"):
        # A picture the model can see (a chart wheel's format=png).
        return types.CallToolResult(
            content=[types.ImageContent(data=base64.b64encode(answer.content).decode(), mime_type="image/png")]
        )
    if answer.is_success and not content_type.startswith("application/json"):
        # A document the operation answers instead of JSON (format=ics: an iCalendar file).
        return types.CallToolResult(content=[types.TextContent(text=answer.text)])
    body = _json_or_error(answer)
    if isinstance(body, types.CallToolResult):
        return body
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(body))], structured_content=body)


class AnswerCache:
    """The API's recent JSON answers, by request and key: the next page of a long result is
    read from here, so paging neither pays again nor sees a different answer."""

    def __init__(self, entries: int = 32, seconds: float = 900.0):
        self._entries = entries
        self._seconds = seconds
        self._answers: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()

    @staticmethod
    def _key(path: str, body: dict[str, Any], key: str) -> str:
        return json.dumps([path, body, key], sort_keys=True)

    def get(self, path: str, body: dict[str, Any], key: str) -> dict[str, Any] | None:
        """Return the answer kept for this request and key, or None (none, or too old)."""
        found = self._answers.get(self._key(path, body, key))
        if found is None or time.monotonic() - found[0] > self._seconds:
            return None
        return found[1]

    def put(self, path: str, body: dict[str, Any], key: str, answer: dict[str, Any]) -> None:
        """Keep ``answer``, forgetting the oldest beyond the cache's size."""
        self._answers[self._key(path, body, key)] = (time.monotonic(), answer)
        while len(self._answers) > self._entries:
            self._answers.popitem(last=False)


async def call_curated(
    client: httpx.AsyncClient,
    tool: CuratedTool,
    arguments: dict[str, Any],
    key: str | None,
    document: dict[str, Any],
    cache: AnswerCache,
) -> types.CallToolResult:
    """Return the curated tool's result: the structured content of ``curated.shaped_result``
    (summary, data paged and cut to fit, its JSON as the text too), with the picture as image
    content for the chart wheel; or a tool error: arguments the tool's schema does not admit,
    or a request the operation's schema does not (``extra``), before any call; the API's
    refusal with its message and suggestion after. A page after the first (``cursor``) of an
    answer seen in the last minutes is read from ``cache``: no new call, no credits."""
    problems = argument_errors(tool.input_schema, arguments)
    body = tool.request(arguments) if not problems else {}
    if not problems:
        problems = [
            f"(as the API's {name}) {problem}"
            for name, problem in (
                (tool.path(arguments), p) for p in argument_errors(operation_schema(tool, arguments, document), body)
            )
        ]
    if problems:
        return _schema_error(tool.name, problems)
    path = tool.path(arguments)
    # Only a later page reads the kept answer: a first call always asks the API afresh.
    cached = cache.get(path, body, key) if key and tool.items and arguments.get("cursor") else None
    if cached is not None:
        answer_body = {**cached, "meta": {**cached.get("meta", {}), "credits_used": 0}}
    else:
        answer = await _post(client, path, body, key)
        if isinstance(answer, types.CallToolResult):
            return answer
        if answer.is_success and answer.headers.get("content-type", "").startswith("image/png"):
            return _picture(tool, arguments, answer)
        answer_body = _json_or_error(answer)
        if isinstance(answer_body, types.CallToolResult):
            return answer_body
        if tool.items and key:
            cache.put(path, body, key, answer_body)
    shaped = shaped_result(tool, answer_body, arguments)
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(shaped, ensure_ascii=False))], structured_content=shaped
    )


#: The API's default width of a chart wheel, in pixels (the proto's default of size).
WHEEL_DEFAULT_SIZE = 800


def _picture(tool: CuratedTool, arguments: dict[str, Any], answer: httpx.Response) -> types.CallToolResult:
    """Return a PNG answer as image content, with its summary as text and structured content."""
    data = {"mime_type": "image/png", "bytes": len(answer.content), "size": arguments.get("size", WHEEL_DEFAULT_SIZE)}
    structured = {"summary": tool.summarize(data, {}, arguments), "data": data}
    return types.CallToolResult(
        content=[
            types.TextContent(text=json.dumps(structured, ensure_ascii=False)),
            types.ImageContent(data=base64.b64encode(answer.content).decode(), mime_type="image/png"),
        ],
        structured_content=structured,
    )


async def _post(
    client: httpx.AsyncClient, path: str, body: dict[str, Any], key: str | None
) -> httpx.Response | types.CallToolResult:
    """Return the API's answer to ``body`` posted to ``path`` with ``key``, or the tool error
    of no key or no API."""
    if not key:
        return _tool_error(
            "No API key: set CELESTIAL_API_KEY, or send Authorization: Bearer <key> to this MCP server.", None
        )
    try:
        return await client.post(path, json=body, headers={"Authorization": f"Bearer {key}"})
    except httpx.HTTPError as error:
        return _tool_error(f"The Celestial API could not be reached at {client.base_url}: {error}", None)


def _json_or_error(answer: httpx.Response) -> dict[str, Any] | types.CallToolResult:
    """Return a successful answer's JSON body; a refusal as a tool error carrying the API's
    status, code, parameter, message and suggestion (and Retry-After)."""
    try:
        body = answer.json()
    except ValueError:
        return _tool_error(f"HTTP {answer.status_code} from the Celestial API, not JSON: {answer.text[:200]}", None)
    if answer.is_success:
        return body
    lines = [f"HTTP {answer.status_code}"]
    for error in body.get("errors", ()):
        param = f" (parameter {error['param']})" if error.get("param") else ""
        lines.append(f"{error.get('code')}{param}: {error.get('message')} Suggestion: {error.get('suggestion')}")
    retry_after = answer.headers.get("Retry-After")
    if retry_after:
        lines.append(f"Retry after {retry_after} s.")
    return _tool_error("\n".join(lines), body)


def _schema_error(name: str, problems: list[str]) -> types.CallToolResult:
    return _tool_error(
        f"The arguments do not match the input schema of {name}, so nothing was sent:\n"
        + "\n".join(f"- {problem}" for problem in problems)
        + "\nCorrect them as the schema says (a string or an array of strings for a list such as bodies).",
        None,
    )


def _tool_error(text: str, body: dict[str, Any] | None) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=body, is_error=True)
