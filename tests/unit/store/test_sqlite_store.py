"""store/sqlite_store.py: the SQLite store composed of its parts on one file, shared by every
store opened on it (in this process or another).

References: docs/stores.md (the embedded SQLite store, for one machine; every gateway follows key
changes), store/interfaces.py (the DashboardStore protocol).
"""

from __future__ import annotations

import asyncio
import multiprocessing

from store.interfaces import DashboardStore
from store.key_format import hash_key
from store.sqlite_connection import SCHEMA_VERSION as CONNECTION_SCHEMA_VERSION
from store.sqlite_store import SCHEMA_VERSION, SqliteStore


def test_the_sqlite_store_is_a_dashboard_store_with_the_files_schema_version(tmp_path):
    store = SqliteStore(tmp_path / "s.sqlite3")
    try:
        assert isinstance(store, DashboardStore)
        assert SCHEMA_VERSION == CONNECTION_SCHEMA_VERSION
    finally:
        store.close_sync()


def test_two_stores_on_one_file_see_each_others_writes_at_once(tmp_path):
    path = tmp_path / "s.sqlite3"

    async def run():
        first, second = SqliteStore(path), SqliteStore(path)
        try:
            account = await first.create_account("acme", 10)
            plain, _ = await first.create_key("acme")
            assert (await second.find_key_by_hash(hash_key(plain))).account_id == account.id
            assert await second.reserve(account.id, 4, "req-1") == 6
            assert await first.balance(account.id) == 6
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


def _charge_in_child(path: str, account_id: str) -> None:
    async def charge():
        store = SqliteStore(path)
        try:
            await store.reserve(account_id, 3, "req-child")
        finally:
            await store.close()

    asyncio.run(charge())


def test_a_charge_made_by_another_process_is_in_this_ones_balance(processes, tmp_path):
    path = str(tmp_path / "s.sqlite3")

    async def create():
        store = SqliteStore(path)
        try:
            return (await store.create_account("acme", 10)).id
        finally:
            await store.close()

    account_id = asyncio.run(create())
    child = multiprocessing.get_context("spawn").Process(target=_charge_in_child, args=(path, account_id))
    child.start()
    child.join(30)
    assert child.exitcode == 0

    async def balance():
        store = SqliteStore(path)
        try:
            return await store.balance(account_id)
        finally:
            await store.close()

    assert asyncio.run(balance()) == 7
