"""Whose call a gateway sends a service pool next: a fair share of the pool for every account.

A pool computes processes x 1 requests at a time and holds processes x queue. Sent first come,
first served, one account's batches of long scans would fill every queue, and another
account's single scan would wait behind all of them. So each gateway keeps its calls to a
pool here:

- at most ``capacity`` (the pool's processes x their queue) in flight at once;
- at most ``limit`` of them one account's, where the caller gives the limit: a scan's is the
  pool's processes (an account may keep every process busy, never its queues too), a fast
  call's the capacity; less one for every other account with a call waiting, down to one: an
  account does not take the last free place while another account's call waits (issue 36);
- the waiting calls are granted round-robin across accounts; within an account, its lanes
  share its turns by time, each lane's calls in the order they came. A call's lane is the
  decade of its expected service time (under 10 ms, under 100 ms, under 1 s, longer); the
  turn goes to the lane that has been granted the least expected time since the account began
  to wait, so a 5 ms search waits behind one of the same account's 130 ms scans, not behind
  all of them, and its lane drains at its own pace, not one call per scan;
- a call whose expected wait, from the calls ahead of it and their expected service times,
  exceeds what its deadline class allows is refused at once (:class:`Overloaded`), so what is
  admitted keeps its latency under overload instead of every call waiting its longest;
- a call not granted within its wait is refused (the caller answers 503 with Retry-After).

Either refusal says whose calls made it (``own``): the account's own, when its calls in flight
hold its whole share or its own calls waiting ahead alone make the wait too long (the caller
answers that account 429 ``too_many_concurrent_requests``: its excess is its own, and the
others are served meanwhile); otherwise the pool is full for everyone (503).

Each gateway keeps its own share; several gateways in front of one pool divide it by the
processes' queues (a full process refuses, and the channel tries another). A pool named by one
DNS name is resized to the replicas that answer it (``gateway/pool_replicas.py``): the waiting
calls keep their places, more room grants them at once, less stops nothing already running.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections import OrderedDict, deque
from dataclasses import dataclass, field

#: The upper bounds (seconds) of the lanes' expected service times; a longer call is in the last lane.
LANE_BOUNDS_S = (0.01, 0.1, 1.0)


def lane_of(expected_s: float) -> int:
    """Return the lane (0 to len(LANE_BOUNDS_S)) of a call expected to take ``expected_s`` seconds."""
    for lane, bound_s in enumerate(LANE_BOUNDS_S):
        if expected_s < bound_s:
            return lane
    return len(LANE_BOUNDS_S)


class Overloaded(Exception):
    """A call refused before waiting: its expected wait (``expected_wait_s``, seconds) exceeds
    what its deadline class allows; ``own`` when the account's own calls alone refuse it (its
    share is taken, or its own calls waiting ahead make the wait too long)."""

    def __init__(self, expected_wait_s: float, *, own: bool = False):
        super().__init__(f"expected wait {expected_wait_s:.3f} s")
        self.expected_wait_s = expected_wait_s
        self.own = own


class TurnNotCome(TimeoutError):
    """A call not granted within its wait; ``own`` when, as it gave up, the account's own calls
    held its whole share or more of its calls were waiting (its excess, not the pool's)."""

    def __init__(self, wait_s: float, *, own: bool = False):
        super().__init__(f"not granted within {wait_s:.3f} s")
        self.wait_s = wait_s
        self.own = own


@dataclass
class _Waiter:
    limit: int
    expected_s: float
    granted: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())


#: The least time a grant counts against its lane: a call with no measured time yet still takes its turn.
MIN_GRANT_S = 0.001


@dataclass
class _Lanes:
    """One account's waiting calls by lane, and the expected time granted to each lane since the
    account began to wait."""

    calls: dict[int, deque[_Waiter]] = field(default_factory=dict)
    granted_s: dict[int, float] = field(default_factory=dict)

    def add(self, lane: int, waiter: _Waiter) -> None:
        if lane not in self.calls:
            # A lane that starts waiting starts level with the least served lane waiting, so
            # time it did not wait gives it no head start over the others.
            self.granted_s[lane] = min((self.granted_s[other] for other in self.calls), default=0.0)
            self.calls[lane] = deque()
        self.calls[lane].append(waiter)

    def next_lane(self, allowed) -> int | None:
        """Return the waiting lane granted the least time whose first call ``allowed(waiter)``, or None."""
        ready = [lane for lane, waiters in self.calls.items() if waiters and allowed(waiters[0])]
        return min(ready, key=lambda lane: (self.granted_s[lane], lane), default=None)

    def pop(self, lane: int) -> _Waiter:
        waiters = self.calls[lane]
        waiter = waiters.popleft()
        self.granted_s[lane] += max(waiter.expected_s, MIN_GRANT_S)
        if not waiters:
            del self.calls[lane]
        return waiter

    def drop_done(self) -> None:
        for lane in list(self.calls):
            waiters = self.calls[lane]
            while waiters and waiters[0].granted.done():
                waiters.popleft()
            if not waiters:
                del self.calls[lane]

    def mean_head_s(self) -> float:
        heads = [waiters[0].expected_s for waiters in self.calls.values() if waiters]
        return sum(heads) / len(heads) if heads else 0.0


class FairShare:
    """The calls in flight to one pool, per account, and the calls waiting their turn."""

    def __init__(self, capacity: int, processes: int = 1):
        self.capacity = max(1, capacity)
        self.processes = max(1, processes)
        # Each process's places (its queue): what the capacity keeps per process when resized.
        self._places_per_process = self.capacity / self.processes
        self.in_flight = 0
        self._per_account: dict[str, int] = {}
        # Accounts with waiting calls, in the order their turn comes; each account's by lane.
        self._waiting: OrderedDict[str, _Lanes] = OrderedDict()

    def resize(self, processes: int) -> None:
        """Plan for ``processes`` (at least 1): the capacity becomes that many processes' places
        and the expected waits divide by them. The waiting calls keep their order and their
        turns, their limits scaled with the pool (a scan's share is the processes, a fast
        call's the capacity). Growing grants the waiting calls the new room at once; shrinking
        stops no call in flight: a new call starts only once those are below the new bounds."""
        processes = max(1, processes)
        if processes == self.processes:
            return
        for lanes in self._waiting.values():
            for waiters in lanes.calls.values():
                for waiter in waiters:
                    waiter.limit = max(1, round(waiter.limit * processes / self.processes))
        self.processes = processes
        self.capacity = max(1, round(self._places_per_process * processes))
        self._grant()

    def account_in_flight(self, account: str) -> int:
        """Return how many of ``account``'s calls are in flight."""
        return self._per_account.get(account, 0)

    def waiting(self) -> int:
        """Return how many calls wait for their turn."""
        return sum(len(waiters) for lanes in self._waiting.values() for waiters in lanes.calls.values())

    def waiting_by_lane(self) -> dict[int, int]:
        """Return how many calls wait for their turn in each lane (lanes with none left out)."""
        counts: dict[int, int] = {}
        for lanes in self._waiting.values():
            for lane, waiters in lanes.calls.items():
                counts[lane] = counts.get(lane, 0) + len(waiters)
        return counts

    async def acquire(
        self, account: str, limit: int, wait_s: float, *, expected_s: float = 0.0, shed_after_s: float = math.inf
    ) -> None:
        """Return once ``account`` may send one more call (then :meth:`release` must follow).

        ``limit`` is how many calls of the account may be in flight with this one;
        ``expected_s`` the call's expected service time (seconds), which sets its lane. Raises
        Overloaded at once when the call would have to wait and its expected wait exceeds
        ``shed_after_s``, TurnNotCome (a TimeoutError) when it is not granted within ``wait_s``
        seconds (a call granted as its wait ends takes its turn); a call cancelled while waiting
        takes nothing. Both say whether the account's own calls refused it (``own``).
        """
        if account not in self._waiting and self._may_start(account, limit):
            self._take(account)
            return
        lane = lane_of(expected_s)
        own_wait_s, others_wait_s = self._wait_parts_s(account, lane, expected_s)
        expected_wait_s = own_wait_s + others_wait_s
        if expected_wait_s > shed_after_s:
            # Its own calls ahead of it (its own time not counted) alone too long: its excess.
            own_ahead_s = own_wait_s - expected_s / self.processes
            raise Overloaded(expected_wait_s, own=self.share_taken(account, limit) or own_ahead_s > shed_after_s)
        waiter = _Waiter(max(1, limit), expected_s)
        self._waiting.setdefault(account, _Lanes()).add(lane, waiter)
        try:
            async with asyncio.timeout(wait_s):
                await waiter.granted
        except TimeoutError:
            if self._granted(waiter):
                # Granted in the turn of the loop its wait ended in (a loop slowed by load runs
                # both at once): its turn came, and it takes it. Given back, the account's share
                # would look free as the refusal is judged, and its own excess would be the pool's.
                return
            self._forget(account, lane, waiter)
            own = self.share_taken(account, waiter.limit) or account in self._waiting
            raise TurnNotCome(wait_s, own=own) from None
        except BaseException:
            if self._granted(waiter):
                self.release(account)  # granted as its caller left: the turn passes on
            else:
                self._forget(account, lane, waiter)
            raise

    @staticmethod
    def _granted(waiter: _Waiter) -> bool:
        return waiter.granted.done() and not waiter.granted.cancelled()

    def share_taken(self, account: str, limit: int) -> bool:
        """Return whether ``account``'s calls in flight hold its whole share: ``limit`` less one
        place for every other account with a call waiting, down to 1."""
        return self.account_in_flight(account) >= self._limit(account, limit)

    def expected_wait_s(self, account: str, lane: int, expected_s: float) -> float:
        """Return about how long (seconds) a call of ``account`` in ``lane``, expected to take
        ``expected_s``, would wait for its turn if it queued now.

        Its lane's calls ahead of it and itself take their expected times; meanwhile each other
        lane of the account takes as much (or all it has), since lanes share the account's turns
        by time; and each of those grants of the account comes after one grant of every other
        waiting account (the mean of its lanes' first calls). The pool's processes share it
        all. Calls without a measured time count nothing.
        """
        return sum(self._wait_parts_s(account, lane, expected_s))

    def _wait_parts_s(self, account: str, lane: int, expected_s: float) -> tuple[float, float]:
        """Return :meth:`expected_wait_s` in two parts (seconds): the account's own calls' time
        (this one's included), and the other accounts' grants in between."""
        lanes = self._waiting.get(account, _Lanes())
        own = [waiter.expected_s for waiter in lanes.calls.get(lane, ())] + [expected_s]
        backlog_s = sum(own)
        account_s, grants = backlog_s, len(own)
        for other_lane, waiters in lanes.calls.items():
            if other_lane == lane:
                continue
            served_s = 0.0
            for waiter in waiters:
                if served_s >= backlog_s:
                    break
                served_s += waiter.expected_s
                grants += 1
            account_s += served_s
        others_round_s = sum(other.mean_head_s() for name, other in self._waiting.items() if name != account)
        return account_s / self.processes, grants * others_round_s / self.processes

    def release(self, account: str) -> None:
        """Give back one call of ``account`` and grant the waiting calls it makes room for."""
        self.in_flight -= 1
        left = self._per_account[account] - 1
        if left:
            self._per_account[account] = left
        else:
            del self._per_account[account]
        self._grant()

    def _limit(self, account: str, limit: int) -> int:
        """Return ``limit`` less one place for every other account with a call waiting, down to 1."""
        others = len(self._waiting) - (account in self._waiting)
        return max(1, limit - others)

    def _admits(self, account: str, in_flight: int, waiter: _Waiter) -> bool:
        """Return whether ``account``, with ``in_flight`` calls running, may start ``waiter``."""
        return in_flight < self._limit(account, waiter.limit)

    def _may_start(self, account: str, limit: int) -> bool:
        return self.in_flight < self.capacity and self.account_in_flight(account) < self._limit(account, limit)

    def _take(self, account: str) -> None:
        self.in_flight += 1
        self._per_account[account] = self.account_in_flight(account) + 1

    def _grant(self) -> None:
        """Grant waiting calls while there is room: the next account in turn with a lane whose
        first waiting call its limit allows (of those, the lane granted the least time); the
        account then goes to the back of the turn."""
        while self.in_flight < self.capacity:
            self._drop_abandoned()
            for account, lanes in self._waiting.items():
                in_flight = self.account_in_flight(account)
                lane = lanes.next_lane(functools.partial(self._admits, account, in_flight))
                if lane is not None:
                    break
            else:
                return
            waiter = lanes.pop(lane)
            if lanes.calls:
                self._waiting.move_to_end(account)
            else:
                del self._waiting[account]
            self._take(account)
            waiter.granted.set_result(None)

    def _drop_abandoned(self) -> None:
        """Remove the waiting calls cancelled but not yet forgotten by their task (a task's
        future is cancelled at once, its own clean-up runs later)."""
        for account in list(self._waiting):
            lanes = self._waiting[account]
            lanes.drop_done()
            if not lanes.calls:
                del self._waiting[account]

    def _forget(self, account: str, lane: int, waiter: _Waiter) -> None:
        lanes = self._waiting.get(account)
        waiters = lanes.calls.get(lane) if lanes is not None else None
        if waiters is None or waiter not in waiters:
            return
        waiters.remove(waiter)
        if not waiters:
            del lanes.calls[lane]
        if not lanes.calls:
            del self._waiting[account]
        # A removed head may have blocked the account's next call, and an account no longer
        # waiting no longer holds back the others' limits: either may now go.
        self._grant()
