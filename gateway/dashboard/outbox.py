"""The development outbox page, ``/dashboard/outbox``: the mail `make run`'s mail catcher
received (``shared/runtime/dev_outbox.py``), each message's links clickable, so sign-up and
"forgot password" work on a first run with no mail server.

Those messages hold one-time links that sign a person in, so the page exists only for the
operator of a development run. It answers only when all of these hold, and is the dashboard's
plain 404 page otherwise:

- the gateway is in development mode (CELESTIAL_MODE; the container image sets production);
- `make run`'s supervisor runs the catcher and gave this gateway the outbox token;
- the request comes from the machine itself (a loopback address);
- the address carries that token (``?token=``), which `make run` printed and only the
  operator's terminal and the gateway's own environment hold: another user of the machine
  reaches loopback too.
"""

from __future__ import annotations

import ipaddress
import re
import secrets

from starlette.requests import Request
from starlette.responses import Response

from gateway.html_pages import render_message, render_page
from shared.runtime.config import Settings
from shared.runtime.dev_outbox import OUTBOX_LIMIT, read_messages

_LINK = re.compile(r"https?://[^\s<>\"]+")


def from_loopback(request: Request) -> bool:
    """Return whether the request's peer is a loopback address of this machine."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def outbox_open_to(settings: Settings, request: Request) -> bool:
    """Return whether ``request`` may read the development outbox (the rules above)."""
    token = settings.dev_outbox_token
    if settings.production or token is None or not from_loopback(request):
        return False
    return secrets.compare_digest(request.query_params.get("token", "").encode(), token.encode())


def linked_parts(text: str) -> list[tuple[str, bool]]:
    """Return ``text`` cut into (piece, is_link) pairs, each http(s) address a piece of its own."""
    parts: list[tuple[str, bool]] = []
    position = 0
    for match in _LINK.finditer(text):
        if match.start() > position:
            parts.append((text[position : match.start()], False))
        parts.append((match.group(0), True))
        position = match.end()
    if position < len(text):
        parts.append((text[position:], False))
    return parts


async def outbox_page(request: Request) -> Response:
    """Return the outbox page, or the dashboard's 404 page to anyone it is not open to."""
    settings: Settings = request.app.state.gateway.settings
    if not outbox_open_to(settings, request):
        return render_message(request, "Page not found", "There is no dashboard page here.", 404)
    messages = [
        {"message": message, "parts": linked_parts(message.text)} for message in read_messages(settings.dev_outbox_dir)
    ]
    return render_page(
        request,
        "outbox.html",
        {
            "title": "Development outbox",
            "who": None,
            "messages": messages,
            "limit": OUTBOX_LIMIT,
            "folder": str(settings.dev_outbox_dir),
        },
    )
