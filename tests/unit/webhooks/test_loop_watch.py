"""webhooks/loop_watch.py: a block of the event loop is seen at its length at least; one it
spent computing is told from one it spent descheduled; the longest is read once, then starts again."""

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


def test_a_block_the_loop_spent_computing_is_told_from_one_it_spent_descheduled():
    watch = LoopWatch()
    watch.saw(0.080, cpu_s=0.078)
    watch.saw(0.120, cpu_s=0.002)  # the core was taken away: the loop did nothing
    assert (watch.longest_ever_ms, watch.longest_cpu_ever_ms) == (120.0, 78.0)


def test_the_longest_block_is_read_once_then_starts_again():
    watch = LoopWatch()
    watch.saw(0.030)
    watch.saw(0.012)
    assert (watch.take_longest_ms(), watch.take_longest_ms(), watch.longest_ever_ms) == (30.0, 0.0, 30.0)
