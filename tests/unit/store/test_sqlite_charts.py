"""store/sqlite_charts.py: the SQLite store's limit on charts is exact under concurrent
creations (one transaction counts and inserts), and a deleted birth leaves the file's table."""

from __future__ import annotations

import asyncio

from store import SqliteStore
from store.chart_records import ChartLimitReached, StoredChart, new_chart_id


def test_concurrent_creations_never_pass_the_limit(tmp_path):
    async def scenario() -> int:
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            account = await store.create_account("acme", 10)

            async def create():
                try:
                    await store.create_chart(StoredChart(new_chart_id(), account.id, "n", {}, {}, {}), limit=5)
                except ChartLimitReached:
                    pass

            await asyncio.gather(*(create() for _ in range(20)))
            return len(await store.list_charts(account.id, None, 100))
        finally:
            await store.close()

    assert asyncio.run(scenario()) == 5


def test_a_deleted_chart_leaves_no_row(tmp_path):
    async def scenario() -> int:
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            account = await store.create_account("acme", 10)
            chart = await store.create_chart(
                StoredChart(new_chart_id(), account.id, "n", {"datetime": "1985"}, {}, {}), limit=5
            )
            await store.delete_chart(account.id, chart.chart_id)
            return store._conn().execute("SELECT COUNT(*) FROM charts").fetchone()[0]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == 0
