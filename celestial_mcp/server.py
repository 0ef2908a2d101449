"""``celestial-mcp``: the MCP server of the Celestial API, on the official ``mcp`` SDK.

By default its tools are the curated set (``celestial_mcp/curated.py``): eighteen tools
written for a model, local time first, their results summarized and paged; with
``--tools=full`` (or ``CELESTIAL_MCP_TOOLS=full``) they are the API's operations, one each
(``celestial_mcp/tools.py``). Both are checked against the API's own ``/v1/openapi.json``,
read at start. Its resources are the reference data (``celestial_mcp/reference_data.py``)
and, with the curated set, each tool's full parameters (``celestial://parameters/<tool>``). It serves one local
assistant over stdio (``celestial-mcp``), or remote ones over streamable HTTP (``celestial-mcp --http``), where each
client may send its own key as ``Authorization: Bearer`` to this server.

Settings, read once from the environment here (this is a client of the API, not one of its
processes, so ``shared/runtime/config.py`` does not know them): ``CELESTIAL_BASE_URL`` (the
API, default ``http://127.0.0.1:8080``), ``CELESTIAL_API_KEY`` (the key its calls carry
when the MCP client sends none) and ``CELESTIAL_MCP_TOOLS`` (``curated``, the default, or
``full``; ``--tools`` wins).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from celestial_mcp import reference_data
from celestial_mcp.curated import curated_tool, curated_tools, parameter_resources, read_parameters
from celestial_mcp.tools import AnswerCache, call_curated, call_operation, operation_tools

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: How long one call may take: above the API's own deadline for a scan, so the API's 504
#: (with its message and suggestion) is what the assistant sees, not a timeout of ours.
CALL_TIMEOUT_S = 180.0
#: What every assistant reads first: local time through place or tz, never converted by hand.
LOCAL_TIME = """\
Times are local: give a datetime without an offset (1985-07-13T14:05) and the API reads it in
the zone of place (a town's id from the places tool: call it first for a birth) or of tz (an
IANA zone, Europe/Paris; a places result gives it too). Never convert to UTC yourself: the
API applies the zone's history (DST, wartime), and meta.moment says how it read each time."""
INSTRUCTIONS = {
    "curated": LOCAL_TIME
    + """
Each tool answers {summary, data, page?, trimmed?, warnings?, meta}: read the summary first.
A long list comes a page at a time: call again with cursor=page.next_cursor (no new charge).
Other API parameters go in extra; celestial://parameters/<tool> lists them.
Every call costs credits (meta.credits_used); errors cost nothing and carry a suggestion: follow it.""",
    "full": LOCAL_TIME
    + """
Each tool is one operation of the Celestial API: its arguments are the operation's parameters
(place and tz where it takes them), its result the API's JSON {data, meta, warnings?}.
Every call costs credits (meta.credits_used); errors cost nothing and carry a suggestion: follow it.
The resources list the body names, house systems, ayanamshas and aspect types.""",
}
MODES = tuple(INSTRUCTIONS)


@dataclass(frozen=True)
class McpSettings:
    """Where the API is, and the key calls carry by default."""

    base_url: str
    api_key: str | None
    tools: str = "curated"

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> McpSettings:
        """Return the settings in ``environ``."""
        return cls(
            environ.get("CELESTIAL_BASE_URL", DEFAULT_BASE_URL).rstrip("/"),
            environ.get("CELESTIAL_API_KEY") or None,
            environ.get("CELESTIAL_MCP_TOOLS") or "curated",
        )


def fetch_document(base_url: str) -> dict[str, Any]:
    """Return the API's OpenAPI document (served without a key)."""
    answer = httpx.get(f"{base_url}/v1/openapi.json", timeout=30)
    answer.raise_for_status()
    return answer.json()


def create_server(document: dict[str, Any], settings: McpSettings) -> Server:
    """Return the MCP server of the API described by ``document``, calling ``settings.base_url``,
    with the curated tools or one per operation as ``settings.tools`` says."""
    if settings.tools not in MODES:
        raise ValueError(f"tools must be one of {', '.join(MODES)}, not {settings.tools!r}")
    curated = settings.tools == "curated"
    tools: dict[str, Any] = curated_tools() if curated else operation_tools(document)
    listed = [curated_tool(tool) for tool in tools.values()] if curated else [tool.as_tool() for tool in tools.values()]
    cache = AnswerCache()

    @contextlib.asynccontextmanager
    async def lifespan(server: Server):
        async with httpx.AsyncClient(base_url=settings.base_url, timeout=CALL_TIMEOUT_S) as client:
            yield {"client": client}

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            return types.CallToolResult(
                content=[types.TextContent(text=f"No tool {params.name!r}. Tools: {', '.join(tools)}.")], is_error=True
            )
        key = _bearer_key(ctx.request) or settings.api_key
        client = ctx.lifespan_context["client"]
        if curated:
            return await call_curated(client, tool, params.arguments or {}, key, document, cache)
        return await call_operation(client, tool, params.arguments or {}, key)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=reference_data.resources() + (parameter_resources(tools) if curated else [])
        )

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        found = reference_data.read(str(params.uri)) or (
            read_parameters(str(params.uri), tools, document) if curated else None
        )
        if found is None:
            raise ValueError(f"No resource {params.uri}; see resources/list.")
        return found

    return Server(
        "celestial",
        version=document["info"]["version"],
        instructions=INSTRUCTIONS[settings.tools],
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def _bearer_key(request: Any) -> str | None:
    """Return the key an HTTP client of this server sent as ``Authorization: Bearer``, if any."""
    headers = getattr(request, "headers", None)
    value = headers.get("authorization", "") if headers is not None else ""
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def _serve_stdio(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="celestial-mcp", description="The Celestial API as an MCP server.")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    parser.add_argument(
        "--tools",
        choices=MODES,
        help="curated: eighteen tools written for a model (the default); full: one per API operation",
    )
    args = parser.parse_args(argv)
    settings = McpSettings.from_environment(os.environ)
    if args.tools:
        settings = dataclasses.replace(settings, tools=args.tools)
    if settings.tools not in MODES:
        print(
            f"celestial-mcp: CELESTIAL_MCP_TOOLS must be one of {', '.join(MODES)}, not {settings.tools!r}",
            file=sys.stderr,
        )
        return 2
    try:
        document = fetch_document(settings.base_url)
    except httpx.HTTPError as error:
        print(f"celestial-mcp: cannot read {settings.base_url}/v1/openapi.json: {error}", file=sys.stderr)
        return 1
    server = create_server(document, settings)
    if args.http:
        import uvicorn

        uvicorn.run(server.streamable_http_app(host=args.host), host=args.host, port=args.port, log_level="warning")
    else:
        anyio.run(_serve_stdio, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
