"""store/sqlite_test_traffic.py: the SQLite store's test-traffic limiter, on tables of its own.
(Its rules, shared with the NATS store, are in test_key_mode_contract.py.)

References: docs/limits.md ("Test keys"), store/sqlite_connection.py (``test_rate_windows``,
``test_slots``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from store import AccountNotFound, SqliteStore
from store.records import RATE_WINDOW_S, Account

WINDOW_S = (int(time.time()) // RATE_WINDOW_S + 10) * RATE_WINDOW_S


def test_test_traffic_of_an_unknown_account_is_refused(tmp_path):
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        try:
            with pytest.raises(AccountNotFound):
                await store.admit_test_traffic(Account("acct_0000000000000000", "ghost", 0), "t", WINDOW_S + 1)
        finally:
            await store.close()

    asyncio.run(scenario())


def test_test_traffic_is_kept_in_its_own_tables_never_in_the_live_ones(tmp_path):
    path = tmp_path / "s.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        try:
            account = await store.create_account("acme", 10)
            await store.admit_test_traffic(account, "held", WINDOW_S + 1)
        finally:
            await store.close()

    asyncio.run(scenario())
    with sqlite3.connect(path) as conn:
        counts = {
            table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("test_rate_windows", "test_slots", "rate_windows", "slots")
        }
    assert counts == {"test_rate_windows": 1, "test_slots": 1, "rate_windows": 0, "slots": 0}


def test_a_lapsed_test_slot_is_dropped_by_the_next_admission(tmp_path):
    from store.records import SLOT_LEASE_S

    async def scenario() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            assert (await store.admit_test_traffic(account, "forgotten", WINDOW_S + 1)).allowed
            later_s = WINDOW_S + 1 + SLOT_LEASE_S
            assert (await store.admit_test_traffic(account, "next", later_s)).allowed
        finally:
            await store.close()

    asyncio.run(scenario())
