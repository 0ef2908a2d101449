"""Releasing the deliveries the day jobs kept (``store/nats_webhook_schedule.py``) to the
delivery queue when they fall due (issue 46, part 3).

Every worker releases every minute: it reads each minute's deliveries a little before it
(:data:`READ_AHEAD_S`), hears of the ones kept later for a minute already read (a day
computed late: a new subscription, a chart updated), and publishes each at its due time to
the delivery queue, whose message id (subscription, event) makes one message of the copies
every worker publishes. A worker that dies loses nothing the others do not release; a
cluster that stopped starts again from the last minute some worker marked released
(``released_through``), no further back than the retries reach.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable
from typing import Any

from store.errors import StoreError
from store.nats_webhook_schedule import minute_of
from webhooks.settings import WorkerSettings
from webhooks.timing import still_retried

#: Seconds before a minute begins that its deliveries are read: a step's lateness and a read's
#: round trips fit in it, so a delivery is published within a step of its due time.
READ_AHEAD_S = 30.0
#: Minutes read again before the last one marked released when a worker starts: a marker
#: written by a worker that then died may run ahead of what that worker had published.
MARK_MARGIN_MINUTES = 2
#: Deliveries of a minute kept between two yields to the event loop.
_YIELD_EVERY = 500

Wanted = Callable[[str, int, int], bool]


class Releaser:
    """Keeps the deliveries due soon (read by the minute, or heard of as kept) and publishes
    each to the delivery queue at its due time; ``wanted(webhook_id, webhook_version,
    chart_version)`` drops the ones found for what changed since."""

    def __init__(self, store, worker: WorkerSettings, wanted: Wanted):
        self._store = store
        self._worker = worker
        self._wanted = wanted
        self._heap: list[tuple[float, int, dict[str, Any]]] = []
        self._order = 0
        #: The last minute read (None: not started).
        self._read_through: int | None = None
        self._marked = 0

    def _keep(self, delivery: dict[str, Any]) -> None:
        self._order += 1
        heapq.heappush(self._heap, (delivery["due_at_s"], self._order, delivery))

    def heard(self, delivery: dict[str, Any]) -> None:
        """Take in a delivery kept just now: kept here if its minute was read already (the
        reading of a later minute finds the others)."""
        if self._read_through is not None and minute_of(delivery["due_at_s"]) <= self._read_through:
            self._keep(delivery)

    async def step(self, now_s: float) -> int:
        """Read the minutes now within reach, publish every delivery due by ``now_s``; return
        how many were published (copies other workers published included)."""
        if self._read_through is None:
            marked = await self._store.released_through()
            reach = minute_of(now_s - self._worker.retry_for_s)
            start = reach if marked is None else max(reach, marked - MARK_MARGIN_MINUTES)
            self._read_through = start - 1
        while self._read_through < minute_of(now_s + READ_AHEAD_S):
            # Counted as read before it is: a delivery kept while the reading is under way (which
            # the reading may miss) is heard of and kept; one in both is published twice, one message.
            self._read_through += 1
            try:
                found = await self._store.due_in_minute(self._read_through)
            except BaseException:
                self._read_through -= 1
                raise
            for index, delivery in enumerate(found, 1):
                self._keep(delivery)
                if index % _YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # a minute may hold thousands: the loop serves others between
        published = 0
        while self._heap and self._heap[0][0] <= now_s:
            _due, _order, delivery = self._heap[0]
            if self._wanted(
                delivery["webhook_id"], delivery["webhook_version"], delivery["chart_version"]
            ) and still_retried(delivery["due_at_s"], now_s, self._worker.retry_for_s):
                try:
                    await self._store.enqueue_delivery(
                        delivery["webhook_id"], delivery["event"]["id"], _queued(delivery)
                    )
                except StoreError:
                    break  # kept: published at the next step
                published += 1
            heapq.heappop(self._heap)
        if minute_of(now_s) - 1 > self._marked and not (self._heap and minute_of(self._heap[0][0]) < minute_of(now_s)):
            self._marked = minute_of(now_s) - 1
            await self._store.mark_released(self._marked)
        return published


def _queued(delivery: dict[str, Any]) -> dict[str, Any]:
    """Return what the delivery queue carries of a kept delivery (a ``Job``'s document)."""
    return {key: delivery[key] for key in ("webhook_id", "account_id", "event", "due_at_s")}
