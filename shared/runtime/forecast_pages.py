"""The pages of a forecast's JSON answer (/v1/forecast page_size and page_token): a page is a
pure function of the request and its token, with no state kept between pages.

A token holds the position of its page's first event in the whole ordered list, and a check
of the request it pages: 16 bytes, written in base64url without padding (22 characters), the
position as 4 bytes (big-endian) and the first 12 bytes of the SHA-256 of the request's key
(:func:`request_key`: what decides the list, not the page size) and the position. A token of
another request, or one altered, fails the check (InvalidParameter naming page_token). Nothing
is secret: a token made by hand for this request's own list gives a page of that list, which
the request answers anyway.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from typing import TypeVar

from shared.errors import InvalidParameter

T = TypeVar("T")

#: The bytes of a token: the position, then the check.
_POSITION_BYTES, _CHECK_BYTES = 4, 12
#: The longest a token is, and its alphabet (base64url): the pattern of page_token.
TOKEN_CHARS = 22


def request_key(*parts: object) -> str:
    """Return the key of the ordered list of events a request answers: its ``parts`` (the
    chart's key, the range, the kinds, the filters, the order) as text."""
    return "|".join(",".join(map(str, part)) if isinstance(part, tuple | list) else str(part) for part in parts)


def page_token(key: str, position: int) -> str:
    """Return the token of the page that starts at ``position`` (0-based) of the list of ``key``."""
    raw = position.to_bytes(_POSITION_BYTES, "big") + _check(key, position)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def page_position(token: str, key: str) -> int:
    """Return the position of the first event of the page ``token`` names in the list of
    ``key``; InvalidParameter naming page_token when it is no token of that list."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    position = int.from_bytes(raw[:_POSITION_BYTES], "big")
    if len(raw) != _POSITION_BYTES + _CHECK_BYTES or raw[_POSITION_BYTES:] != _check(key, position):
        raise InvalidParameter(
            "'page_token' is not a next_page_token of this request.",
            suggestion="Send the next_page_token of the page before with the same parameters, or leave page_token "
            "out for the first page.",
            param="page_token",
        )
    return position


def _check(key: str, position: int) -> bytes:
    return hashlib.sha256(f"{key}|{position}".encode()).digest()[:_CHECK_BYTES]


def page_of(items: Sequence[T], position: int, size: int, key: str) -> tuple[Sequence[T], str | None]:
    """Return the page of ``size`` items of ``items`` from ``position`` on, and the token of the
    next page (None when the page holds the last item, or lies past it)."""
    end = position + size
    return items[position:end], page_token(key, end) if end < len(items) else None
