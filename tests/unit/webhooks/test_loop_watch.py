"""webhooks/loop_watch.py: a block of the event loop is seen at its length at least; the
longest is read once, then starts again."""

from __future__ import annotations

import asyncio
import time

from webhooks.loop_watch import LoopWatch


def test_a_block_of_the_loop_is_seen_at_its_length_at_least():
    watch = LoopWatch()

    async def body():
        stop = asyncio.Event()
        watching = asyncio.create_task(watch.watch(stop))
        await asyncio.sleep(0.05)
        time.sleep(0.08)  # holds the loop
        await asyncio.sleep(0.05)
        stop.set()
        await watching

    asyncio.run(body())
    assert watch.take_longest_ms() >= 70.0


def test_the_longest_block_is_read_once_then_starts_again():
    watch = LoopWatch()
    watch.saw(0.030)
    watch.saw(0.012)
    assert (watch.take_longest_ms(), watch.take_longest_ms(), watch.longest_ever_ms) == (30.0, 0.0, 30.0)
