"""A due delivery (:class:`Job`) and the SQLite deployment's queue of them in memory."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Job:
    """One due delivery: the subscription's and account's ids, the event (as delivered) and
    when it fell due (Unix seconds)."""

    webhook_id: str
    account_id: str
    event: dict[str, Any]
    due_at_s: float

    @property
    def event_id(self) -> str:
        return self.event["id"]

    def as_dict(self) -> dict[str, Any]:
        return {
            "webhook_id": self.webhook_id,
            "account_id": self.account_id,
            "event": self.event,
            "due_at_s": self.due_at_s,
        }

    @classmethod
    def of(cls, document: dict[str, Any]) -> Job:
        return cls(document["webhook_id"], document["account_id"], document["event"], document["due_at_s"])


class LocalQueue:
    """The SQLite deployment's queue, in the scheduling worker's memory: jobs by the instant
    they may next be tried, with their attempt numbers."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Job, int]] = []
        self._order = 0

    async def put(self, job: Job, at_s: float = 0.0, attempt: int = 1) -> None:
        self._order += 1
        heapq.heappush(self._heap, (at_s, self._order, job, attempt))

    def take(self, now_s: float) -> tuple[Job, int] | None:
        """Return the next job that may be tried at ``now_s`` and its attempt number; None if none."""
        if self._heap and self._heap[0][0] <= now_s:
            _at, _order, job, attempt = heapq.heappop(self._heap)
            return job, attempt
        return None

    def clear(self) -> None:
        self._heap.clear()
