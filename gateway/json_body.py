"""Reading a POST's JSON body: size cap, content type, decoding, with the spec's errors."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from starlette.requests import Request

from shared.errors import InvalidBody, InvalidParameter, PayloadTooLarge

#: Largest body accepted (decisions.md: over 1 MiB is 413 payload_too_large).
MAX_BODY_BYTES = 1024 * 1024


async def read_json_body(request: Request, *, get_offered: bool = False) -> Any:
    """Return the decoded JSON body of a POST (None when empty); 400/413 for what cannot be read.

    ``get_offered`` says whether the route also answers GET, which the refusal of a query
    string then suggests.
    """
    if request.query_params:
        raise InvalidParameter(
            "A POST carries its parameters in the JSON body, not in the query string.",
            suggestion="Move the query parameters into the JSON object body" + (", or use GET." if get_offered else "."),
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
        return None
    content_type = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if content_type not in ("application/json", "") and not content_type.endswith("+json"):
        raise InvalidBody(f"The body must be JSON (Content-Type: application/json), not {content_type}.")
    try:
        return decode_json(bytes(chunks))
    except orjson.JSONDecodeError:
        raise InvalidBody("The body is not valid JSON.") from None


# The end of an object member's name: '"', optional whitespace, ':'. Each member has one; the
# text of a string can only add more (through an escaped quote), never fewer.
_MEMBER_NAME_END = re.compile(rb'"[ \t\n\r]*:')


def decode_json(data: bytes | str, *, where: str = "") -> Any:
    """Return the value of the JSON text ``data``; no object in it may name a member twice.

    Raises orjson.JSONDecodeError when ``data`` is not JSON, and InvalidParameter naming the
    repeated member by its path (``requests[0].params.datetime``, under ``where`` when
    given) when an object repeats a name, as a query string refuses a scalar given twice.
    Repeats are looked for only when the text holds more member names than the value has
    members, so an ordinary body is decoded once, by orjson.
    """
    value = orjson.loads(data)
    raw = data.encode() if isinstance(data, str) else data
    if len(_MEMBER_NAME_END.findall(raw)) > _member_count(value):
        repeated = _repeated_member(raw, where)
        if repeated is not None:
            name = repeated.rsplit(".", 1)[-1]
            raise InvalidParameter(
                f"'{repeated}' was given more than once.",
                suggestion=f"Send {name} once in each JSON object.",
                param=repeated,
            )
    return value


def _member_count(value: Any) -> int:
    """Return how many object members ``value`` holds, at every depth."""
    count, pending = 0, [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            count += len(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


class _Members(list):
    """A JSON object's members as (name, value) pairs, in order, repeats kept."""


def _repeated_member(raw: bytes, where: str) -> str | None:
    """Return the path of the first member name an object of ``raw`` repeats, or None."""
    try:
        # Numbers are not needed, only names: skip converting them (int() refuses 4300 digits).
        tree = json.loads(raw, object_pairs_hook=_Members, parse_int=len, parse_float=len)
    except RecursionError:
        raise InvalidBody("The JSON text nests too deeply.") from None
    pending: list[tuple[Any, str]] = [(tree, where)]
    while pending:
        item, path = pending.pop()
        if isinstance(item, _Members):
            seen: set[str] = set()
            for name, child in item:
                member = f"{path}.{name}" if path else name
                if name in seen:
                    return member
                seen.add(name)
                pending.append((child, member))
        elif isinstance(item, list):
            pending.extend((child, f"{path}[{index}]") for index, child in enumerate(item))
    return None
