"""store/sqlite_idempotency.py: the table a file gains on first open, and the pruning of
expired records (the contract itself: test_idempotency_contract.py, run on both stores)."""

from __future__ import annotations

import asyncio
import sqlite3

from store.idempotency_records import IDEMPOTENCY_TTL_S
from store.sqlite_idempotency import PRUNE_EVERY_S
from store.sqlite_store import SqliteStore


def _rows(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*) FROM idempotency").fetchone()[0]


def test_a_file_without_the_table_gains_it_when_opened(tmp_path):
    path = tmp_path / "s.sqlite3"
    SqliteStore(path).close_sync()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE idempotency")
    SqliteStore(path).close_sync()
    assert _rows(path) == 0


def test_expired_records_are_deleted_by_a_later_claim(tmp_path):
    path = tmp_path / "s.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        try:
            account = (await store.create_account("acme", 10)).id
            now = 1_700_000_000.0
            for i in range(3):
                await store.claim_idempotency(account, f"old-{i}", "fp", f"c{i}", 10.0, now)
            later = now + IDEMPOTENCY_TTL_S + PRUNE_EVERY_S
            await store.claim_idempotency(account, "new", "fp", "c-new", 10.0, later)
        finally:
            await store.close()

    asyncio.run(scenario())
    assert _rows(path) == 1
