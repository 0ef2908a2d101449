"""A request as one process read it: the message, the typed query its reader returned, and
every value read from it on the way (moments with their local readings, towns, bodies),
kept so that each is parsed once per process.

Validation (``validation.py``) builds it: the gateway keeps it for ``meta.moment`` and
reads nothing after the service answers; a service's ``compute_reply`` hands it to the
handler, whose readers (``wire.py`` and the message's reader) find what was read already.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from google.protobuf.message import Message

T = TypeVar("T")


class RequestReading:
    """A request message and what was read from it.

    ``query`` is what the message's reader (its ``(message).reader``) returned, or None for
    a message without one. Attributes the reading does not have are the message's, so a
    handler reads its plain fields (``request.orb``) and its values alike from the reading.
    """

    __slots__ = ("message", "query", "_kept")

    def __init__(self, message: Message):
        self.message = message
        self.query: Any = None
        self._kept: dict[Hashable, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.message, name)

    def kept(self, key: Hashable, read: Callable[[], T]) -> T:
        """Return the value read under ``key``: ``read()`` the first time, what it returned after."""
        if key in self._kept:
            return self._kept[key]
        value = self._kept[key] = read()
        return value


def kept(request: Message | RequestReading, key: Hashable, read: Callable[[], T]) -> T:
    """Return ``read()`` for a bare message; for a reading, the value it kept under ``key``
    (read once)."""
    if isinstance(request, RequestReading):
        return request.kept(key, read)
    return read()


def message_of(request: Message | RequestReading) -> Message:
    """Return the protobuf message of a request or of its reading."""
    return request.message if isinstance(request, RequestReading) else request
