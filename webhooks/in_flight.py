"""A webhook worker's attempts in flight (issue 46, part 2): at most ``concurrency`` in all,
at most the per-account bound (``webhooks/account_slots.py``) of one account.

Each attempt runs as a task of its own, so the loop that hands attempts out never waits on a
receiver: it waits only for room (:meth:`InFlight.wait_room`). An attempt whose account has
no free slot is not started (:meth:`InFlight.start` says so at once); the caller may have it
wait in memory (:meth:`InFlight.hold`), a few per account, to be started the moment one of
the account's attempts ends, holding no loop meanwhile, or put it off elsewhere.

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
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from webhooks.account_slots import AccountSlots

log = structlog.get_logger("webhook_worker")

#: Attempts one worker has in flight at once, by default (CELESTIAL_WEBHOOK_CONCURRENCY).
DEFAULT_CONCURRENCY = 256
#: Attempts of one account that may wait in a worker's memory for its slots, per slot: enough
#: that an account's burst (20 subscriptions with an event due at once, on 2 workers at 4
#: slots each) waits here rather than going back to the queue; few enough that one account's
#: backlog never fills the memory every other account's attempts need.
WAITING_PER_SLOT = 4
#: Seconds a job of an account with no free slot waits in the SQLite worker's memory before
#: it is looked at again (free to look at: no round trip).
PUT_OFF_IN_MEMORY_S = 0.5

Attempt = Callable[[], Awaitable[None]]


def put_off_s(timeout_s: float) -> float:
    """Return the seconds a NATS message of an account with no free slot and no room to wait
    goes back to the queue for: half to all of the delivery's deadline ``timeout_s``, within
    which a slot is sure to have freed. Each put-off is a round trip to NATS: an account with
    ``n`` jobs put off costs about ``n / timeout_s`` of them a second, not one per job every
    loop; the jitter keeps them from coming back together."""
    return timeout_s * random.uniform(0.5, 1.0)


@dataclass(frozen=True)
class Waiting:
    """An attempt waiting for its account's slot, and what keeps its job ours meanwhile."""

    attempt: Attempt
    keep: Callable[[], Awaitable[None]] | None


class InFlight:
    """The attempts in flight and those waiting (see the module's docstring)."""

    def __init__(self, concurrency: int, slots: AccountSlots) -> None:
        self.concurrency = concurrency
        self.slots = slots
        self.waiting_per_account = WAITING_PER_SLOT * slots.per_account
        self._tasks: set[asyncio.Task] = set()
        self._waiting: dict[str, deque[Waiting]] = {}
        self._ended = asyncio.Event()

    def __len__(self) -> int:
        return len(self._tasks)

    def waiting(self) -> int:
        """Return how many attempts wait for their account's slots."""
        return sum(len(queue) for queue in self._waiting.values())

    def has_room(self) -> bool:
        """Return whether another attempt may start (fewer than ``concurrency`` in flight)."""
        return len(self._tasks) < self.concurrency

    async def wait_room(self) -> None:
        """Return once another attempt may start."""
        while not self.has_room():
            self._ended.clear()
            await self._ended.wait()

    def start(self, account_id: str, attempt: Attempt) -> bool:
        """Start ``attempt()`` as a task holding one of the account's slots until it ends;
        return False, starting nothing, when there is no room or the account's slots are held."""
        if not self.has_room() or not self.slots.take(account_id):
            return False
        task = asyncio.create_task(self._run(account_id, attempt))
        self._tasks.add(task)
        task.add_done_callback(self._end)
        return True

    def hold(self, account_id: str, attempt: Attempt, keep: Callable[[], Awaitable[None]] | None = None) -> bool:
        """Keep ``attempt`` waiting, to be started as soon as an attempt ends that leaves room
        and a free slot of the account; return False, keeping nothing, when the account already has
        ``waiting_per_account`` waiting or the worker ``concurrency`` in all. ``keep()`` is
        called by :meth:`keep_waiting` (a NATS message's ``in_progress``)."""
        queue = self._waiting.get(account_id)
        if (queue is not None and len(queue) >= self.waiting_per_account) or self.waiting() >= self.concurrency:
            return False
        self._waiting.setdefault(account_id, deque()).append(Waiting(attempt, keep))
        return True

    async def keep_waiting(self) -> None:
        """Call the ``keep`` of every attempt waiting."""
        for queue in list(self._waiting.values()):
            for waiting in list(queue):
                if waiting.keep is not None:
                    await waiting.keep()

    async def _run(self, account_id: str, attempt: Attempt) -> None:
        try:
            await attempt()
        except Exception as error:  # the attempt's own bookkeeping failed: its job is tried again
            log.warning("webhook_deliver_failed", error=repr(error))
        finally:
            self.slots.give_back(account_id)
            # This task's place and its account's slot pass to an attempt waiting, if any.
            self._tasks.discard(asyncio.current_task())
            self._start_waiting()

    def _start_waiting(self) -> None:
        """Start the attempts waiting whose accounts have a free slot, while there is room,
        one account after another (an account served goes to the back of the line)."""
        for account_id in list(self._waiting):
            if not self.has_room():
                return
            queue = self._waiting[account_id]
            if self.start(account_id, queue[0].attempt):
                queue.popleft()
                del self._waiting[account_id]
                if queue:
                    self._waiting[account_id] = queue

    def _end(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        self._ended.set()

    async def drain(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` seconds for the attempts in flight, and those waiting, to end."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while self._tasks and loop.time() < deadline:
            await asyncio.wait(set(self._tasks), timeout=deadline - loop.time())
