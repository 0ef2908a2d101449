"""The reference routes: /docs, Scalar's API reference (vendored from npm, pinned) rendering
/v1/openapi.json with every file it needs served by the gateway itself; /docs/<page>.md, each
operation in Markdown; /llms.txt, the index for language models.

The page's Content-Security-Policy allows scripts, styles, fonts, images and connections to
this origin only, so the browser itself refuses anything from another host (Scalar's
default fonts, its telemetry, its proxy): what the tests check is what the browser enforces.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from gateway.errors import with_error_body
from gateway.operation_names import page_name
from gateway.reference.llms_text import link_elements, link_field, llms_text
from gateway.reference.operation_markdown import former_page_names, operation_pages
from shared.errors import NotFound

ASSETS_DIR = Path(__file__).resolve().parent / "docs_assets"
SCALAR_DIR = ASSETS_DIR / "scalar"
ASSETS_PATH = "/docs/assets"

#: The vendored release of @scalar/api-reference (``make vendor-scalar`` replaces it).
SCALAR_VERSION = (SCALAR_DIR / "VERSION").read_text().strip()

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        # Scalar injects its stylesheet and sets inline styles as it lays out the page.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    )
)


def scalar_configuration(openapi_url: str) -> dict[str, Any]:
    """Return the configuration the page hands to ``Scalar.createApiReference``."""
    return {
        "url": openapi_url,
        "title": "Celestial API reference",
        # Everything the defaults would fetch from Scalar's hosts is off: fonts, telemetry,
        # the AI agent and its MCP shortcuts, the request proxy (requests go straight to
        # this origin, which answers CORS itself).
        "withDefaultFonts": False,
        "telemetry": False,
        "agent": {"disabled": True},
        "mcp": {"disabled": True},
        "showDeveloperTools": "never",
        # The reader's key stays in this browser's storage between visits.
        "persistAuth": True,
        "authentication": {"preferredSecurityScheme": "bearer"},
        "defaultOpenAllTags": True,
        "expandAllResponses": False,
        "hideDownloadButton": False,
        "documentDownloadType": "json",
        "orderRequiredPropertiesFirst": True,
        # No defaultHttpClient: without one, each operation opens on the first of its own
        # x-codeSamples, our Python client's call (gateway/reference/code_samples.py).
    }


def render_reference_page(
    document: dict[str, Any], operation_pages: dict[str, str], openapi_url: str = "/v1/openapi.json"
) -> str:
    """Return the HTML of /docs: Scalar's reference of ``openapi_url``, and (for readers
    without JavaScript) a list of the operations linking their Markdown pages.

    ``operation_pages`` maps each operation's path to its Markdown page's URL.
    """
    esc = html.escape
    # Inside a script element only "</" could end it early; JSON may write "<" as \u003c.
    config = orjson.dumps(scalar_configuration(openapi_url)).decode().replace("<", "\\u003c")
    fallback = "".join(
        f"<li><a href='{esc(url)}'><code>{esc(path)}</code></a> {esc(_summary(document, path))}</li>"
        for path, url in operation_pages.items()
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        # No favicon: without this line the browser asks for /favicon.ico and gets a 404.
        "<link rel='icon' href='data:,'>"
        # llms.txt v2: the index that covers this page, for an agent that lands here.
        f"{link_elements()}"
        f"<title>{esc(document['info']['title'])} API reference</title></head><body>"
        f"<noscript><h1>{esc(document['info']['title'])} API reference</h1>"
        "<p>This page needs JavaScript; the same reference is in <a href='/llms.txt'>/llms.txt</a>, "
        "<a href='/v1/openapi.json'>/v1/openapi.json</a> and these pages:</p>"
        f"<ul>{fallback}</ul></noscript>"
        "<div id='reference'></div>"
        # A JSON data block is never executed, so the policy's script-src 'self' still holds.
        f"<script type='application/json' id='reference-configuration'>{config}</script>"
        f"<script src='{ASSETS_PATH}/scalar/standalone.js?v={esc(SCALAR_VERSION)}'></script>"
        f"<script src='{ASSETS_PATH}/reference.js?v={esc(SCALAR_VERSION)}'></script>"
        "</body></html>"
    )


def _summary(document: dict[str, Any], path: str) -> str:
    operations = document["paths"][path]
    return (operations.get("get") or operations["post"]).get("summary", "")


def reference_routes(document: dict[str, Any], guides: Sequence[tuple[str, str]] = ()) -> list[BaseRoute]:
    """Return the routes of the reference of ``document``, every page written once, here;
    /llms.txt links ``guides`` ((title, URL of its Markdown)) too."""
    markdown = {name: text.encode() for name, text in operation_pages(document).items()}
    former = former_page_names(document)
    page = render_reference_page(document, {path: f"/docs/{page_name(path)}.md" for path in document["paths"]})
    index = llms_text(document, guides)

    async def reference(request: Request) -> Response:
        return HTMLResponse(page, headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY, "Link": link_field()})

    @with_error_body
    async def markdown_page(request: Request) -> Response:
        name = request.path_params["page"]
        if name in former:  # the page's name before it was the API path's: a permanent move
            return RedirectResponse(f"/docs/{former[name]}.md", status_code=301)
        if name not in markdown:
            raise NotFound(f"No reference page {name}.md.", suggestion="/llms.txt lists every page.")
        return Response(markdown[name], media_type="text/markdown; charset=utf-8", headers={"Link": link_field()})

    async def llms(request: Request) -> Response:
        return PlainTextResponse(index)

    return [
        Route("/docs", reference, methods=["GET"]),
        Route("/docs/{page:path}.md", markdown_page, methods=["GET"]),
        Route("/llms.txt", llms, methods=["GET"]),
        Mount(ASSETS_PATH, app=StaticFiles(directory=ASSETS_DIR), name="docs_assets"),
    ]
