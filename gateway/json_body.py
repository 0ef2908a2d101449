"""Reading a POST's JSON body: size cap, content type, decoding, with the spec's errors."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request

from shared.errors import InvalidBody, InvalidParameter, PayloadTooLarge
from shared.runtime.json_text import decode_json

#: Largest body accepted (decisions.md: over 1 MiB is 413 payload_too_large).
MAX_BODY_BYTES = 1024 * 1024


async def read_json_body(request: Request, *, get_offered: bool = False, empty: Any = None) -> Any:
    """Return the decoded JSON body of a POST (``empty`` when none was sent, so a caller may tell
    it from a JSON ``null``); 400/413 for what cannot be read.

    ``get_offered`` says whether the route also answers GET, which the refusal of a query
    string then suggests.
    """
    if request.query_params:
        raise InvalidParameter(
            "A POST carries its parameters in the JSON body, not in the query string.",
            suggestion="Move the query parameters into the JSON object body"
            + (", or use GET." if get_offered else "."),
            param=next(iter(request.query_params.keys())),
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"The body is {declared} bytes; at most {MAX_BODY_BYTES} are accepted.")
    chunks = bytearray()
    async for chunk in request.stream():
        chunks.extend(chunk)
        if len(chunks) > MAX_BODY_BYTES:
            raise PayloadTooLarge(f"The body exceeds {MAX_BODY_BYTES} bytes.")
    if not chunks.strip():
        return empty
    content_type = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if content_type not in ("application/json", "") and not content_type.endswith("+json"):
        raise InvalidBody(f"The body must be JSON (Content-Type: application/json), not {content_type}.")
    try:
        return decode_json(bytes(chunks))
    except orjson.JSONDecodeError:
        raise InvalidBody("The body is not valid JSON.") from None
