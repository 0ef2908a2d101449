"""Protobuf replies to the spec's JSON envelope ``{data, meta, warnings?}`` and error body.

The reply itself renders as ``shared/runtime/reply_rendering.py`` says.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from shared.errors import CelestialError
from shared.runtime.reply_rendering import render_message


def success_body(reply: Message, meta: dict[str, Any]) -> dict[str, Any]:
    """Return ``{data, meta, warnings?}`` for a service reply (its ``data`` and ``warnings``);
    a reply's ``conventions`` (how the answer was made: the Vedic endpoints') go in ``meta``."""
    rendered = render_message(reply)
    if "conventions" in rendered:
        meta = {**meta, "conventions": rendered["conventions"]}
    body: dict[str, Any] = {"data": rendered.get("data"), "meta": meta}
    warnings = rendered.get("warnings")
    if warnings:
        body["warnings"] = warnings
    return body


def error_body(errors: list[CelestialError], request_id: str) -> dict[str, Any]:
    """Return the spec's error body ``{errors: [...], meta: {request_id}}``."""
    return {"errors": [error.as_dict() for error in errors], "meta": {"request_id": request_id}}
