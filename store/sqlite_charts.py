"""The SQLite store's stored charts: table ``charts``, one row per chart with its document as
JSON; each write one ``BEGIN IMMEDIATE`` transaction, so the per-account limit is exact."""

from __future__ import annotations

import orjson

from store.chart_records import ChartLimitReached, StoredChart, chart_document, chart_of, check_chart
from store.sqlite_connection import SqliteConnection, immediate


class SqliteCharts(SqliteConnection):
    """Stored charts (the store's :class:`~store.interfaces.StoredCharts`)."""

    async def create_chart(self, chart: StoredChart, limit: int) -> StoredChart:
        return await self._run(self._create_chart, check_chart(chart), limit)

    @staticmethod
    def _create_chart(conn, chart: StoredChart, limit: int) -> StoredChart:
        with immediate(conn):
            (count,) = conn.execute("SELECT COUNT(*) FROM charts WHERE account_id = ?", (chart.account_id,)).fetchone()
            if count >= limit:
                raise ChartLimitReached(limit)
            conn.execute(
                "INSERT INTO charts (chart_id, account_id, document) VALUES (?, ?, ?)",
                (chart.chart_id, chart.account_id, orjson.dumps(chart_document(chart)).decode()),
            )
        return chart

    async def get_chart(self, account_id: str, chart_id: str) -> StoredChart | None:
        return await self._run(self._get_chart, account_id, chart_id)

    @staticmethod
    def _get_chart(conn, account_id: str, chart_id: str) -> StoredChart | None:
        row = conn.execute(
            "SELECT document FROM charts WHERE chart_id = ? AND account_id = ?", (chart_id, account_id)
        ).fetchone()
        return None if row is None else chart_of(orjson.loads(row[0]))

    async def replace_chart(self, chart: StoredChart) -> StoredChart | None:
        return await self._run(self._replace_chart, check_chart(chart))

    @staticmethod
    def _replace_chart(conn, chart: StoredChart) -> StoredChart | None:
        with immediate(conn):
            cursor = conn.execute(
                "UPDATE charts SET document = ? WHERE chart_id = ? AND account_id = ?",
                (orjson.dumps(chart_document(chart)).decode(), chart.chart_id, chart.account_id),
            )
        return chart if cursor.rowcount else None

    async def delete_chart(self, account_id: str, chart_id: str) -> bool:
        return await self._run(self._delete_chart, account_id, chart_id)

    @staticmethod
    def _delete_chart(conn, account_id: str, chart_id: str) -> bool:
        with immediate(conn):
            cursor = conn.execute("DELETE FROM charts WHERE chart_id = ? AND account_id = ?", (chart_id, account_id))
        return cursor.rowcount > 0

    async def list_charts(self, account_id: str, after: str | None, limit: int) -> list[StoredChart]:
        return await self._run(self._list_charts, account_id, after or "", limit)

    @staticmethod
    def _list_charts(conn, account_id: str, after: str, limit: int) -> list[StoredChart]:
        rows = conn.execute(
            "SELECT document FROM charts WHERE account_id = ? AND chart_id > ? ORDER BY chart_id LIMIT ?",
            (account_id, after, limit),
        ).fetchall()
        return [chart_of(orjson.loads(row[0])) for row in rows]
