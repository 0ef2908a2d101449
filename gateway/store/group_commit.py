"""Group commit for the embedded store: the hot-path writes of one process that reach the
store in the same turn of the event loop share one SQLite write transaction.

Why: a commit (``BEGIN IMMEDIATE`` ... ``COMMIT``, the WAL frames written) costs more than the
few statements of a paid request, and under load several requests reach the store in the
same turn of the loop. Each operation still runs in its own savepoint, so one that fails
(an unknown account, a short balance) leaves the others' writes alone, and every caller gets
its own result or exception exactly as if it had run alone, in arrival order.

Deferred operations (releasing a concurrency slot) wait up to ``deferred_delay_s`` for a group
to ride along with, and run first in it, so a slot released before an admission is free for it.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Callable

#: ``operation(conn, *args)``: statements run inside the group's transaction, no BEGIN/COMMIT.
Operation = Callable[..., Any]


@dataclass(frozen=True)
class _Entry:
    """One operation waiting for a group: what to run, and who waits for its outcome."""

    operation: Operation
    args: tuple
    future: asyncio.Future
    #: Run in a savepoint of its own, so that failing it undoes only its own writes. A
    #: deferred operation is a single statement, atomic by itself, and goes without.
    isolated: bool = True


@dataclass
class _Group:
    """The operations of one event loop waiting for the next flush."""

    operations: list[_Entry] = field(default_factory=list)
    deferred: list[_Entry] = field(default_factory=list)
    handle: asyncio.Handle | asyncio.TimerHandle | None = None
    handle_is_timer: bool = False
    retrying: bool = False  # a locked database is being retried: keep the backoff
    deadline: float | None = None
    delay_s: float = 0.001


class GroupCommitter:
    """Runs operations in shared write transactions on the connection ``connection()`` gives."""

    def __init__(
        self,
        connection: Callable[[], sqlite3.Connection],
        is_lock_error: Callable[[sqlite3.OperationalError], bool],
        busy: Callable[[str], Exception],
        *,
        lock_wait_s: float,
        deferred_delay_s: float,
    ):
        """``busy(message)`` builds the exception raised to every caller of a group that found
        the database locked for longer than ``lock_wait_s`` seconds in all."""
        self._connection = connection
        self._is_lock_error = is_lock_error
        self._busy = busy
        self._lock_wait_s = lock_wait_s
        self._deferred_delay_s = deferred_delay_s
        self._groups: dict[asyncio.AbstractEventLoop, _Group] = {}

    async def run(self, operation: Operation, *args: Any) -> Any:
        """Return ``operation(conn, *args)``, committed with whatever else arrives this turn."""
        loop = asyncio.get_running_loop()
        group = self._group(loop)
        future = loop.create_future()
        group.operations.append(_Entry(operation, args, future))
        if not group.retrying and (group.handle is None or group.handle_is_timer):
            if group.handle is not None:
                group.handle.cancel()
            group.handle, group.handle_is_timer = loop.call_soon(self._flush, loop, group), False
        return await future

    async def run_deferred(self, operation: Operation, *args: Any) -> Any:
        """Return ``operation(conn, *args)``, run first in the next group or after the delay.

        ``operation`` must be one statement: it runs without a savepoint of its own.
        """
        loop = asyncio.get_running_loop()
        group = self._group(loop)
        future = loop.create_future()
        group.deferred.append(_Entry(operation, args, future, isolated=False))
        if group.handle is None:
            group.handle = loop.call_later(self._deferred_delay_s, self._flush, loop, group)
            group.handle_is_timer = True
        return await future

    def flush(self) -> None:
        """Run what the running loop's group holds now (at close)."""
        loop = asyncio.get_running_loop()
        group = self._groups.get(loop)
        while group is not None and (group.operations or group.deferred):
            if group.handle is not None:
                group.handle.cancel()
                group.handle = None
            group.retrying = False
            self._flush(loop, group)
            if group.retrying:  # still locked: give up on these at once rather than block close
                self._fail_all(group, self._busy("the store was locked while closing"))

    def abandon(self, error: Exception) -> None:
        """Fail every waiting operation with ``error`` (the store is closing)."""
        groups, self._groups = self._groups, {}
        for loop, group in groups.items():
            if group.handle is not None:
                group.handle.cancel()
            waiting = group.deferred + group.operations
            group.deferred, group.operations = [], []
            for entry in waiting:
                try:
                    loop.call_soon_threadsafe(_fail, entry.future, error)
                except RuntimeError:
                    pass  # that loop is closed, and its waiters with it

    def _group(self, loop: asyncio.AbstractEventLoop) -> _Group:
        group = self._groups.get(loop)
        if group is None:
            group = self._groups[loop] = _Group()
        return group

    def _flush(self, loop: asyncio.AbstractEventLoop, group: _Group) -> None:
        group.handle = None
        batch = group.deferred + group.operations
        group.deferred, group.operations = [], []
        batch = [entry for entry in batch if not entry.future.done()]  # a caller may have gone
        if not batch:
            group.retrying = False
            return
        try:
            outcomes = self._apply(batch)
        except sqlite3.OperationalError as exc:
            if self._is_lock_error(exc):
                self._retry_later(loop, group, batch)
                return
            self._settle_all(batch, [(False, exc)] * len(batch))
        except Exception as exc:
            self._settle_all(batch, [(False, exc)] * len(batch))
        else:
            self._settle_all(batch, outcomes)
        group.retrying, group.deadline, group.delay_s = False, None, 0.001
        if not group.operations and not group.deferred:
            self._groups.pop(loop, None)
        elif group.handle is None:
            group.handle, group.handle_is_timer = loop.call_soon(self._flush, loop, group), False

    def _apply(self, batch: list[_Entry]) -> list[tuple[bool, Any]]:
        """Return (succeeded, result or exception) per operation, all in one transaction."""
        conn = self._connection()
        outcomes: list[tuple[bool, Any]] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for entry in batch:
                if entry.isolated:
                    conn.execute("SAVEPOINT operation")
                try:
                    result = entry.operation(conn, *entry.args)
                except Exception as exc:
                    if isinstance(exc, sqlite3.OperationalError) and self._is_lock_error(exc):
                        raise  # the whole group is retried
                    if entry.isolated:
                        conn.execute("ROLLBACK TO operation")
                    outcomes.append((False, exc))
                else:
                    outcomes.append((True, result))
                if entry.isolated:
                    conn.execute("RELEASE operation")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # also after a failed COMMIT, so a retry starts clean
                conn.execute("ROLLBACK")
            raise
        return outcomes

    def _retry_later(self, loop: asyncio.AbstractEventLoop, group: _Group, batch: list[_Entry]) -> None:
        now = time.monotonic()
        if group.deadline is None:
            group.deadline = now + self._lock_wait_s
        if now >= group.deadline:
            error = self._busy(f"the store stayed locked for {self._lock_wait_s} s")
            self._settle_all(batch, [(False, error)] * len(batch))
            group.retrying, group.deadline, group.delay_s = False, None, 0.001
            if group.operations or group.deferred:
                group.handle, group.handle_is_timer = loop.call_soon(self._flush, loop, group), False
            return
        # Back in front, in their order; later arrivals join the retry.
        group.operations[:0] = batch
        group.retrying = True
        # Jitter so processes that collided do not collide again in step.
        delay_s = group.delay_s * (0.5 + secrets.randbelow(1000) / 1000)
        group.delay_s = min(group.delay_s * 2, 0.05)
        if group.handle is not None:
            group.handle.cancel()
        group.handle, group.handle_is_timer = loop.call_later(delay_s, self._flush, loop, group), False

    def _fail_all(self, group: _Group, error: Exception) -> None:
        waiting = group.deferred + group.operations
        group.deferred, group.operations = [], []
        self._settle_all(waiting, [(False, error)] * len(waiting))
        group.retrying, group.deadline = False, None

    @staticmethod
    def _settle_all(batch: list[_Entry], outcomes: list[tuple[bool, Any]]) -> None:
        for entry, (succeeded, value) in zip(batch, outcomes):
            future = entry.future
            if future.done():
                continue
            if succeeded:
                future.set_result(value)
            else:
                future.set_exception(value)


def _fail(future: asyncio.Future, error: Exception) -> None:
    if not future.done():
        future.set_exception(error)
