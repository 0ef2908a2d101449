"""Rendering the gateway's HTML pages (the dashboard's, and the price list ``/pricing``): the
Jinja2 templates of ``gateway/templates/``, and the headers every page carries.

Every page is complete HTML that works without JavaScript; every answer is ``no-store`` (a
page may show a key once, and none may be kept by a cache or the back button), framed by
nobody, sends no Referer (an invite link's token must not leak to another site) and loads
scripts and styles only from the gateway itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from gateway.utc_text import readable_moment

TEMPLATES_DIR = Path(__file__).with_name("templates")

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

_environment = Environment(
    loader=FileSystemLoader(TEMPLATES_DIR),
    autoescape=select_autoescape(["html", "svg"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
_environment.filters["moment"] = readable_moment


def render_page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """Return the HTML response of ``template`` with ``context`` (plus the request), with the page headers."""
    html = _environment.get_template(template).render(request=request, **context)
    return HTMLResponse(html, status_code=status, headers=PAGE_HEADERS)


def render_message(
    request: Request, title: str, message: str, status: int, *, who: Any = None, csrf: str = ""
) -> HTMLResponse:
    """Return a page that says only ``title`` and ``message`` (an error, a refusal), with ``status``."""
    return render_page(request, "message.html", {"title": title, "message": message, "who": who, "csrf": csrf}, status)
