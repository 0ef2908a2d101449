"""Bounded thread pools for a process's blocking work (issue 46, part 2).

Work that blocks a thread (argon2's deliberately slow hashing, an SMTP conversation) runs in a
pool of its own, never in asyncio's default pool: anything else queued there (a library's
``to_thread``, the resolver's ``getaddrinfo``) would make a sign-in wait behind it, and a pool
shared by kinds of work lets the slowest kind hold every thread. Each pool is bounded, so a
burst of such work waits in its own queue instead of starting a thread per call.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class BlockingPool:
    """A pool of at most ``threads`` threads, named ``name`` (in thread dumps), started on first use."""

    def __init__(self, name: str, threads: int) -> None:
        self.name = name
        self.threads = threads
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Return ``function(*args)``, called in one of the pool's threads (raising what it raises)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, functools.partial(function, *args))
