"""store/sqlite_connection.py: the SQLite store's file, schema and connections: WAL mode, the
schema version, a file of an older schema brought up to date when this code first opens it
(keeping what it holds), a newer one refused, the balance never negative, a lock held too long
reported as StoreBusy.

References: the module's docstring (its choices), docs/stores.md; the SQL checks read the file
with a plain sqlite3 connection, not through the store.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import timedelta

import pytest

from shared.errors import InsufficientCredits
from store.errors import StoreBusy, StoreError
from store.key_format import hash_key
from store.records import SLOT_LEASE_S, ChargeNote, utc_now
from store.sqlite_connection import SCHEMA_VERSION, SqliteConnection
from store.sqlite_store import SqliteStore


def test_a_version_2_file_gains_the_charges_under_each_slot_and_keeps_its_slots(tmp_path):
    path = tmp_path / "store.sqlite3"

    async def create() -> str:
        store = SqliteStore(path)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            return account.id
        finally:
            await store.close()

    account_id = asyncio.run(create())
    with sqlite3.connect(path) as conn:  # the file as the previous release left it
        conn.execute("DROP TABLE slot_charges")
        conn.execute("INSERT INTO slots VALUES (?, 'old-slot', ?)", (account_id, 10**10))
        conn.execute("PRAGMA user_version=2")
    conn.close()

    async def reopen() -> None:
        store = SqliteStore(path)
        try:
            account = await store.get_account(account_id)
            refused = await store.admit(account, "new-slot")  # the old slot is still held
            assert (refused.allowed, refused.reason) == (False, "concurrency")
            assert (await store.admit_and_reserve(account, "new-slot", 3, "req-1", 10**10 + SLOT_LEASE_S)).balance == 7
        finally:
            await store.close()

    asyncio.run(reopen())
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT charge_id, credits FROM slot_charges WHERE slot_id = 'new-slot'").fetchone() == (
            "req-1",
            3,
        )
    conn.close()


def test_a_version_4_file_gains_key_names_and_its_keys_keep_working(tmp_path):
    path = tmp_path / "store.sqlite3"

    async def create() -> str:
        store = SqliteStore(path)
        try:
            await store.create_account("acme", 10)
            plain, _ = await store.create_key("acme")
            return plain
        finally:
            await store.close()

    plain = asyncio.run(create())
    with sqlite3.connect(path) as conn:  # the file as the previous release left it
        conn.execute("ALTER TABLE api_keys DROP COLUMN name")
        conn.execute("PRAGMA user_version=4")
    conn.close()

    async def reopen() -> None:
        store = SqliteStore(path)
        try:
            (old,) = await store.list_keys("acme")
            assert old.name == "" and old.state() == "active"
            assert (await store.find_key_by_hash(hash_key(plain))).key_id == old.key_id
            _, named = await store.create_key("acme", name="backend")
            assert (await store.get_key(named.key_id)).name == "backend"
        finally:
            await store.close()

    asyncio.run(reopen())
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_version_5_file_gains_the_charge_notes_of_its_debits(tmp_path):
    path = tmp_path / "celestial.sqlite3"

    async def create() -> str:
        store = SqliteStore(path)
        try:
            account = await store.create_account("acme", 10)
            await store.reserve(account.id, 2, "charge-old")
            return account.id
        finally:
            await store.close()

    account_id = asyncio.run(create())
    with sqlite3.connect(path) as conn:  # the file as the previous release left it
        for column in ("endpoint", "key_id", "http_request_id"):
            conn.execute(f"ALTER TABLE ledger DROP COLUMN {column}")
        conn.execute("PRAGMA user_version=5")
    conn.close()

    async def reopen() -> None:
        store = SqliteStore(path)
        try:
            await store.reserve(account_id, 3, "charge-new", ChargeNote("/v1/positions", "key_1", "req-1"))
            notes = {
                e.request_id: e.note
                for e in await store.ledger_entries(account_id, utc_now() - timedelta(days=1))
                if e.kind == "debit"
            }
            assert notes == {"charge-old": ChargeNote(), "charge-new": ChargeNote("/v1/positions", "key_1", "req-1")}
        finally:
            await store.close()

    asyncio.run(reopen())


def _pragma(path, name: str):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def test_a_new_file_is_created_with_its_folder_in_wal_mode_at_the_current_schema(tmp_path):
    path = tmp_path / "not" / "yet" / "store.sqlite3"
    SqliteConnection(path).close_sync()
    assert path.is_file()
    assert _pragma(path, "journal_mode") == "wal"
    assert _pragma(path, "user_version") == SCHEMA_VERSION


def test_opening_a_current_file_writes_nothing(tmp_path):
    path = tmp_path / "store.sqlite3"
    SqliteConnection(path).close_sync()
    content, modified_ns = path.read_bytes(), path.stat().st_mtime_ns
    time.sleep(0.01)
    SqliteConnection(path).close_sync()
    assert path.read_bytes() == content and path.stat().st_mtime_ns == modified_ns


def test_a_file_of_a_newer_schema_than_the_code_is_refused(tmp_path):
    path = tmp_path / "store.sqlite3"
    SqliteConnection(path).close_sync()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        SqliteConnection(path)


def test_the_file_itself_refuses_a_negative_balance(tmp_path):
    path = tmp_path / "store.sqlite3"

    async def create() -> str:
        store = SqliteStore(path)
        try:
            return (await store.create_account("acme", 1)).id
        finally:
            await store.close()

    account_id = asyncio.run(create())
    conn = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE accounts SET balance = -1 WHERE id = ?", (account_id,))
    finally:
        conn.close()


def test_a_write_waiting_longer_than_its_lock_wait_for_another_writer_raises_store_busy(tmp_path):
    path = tmp_path / "store.sqlite3"
    store = SqliteStore(path, lock_wait_s=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        with pytest.raises(StoreBusy):
            asyncio.run(store.create_account("acme", 1))
        assert 0.2 <= time.monotonic() - started < 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        store.close_sync()


def test_a_write_waiting_for_another_writer_goes_through_once_the_lock_is_freed(tmp_path):
    path = tmp_path / "store.sqlite3"
    store = SqliteStore(path, lock_wait_s=5)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    async def run():
        asyncio.get_running_loop().call_later(0.1, holder.execute, "ROLLBACK")
        return await store.create_account("acme", 1)

    try:
        assert asyncio.run(run()).balance == 1
    finally:
        holder.close()
        store.close_sync()


def test_a_closed_store_refuses_every_call(tmp_path):
    store = SqliteStore(tmp_path / "store.sqlite3")
    store.close_sync()
    with pytest.raises(StoreError, match="closed"):
        asyncio.run(store.get_account("acme"))


# --- group commit ----------------------------------------------------------------------------


def traced(store: SqliteStore, statements: list[str]) -> None:
    """Record in ``statements`` every statement this thread's connection of ``store`` runs."""
    store._conn().set_trace_callback(statements.append)


def test_the_writes_of_one_loop_turn_commit_in_one_transaction(tmp_path):
    store = SqliteStore(tmp_path / "store.sqlite3")

    async def run():
        account = await store.create_account("acme", 100, max_concurrent=20)
        statements: list[str] = []
        traced(store, statements)
        await asyncio.gather(
            *(store.admit_and_reserve(account, f"slot-{index}", 1, f"req-{index}") for index in range(8)),
            store.release(account.id, "slot-held-by-nobody"),
        )
        return statements

    try:
        statements = asyncio.run(run())
    finally:
        store.close_sync()
    assert statements.count("BEGIN IMMEDIATE") == 1 and statements.count("COMMIT") == 1
    assert statements.count("SAVEPOINT one_write") == 9


def test_each_write_is_answered_only_once_its_transaction_has_committed(tmp_path):
    path = tmp_path / "store.sqlite3"
    store = SqliteStore(path)
    reader = sqlite3.connect(path)
    events: list[str] = []

    async def admitted(account, index: int) -> None:
        await store.admit_and_reserve(account, f"slot-{index}", 1, f"req-{index}")
        # Another connection (another gateway) sees every admission of the turn already.
        held = reader.execute("SELECT COUNT(*) FROM slots").fetchone()[0]
        events.append(f"answered, {held} slots seen")

    async def run():
        account = await store.create_account("acme", 100, max_concurrent=20)
        traced(store, events)
        await asyncio.gather(*(admitted(account, index) for index in range(4)))

    try:
        asyncio.run(run())
    finally:
        reader.close()
        store.close_sync()
    commit = events.index("COMMIT")
    assert events[commit + 1 :] == ["answered, 4 slots seen"] * 4
    assert not any(event.startswith("answered") for event in events[:commit])


def test_a_write_that_raises_is_rolled_back_alone_and_the_others_of_its_turn_commit(tmp_path):
    store = SqliteStore(tmp_path / "store.sqlite3")

    async def run():
        account = await store.create_account("acme", 10)
        outcomes = await asyncio.gather(
            store.admit_and_reserve(account, "slot-1", 3, "req-1"),
            store.reserve(account.id, 11, "req-too-dear"),
            store.admit_and_reserve(account, "slot-2", 3, "req-2"),
            return_exceptions=True,
        )
        return outcomes, await store.balance(account.id), await store.usage(account.id)

    try:
        (first, too_dear, second), balance, usage = asyncio.run(run())
    finally:
        store.close_sync()
    assert isinstance(too_dear, InsufficientCredits)
    assert (first.balance, second.balance, balance) == (7, 4, 4)
    assert (usage.requests, usage.credits_debited) == (2, 6)


def test_a_write_whose_caller_left_before_its_turn_committed_is_not_written(tmp_path):
    store = SqliteStore(tmp_path / "store.sqlite3")

    async def run():
        account = await store.create_account("acme", 10)
        left = asyncio.ensure_future(store.admit_and_reserve(account, "slot-1", 3, "req-1"))
        await asyncio.sleep(0)  # the write is queued for the next turn's transaction
        left.cancel()
        stayed = await store.admit_and_reserve(account, "slot-2", 3, "req-2")
        with pytest.raises(asyncio.CancelledError):
            await left
        return stayed, await store.balance(account.id), await store.usage(account.id)

    try:
        stayed, balance, usage = asyncio.run(run())
    finally:
        store.close_sync()
    assert (stayed.balance, balance, usage.requests) == (7, 7, 1)
