"""JSON text as the API reads it (a request's body, a parameter given as JSON text): decoded
by orjson, and refused when an object names a member twice. Kernel-free."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from shared.errors import InvalidBody, InvalidParameter

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
