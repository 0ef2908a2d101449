"""The SQLite store's status records (store/sqlite_status.py): what the contract suite cannot
see, the periods no longer kept forgotten and an older file migrated."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from store import SqliteStore
from store.status_records import DAY_S, HOUR_S, KEPT_S, MINUTE_S, LatencyHistogram, period_start


def test_periods_no_longer_kept_are_forgotten_at_the_next_addition(tmp_path):
    path = str(tmp_path / "s.sqlite3")

    async def body():
        store = SqliteStore(path)
        try:
            old = period_start(time.time() - KEPT_S[MINUTE_S] - HOUR_S, MINUTE_S)
            await store.add_latencies([LatencyHistogram(MINUTE_S, old, "quick", (1,), 0)])
            assert await store.latencies(MINUTE_S, 0) == []
            assert [h.start_s for h in await store.latencies(HOUR_S, 0)] == [period_start(old, HOUR_S)]
            assert [h.start_s for h in await store.latencies(DAY_S, 0)] == [period_start(old, DAY_S)]
        finally:
            await store.close()

    asyncio.run(body())


def test_a_file_of_schema_10_gains_the_status_tables(tmp_path):
    path = tmp_path / "old.sqlite3"
    SqliteStore(str(path)).close_sync()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE status_latencies")
        conn.execute("DROP TABLE status_probe_days")
        conn.execute("PRAGMA user_version=10")
    SqliteStore(str(path)).close_sync()
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"status_latencies", "status_probe_days"} <= tables
