"""Group commit of the embedded store's hot path (gateway/store/group_commit.py), on a real
SQLite file: operations of one turn share a transaction, yet each succeeds or fails alone."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from gateway.store.group_commit import GroupCommitter
from gateway.store.interfaces import StoreBusy
from gateway.store.sqlite_store import SqliteStore, _is_lock_error


class Recorder:
    """A connection on a fresh file, with the number of transactions it committed."""

    def __init__(self, path):
        self.conn = sqlite3.connect(path, isolation_level=None, timeout=0.01)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
        self.commits = 0
        self.conn.set_trace_callback(self._trace)

    def _trace(self, statement: str) -> None:
        if statement == "COMMIT":
            self.commits += 1

    def committer(self, **kwargs) -> GroupCommitter:
        settings = {"lock_wait_s": 1.0, "deferred_delay_s": 0.01, **kwargs}
        return GroupCommitter(lambda: self.conn, _is_lock_error, StoreBusy, **settings)

    def rows(self) -> dict[str, int]:
        return dict(self.conn.execute("SELECT k, v FROM t"))


def insert(conn, key: str, value: int) -> int:
    conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (key, value))
    return value


def insert_then_fail(conn, key: str) -> None:
    conn.execute("INSERT INTO t (k, v) VALUES (?, 0)", (key,))
    raise ValueError(f"{key} refused after writing")


def test_operations_of_one_turn_share_one_transaction(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer()

    async def scenario():
        return await asyncio.gather(*(committer.run(insert, f"k{i}", i) for i in range(10)))

    assert asyncio.run(scenario()) == list(range(10))
    assert recorder.commits == 1
    assert recorder.rows() == {f"k{i}": i for i in range(10)}


def test_a_failing_operation_undoes_only_its_own_writes(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer()

    async def scenario():
        return await asyncio.gather(
            committer.run(insert, "a", 1),
            committer.run(insert_then_fail, "b"),
            committer.run(insert, "a", 2),  # the primary key refuses it: its own error only
            committer.run(insert, "c", 3),
            return_exceptions=True,
        )

    first, failed, duplicate, last = asyncio.run(scenario())
    assert (first, last) == (1, 3)
    assert isinstance(failed, ValueError)
    assert isinstance(duplicate, sqlite3.IntegrityError)
    assert recorder.rows() == {"a": 1, "c": 3}


def test_a_deferred_operation_waits_for_the_next_group_and_runs_first_in_it(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer(deferred_delay_s=5.0)
    order: list[str] = []

    def record(conn, name: str) -> str:
        order.append(name)
        return name

    async def scenario():
        deferred = asyncio.ensure_future(committer.run_deferred(record, "deferred"))
        await asyncio.sleep(0.05)
        assert not deferred.done()  # no group yet, and the delay is long
        started = time.monotonic()
        await committer.run(record, "operation")
        await deferred
        return time.monotonic() - started

    assert asyncio.run(scenario()) < 1.0
    assert order == ["deferred", "operation"]
    assert recorder.commits == 1


def test_a_deferred_operation_alone_runs_after_its_delay(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer(deferred_delay_s=0.02)

    async def scenario():
        return await committer.run_deferred(insert, "a", 1)

    assert asyncio.run(scenario()) == 1
    assert recorder.rows() == {"a": 1}


def test_a_locked_database_is_retried_until_it_frees(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer(lock_wait_s=2.0)
    holder = sqlite3.connect(tmp_path / "g.sqlite3", isolation_level=None)

    async def scenario():
        holder.execute("BEGIN IMMEDIATE")
        pending = asyncio.ensure_future(committer.run(insert, "a", 1))
        await asyncio.sleep(0.1)
        assert not pending.done()
        holder.execute("ROLLBACK")
        return await pending

    assert asyncio.run(scenario()) == 1
    assert recorder.rows() == {"a": 1}


def test_a_database_locked_past_the_wait_limit_fails_every_waiter_with_store_busy(tmp_path):
    recorder = Recorder(tmp_path / "g.sqlite3")
    committer = recorder.committer(lock_wait_s=0.1)
    holder = sqlite3.connect(tmp_path / "g.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    async def scenario():
        return await asyncio.gather(committer.run(insert, "a", 1), committer.run(insert, "b", 2), return_exceptions=True)

    try:
        outcomes = asyncio.run(scenario())
    finally:
        holder.execute("ROLLBACK")
    assert all(isinstance(outcome, StoreBusy) for outcome in outcomes)
    assert recorder.rows() == {}


def test_closing_the_store_writes_a_release_still_waiting(tmp_path):
    path = tmp_path / "store.sqlite3"

    async def scenario():
        store = SqliteStore(path)
        account = await store.create_account("acme", 10, max_concurrent=1)
        assert (await store.admit(account, "slot")).allowed
        release = asyncio.ensure_future(store.release(account.id, "slot"))
        await asyncio.sleep(0)  # queued, not yet written
        await store.close()
        await release
        reopened = SqliteStore(path)
        try:
            return (await reopened.admit(account, "next")).allowed
        finally:
            await reopened.close()

    assert asyncio.run(scenario())


def test_an_operation_on_a_closed_store_fails_rather_than_waits(tmp_path):
    async def scenario():
        store = SqliteStore(tmp_path / "store.sqlite3")
        account = await store.create_account("acme", 10)
        store.close_sync()
        with pytest.raises(Exception, match="closed"):
            await asyncio.wait_for(store.reserve(account.id, 1, "r1"), timeout=5)

    asyncio.run(scenario())
