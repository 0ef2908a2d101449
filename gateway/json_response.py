"""The one way the gateway writes a JSON answer: encoded with orjson, as ``application/json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from starlette.responses import Response


def json_response(content: Any, status_code: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """Return the response whose body is ``content`` as JSON (bytes are taken as JSON already
    encoded: the OpenAPI document is encoded once, not on every request).

    orjson rather than the standard library's encoder, which costs as much as the astronomy.
    """
    body = content if isinstance(content, bytes) else orjson.dumps(content)
    return Response(body, status_code=status_code, media_type="application/json", headers=headers)
