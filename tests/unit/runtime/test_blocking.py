"""shared/runtime/blocking.py: blocking work runs in its own bounded pool: it answers what the
function returns or raises, never more threads at once than the bound, and never queues
behind work in asyncio's default pool."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from shared.runtime.blocking import BlockingPool


def with_the_default_pool_held(work):
    """Return ``work()``'s result, awaited while asyncio's default pool's only thread is busy."""
    release = threading.Event()

    async def body():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1))
        held = loop.run_in_executor(None, release.wait, 30)
        try:
            return await asyncio.wait_for(work(), 5)
        finally:
            release.set()
            await held

    return asyncio.run(body())


def test_the_pool_answers_what_the_function_returns_or_raises():
    pool = BlockingPool("test", 1)
    assert asyncio.run(pool.run(divmod, 7, 2)) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        asyncio.run(pool.run(divmod, 1, 0))


def test_no_more_threads_run_at_once_than_the_bound():
    pool = BlockingPool("test", 2)
    running, most = [0], [0]
    lock = threading.Lock()

    def work() -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1

    async def many():
        await asyncio.gather(*(pool.run(work) for _ in range(6)))

    asyncio.run(many())
    assert most[0] == 2


def test_its_work_never_queues_behind_the_default_pool():
    pool = BlockingPool("test", 1)
    assert with_the_default_pool_held(lambda: pool.run(sum, [1, 2])) == 3
