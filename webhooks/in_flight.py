"""A webhook worker's attempts in flight (issue 46, part 2): at most ``concurrency`` in all,
at most the per-account bound (``webhooks/account_slots.py``) of one account.

Each attempt runs as a task of its own, so the loop that hands attempts out never waits on a
receiver: it waits only for room (:meth:`InFlight.wait_room`), and an attempt whose account
has no free slot is not started (:meth:`InFlight.start` says so at once) and is put off by the
caller, holding nothing meanwhile.

Deliveries are on asyncio, not threads: an attempt in flight costs a socket and some tens of
kilobytes (its buffers and, for https, the TLS state), not a thread, so a worker keeps
:data:`DEFAULT_CONCURRENCY` in flight. That many attempts, each ended within the delivery's
deadline (10 s), keep at least 25 attempts a second flowing even if every receiver hangs to
the deadline, and it takes 64 accounts at their bound of 4 to fill them all; a healthy
receiver answers within tens of milliseconds, so the store's writes, not this bound, limit a
worker's rate. 256 sockets stay well inside the usual 1,024 open files of a process.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import structlog

from webhooks.account_slots import AccountSlots

log = structlog.get_logger("webhook_worker")

#: Attempts one worker has in flight at once, by default (CELESTIAL_WEBHOOK_CONCURRENCY).
DEFAULT_CONCURRENCY = 256
#: Seconds a job of an account with no free slot waits in the SQLite worker's memory before
#: it is looked at again (free to look at: no round trip).
PUT_OFF_IN_MEMORY_S = 0.5


def put_off_s(timeout_s: float) -> float:
    """Return the seconds a NATS message of an account with no free slot goes back to the queue
    for: half to all of the delivery's deadline ``timeout_s``, within which a slot is sure to
    have freed. Each put-off is a round trip to NATS: an account with ``n`` jobs waiting costs
    about ``n / timeout_s`` of them a second, not one per job every loop; the jitter keeps
    them from coming back together."""
    return timeout_s * random.uniform(0.5, 1.0)


class InFlight:
    """The attempts in flight (see the module's docstring)."""

    def __init__(self, concurrency: int, slots: AccountSlots) -> None:
        self.concurrency = concurrency
        self.slots = slots
        self._tasks: set[asyncio.Task] = set()
        self._ended = asyncio.Event()

    def __len__(self) -> int:
        return len(self._tasks)

    def has_room(self) -> bool:
        """Return whether another attempt may start (fewer than ``concurrency`` in flight)."""
        return len(self._tasks) < self.concurrency

    async def wait_room(self) -> None:
        """Return once another attempt may start."""
        while not self.has_room():
            self._ended.clear()
            await self._ended.wait()

    def start(self, account_id: str, attempt: Callable[[], Awaitable[None]]) -> bool:
        """Start ``attempt()`` as a task holding one of the account's slots until it ends;
        return False, starting nothing, when there is no room or the account's slots are held."""
        if not self.has_room() or not self.slots.take(account_id):
            return False
        task = asyncio.create_task(self._run(account_id, attempt))
        self._tasks.add(task)
        task.add_done_callback(self._end)
        return True

    async def _run(self, account_id: str, attempt: Callable[[], Awaitable[None]]) -> None:
        try:
            await attempt()
        except Exception as error:  # the attempt's own bookkeeping failed: its job is tried again
            log.warning("webhook_deliver_failed", error=repr(error))
        finally:
            self.slots.give_back(account_id)

    def _end(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        self._ended.set()

    async def drain(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` seconds for the attempts in flight to end."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout_s)
