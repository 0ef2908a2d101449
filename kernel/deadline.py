"""When a computation must give up: its caller's deadline, or its caller gone.

A long computation (a scan) calls :meth:`Deadline.check` between its steps; the runtime
builds the deadline from the gRPC call's remaining time and moves it to now when the
client cancels, so a computation nobody waits for stops at its next step.
"""

from __future__ import annotations

import math
import time


class DeadlinePassed(Exception):
    """Raised by :meth:`Deadline.check` once the deadline has passed or the caller has gone."""


class Deadline:
    """A point on the monotonic clock (``time.monotonic()`` seconds) after which work stops."""

    __slots__ = ("_at",)

    def __init__(self, at_monotonic_s: float = math.inf):
        self._at = at_monotonic_s

    @classmethod
    def never(cls) -> Deadline:
        """Return a deadline that never passes (unless cancelled)."""
        return cls()

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """Return the deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds)

    @property
    def at_monotonic_s(self) -> float:
        """The point on the monotonic clock (seconds) at which the deadline passes; on Linux the
        clock is the machine's, so another process reads the same point."""
        return self._at

    def cancel(self) -> None:
        """Make the deadline pass now: the caller no longer wants the answer.

        Safe to call from another thread than the one computing.
        """
        self._at = -math.inf

    @property
    def passed(self) -> bool:
        """Whether the deadline has passed (or was cancelled)."""
        return time.monotonic() >= self._at

    def remaining_s(self) -> float:
        """Return the seconds left (``inf`` for a deadline that never passes, <= 0 once passed)."""
        return self._at - time.monotonic()

    def check(self) -> None:
        """Raise :class:`DeadlinePassed` when the deadline has passed; return otherwise."""
        if time.monotonic() >= self._at:
            raise DeadlinePassed
