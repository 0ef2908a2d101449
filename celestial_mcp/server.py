"""``celestial-mcp``: the MCP server of the Celestial API, on the official ``mcp`` SDK.

Its tools are the API's operations (``celestial_mcp/tools.py``), read from the API's own
``/v1/openapi.json`` at start, so they always match the API they call; its resources are the
reference data (``celestial_mcp/reference_data.py``). It serves one local assistant over stdio
(``celestial-mcp``), or remote ones over streamable HTTP (``celestial-mcp --http``), where each
client may send its own key as ``Authorization: Bearer`` to this server.

Settings, read once from the environment here (this is a client of the API, not one of its
processes, so ``shared/runtime/config.py`` does not know them): ``CELESTIAL_BASE_URL`` (the
API, default ``http://127.0.0.1:8080``) and ``CELESTIAL_API_KEY`` (the key its calls carry
when the MCP client sends none).
"""

from __future__ import annotations

import argparse
import contextlib
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
from celestial_mcp.tools import call_operation, operation_tools

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: How long one call may take: above the API's own deadline for a scan, so the API's 504
#: (with its message and suggestion) is what the assistant sees, not a timeout of ours.
CALL_TIMEOUT_S = 180.0
INSTRUCTIONS = """\
Each tool is one operation of the Celestial API (positions, natal_chart, transits, eclipses_solar, ...):
its arguments are the operation's parameters, its result the API's JSON {data, meta, warnings?}.
A moment is exactly one of datetime (ISO 8601, UTC without an offset) or jd (Julian Day, UT1).
Every call costs credits (meta.credits_used); errors cost nothing and carry a suggestion: follow it.
The resources list the body names, house systems, ayanamshas and aspect types."""


@dataclass(frozen=True)
class McpSettings:
    """Where the API is, and the key calls carry by default."""

    base_url: str
    api_key: str | None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> McpSettings:
        """Return the settings in ``environ``."""
        return cls(environ.get("CELESTIAL_BASE_URL", DEFAULT_BASE_URL).rstrip("/"), environ.get("CELESTIAL_API_KEY") or None)


def fetch_document(base_url: str) -> dict[str, Any]:
    """Return the API's OpenAPI document (served without a key)."""
    answer = httpx.get(f"{base_url}/v1/openapi.json", timeout=30)
    answer.raise_for_status()
    return answer.json()


def create_server(document: dict[str, Any], settings: McpSettings) -> Server:
    """Return the MCP server of the API described by ``document``, calling ``settings.base_url``."""
    tools = operation_tools(document)

    @contextlib.asynccontextmanager
    async def lifespan(server: Server):
        async with httpx.AsyncClient(base_url=settings.base_url, timeout=CALL_TIMEOUT_S) as client:
            yield {"client": client}

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.as_tool() for tool in tools.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            return types.CallToolResult(
                content=[types.TextContent(text=f"No tool {params.name!r}. Tools: {', '.join(tools)}.")], is_error=True
            )
        key = _bearer_key(ctx.request) or settings.api_key
        return await call_operation(ctx.lifespan_context["client"], tool, params.arguments or {}, key)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=reference_data.resources())

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        found = reference_data.read(str(params.uri))
        if found is None:
            raise ValueError(f"No resource {params.uri}; see resources/list.")
        return found

    return Server(
        "celestial",
        version=document["info"]["version"],
        instructions=INSTRUCTIONS,
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
    args = parser.parse_args(argv)
    settings = McpSettings.from_environment(os.environ)
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
