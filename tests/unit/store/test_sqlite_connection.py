"""The SQLite store's file format: a file written by the previous schema is brought up to date
when this code first opens it, keeping what it holds."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta

from store.records import SLOT_LEASE_S, ChargeNote, utc_now
from store.sqlite_store import SCHEMA_VERSION, SqliteStore


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
        assert conn.execute("SELECT charge_id, credits FROM slot_charges WHERE slot_id = 'new-slot'").fetchone() == ("req-1", 3)
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
            notes = {e.request_id: e.note for e in await store.ledger_entries(account_id, utc_now() - timedelta(days=1)) if e.kind == "debit"}
            assert notes == {"charge-old": ChargeNote(), "charge-new": ChargeNote("/v1/positions", "key_1", "req-1")}
        finally:
            await store.close()

    asyncio.run(reopen())
