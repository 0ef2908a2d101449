"""Whose call a gateway sends a service pool next: a fair share of the pool for every account.

A pool computes processes x 1 requests at a time and holds processes x queue. Sent first come,
first served, one account's batches of long scans would fill every queue, and another
account's single scan would wait behind all of them. So each gateway keeps its calls to a
pool here:

- at most ``capacity`` (the pool's processes x their queue) in flight at once;
- at most ``limit`` of them one account's, where the caller gives the limit: a scan's is the
  pool's processes (an account may keep every process busy, never its queues too), a fast
  call's the capacity;
- the waiting calls are granted round-robin across accounts, each account's in the order
  they came;
- a call not granted within its wait is refused (the caller answers 503 with Retry-After).

Each gateway keeps its own share; several gateways in front of one pool divide it by the
processes' queues (a full process refuses, and the channel tries another).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from dataclasses import dataclass, field


@dataclass
class _Waiter:
    limit: int
    granted: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class FairShare:
    """The calls in flight to one pool, per account, and the calls waiting their turn."""

    def __init__(self, capacity: int):
        self.capacity = max(1, capacity)
        self.in_flight = 0
        self._per_account: dict[str, int] = {}
        # Accounts with waiting calls, in the order their turn comes; each account's calls in order.
        self._waiting: OrderedDict[str, deque[_Waiter]] = OrderedDict()

    def account_in_flight(self, account: str) -> int:
        """Return how many of ``account``'s calls are in flight."""
        return self._per_account.get(account, 0)

    async def acquire(self, account: str, limit: int, wait_s: float) -> None:
        """Return once ``account`` may send one more call (then :meth:`release` must follow).

        ``limit`` is how many calls of the account may be in flight with this one. Raises
        TimeoutError when the call is not granted within ``wait_s`` seconds; a call cancelled
        while waiting takes nothing.
        """
        if account not in self._waiting and self._may_start(account, limit):
            self._take(account)
            return
        waiter = _Waiter(max(1, limit))
        self._waiting.setdefault(account, deque()).append(waiter)
        try:
            async with asyncio.timeout(wait_s):
                await waiter.granted
        except BaseException:
            if waiter.granted.done() and not waiter.granted.cancelled():
                self.release(account)  # granted as it gave up: the turn passes on
            else:
                self._forget(account, waiter)
            raise

    def release(self, account: str) -> None:
        """Give back one call of ``account`` and grant the waiting calls it makes room for."""
        self.in_flight -= 1
        left = self._per_account[account] - 1
        if left:
            self._per_account[account] = left
        else:
            del self._per_account[account]
        self._grant()

    def _may_start(self, account: str, limit: int) -> bool:
        return self.in_flight < self.capacity and self.account_in_flight(account) < limit

    def _take(self, account: str) -> None:
        self.in_flight += 1
        self._per_account[account] = self.account_in_flight(account) + 1

    def _grant(self) -> None:
        """Grant waiting calls while there is room: the next account in turn whose first
        waiting call its limit allows, which then goes to the back of the turn."""
        while self.in_flight < self.capacity:
            self._drop_abandoned()
            for account, waiters in self._waiting.items():
                if self.account_in_flight(account) < waiters[0].limit:
                    break
            else:
                return
            waiter = waiters.popleft()
            if waiters:
                self._waiting.move_to_end(account)
            else:
                del self._waiting[account]
            self._take(account)
            waiter.granted.set_result(None)

    def _drop_abandoned(self) -> None:
        """Remove the waiting calls cancelled but not yet forgotten by their task (a task's
        future is cancelled at once, its own clean-up runs later)."""
        for account in list(self._waiting):
            waiters = self._waiting[account]
            while waiters and waiters[0].granted.done():
                waiters.popleft()
            if not waiters:
                del self._waiting[account]

    def _forget(self, account: str, waiter: _Waiter) -> None:
        waiters = self._waiting.get(account)
        if waiters is None or waiter not in waiters:
            return
        waiters.remove(waiter)
        if not waiters:
            del self._waiting[account]
        # A removed head may have blocked the account's next call, which may now go.
        self._grant()
