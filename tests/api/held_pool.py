"""A service pool whose station scans stay in flight until the test lets them go, so which
calls are in flight is known, not raced (the concurrency tests: tests/api/test_concurrency_refusals_api.py,
tests/api/test_pool_replicas_api.py)."""

from __future__ import annotations

import asyncio
import threading


class HeldPool:
    """A service pool whose station scans wait, in flight, until :meth:`let_go`; the other
    calls are made at once."""

    def __init__(self, pool) -> None:
        self._pool = pool
        self._gate = threading.Event()
        self._arrived = threading.Condition()
        self.held = 0

    async def call(self, method_path: str, *args, **kwargs):
        if method_path.endswith("/FindStations"):
            with self._arrived:
                self.held += 1
                self._arrived.notify_all()
            await asyncio.to_thread(self._gate.wait)
        return await self._pool.call(method_path, *args, **kwargs)

    def wait_held(self, count: int) -> None:
        """Return once ``count`` station scans are held in flight."""
        with self._arrived:
            assert self._arrived.wait_for(lambda: self.held >= count, timeout=30)

    def let_go(self) -> None:
        self._gate.set()

    def __getattr__(self, name: str):
        return getattr(self._pool, name)
