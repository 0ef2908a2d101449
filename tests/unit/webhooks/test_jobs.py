"""webhooks/jobs.py: the local queue hands out jobs when due, in order."""

from __future__ import annotations

import asyncio

from tests.unit.webhooks.scenarios import EVENT
from webhooks.jobs import Job, LocalQueue


def test_the_local_queue_hands_out_jobs_when_due_in_order():
    queue = LocalQueue()
    early, late = Job("wh_a", "x", EVENT, 0.0), Job("wh_b", "x", EVENT, 0.0)

    async def fill():
        await queue.put(late, 20.0, 2)
        await queue.put(early, 10.0, 1)

    asyncio.run(fill())
    assert queue.take(5.0) is None
    assert queue.take(15.0) == (early, 1)
    assert queue.take(25.0) == (late, 2) and queue.take(25.0) is None
