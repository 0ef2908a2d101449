"""The SQLite store's status records (``status_records.py``): table ``status_latencies``, one
row per period, start and operation class with its bucket counts as JSON, and table
``status_probe_days``, one row per UTC day with its minutes' marks. Each addition is one
``BEGIN IMMEDIATE`` transaction that reads, adds and writes back, and forgets what is no longer
kept, so gateways adding at once never lose a count."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date, timedelta

import orjson

from store.sqlite_connection import SqliteConnection, immediate
from store.status_records import (
    KEPT_S,
    PROBE_DAYS_KEPT,
    LatencyHistogram,
    ProbeDay,
    ProbeResult,
    check_probe_marks,
    day_of,
    histogram_document,
    histogram_of,
    merge_into,
    merge_probe_marks,
    probe_marks,
    rolled_up,
)


class SqliteStatus(SqliteConnection):
    """The status page's records (the store's :class:`~store.interfaces.StatusRecords`)."""

    async def add_latencies(self, minutes: Sequence[LatencyHistogram]) -> None:
        added = rolled_up(minutes)
        if added:
            await self._run(self._add_latencies, added, time.time())

    @staticmethod
    def _add_latencies(conn, added: list[LatencyHistogram], now_s: float) -> None:
        with immediate(conn):
            for histogram in added:
                row = conn.execute(
                    "SELECT document FROM status_latencies WHERE period_s = ? AND start_s = ? AND op_class = ?",
                    (histogram.period_s, histogram.start_s, histogram.op_class),
                ).fetchone()
                kept = None if row is None else histogram_of(*_key(histogram), orjson.loads(row[0]))
                total = merge_into(kept, histogram)
                conn.execute(
                    "INSERT OR REPLACE INTO status_latencies (period_s, start_s, op_class, document) "
                    "VALUES (?, ?, ?, ?)",
                    (*_key(total), orjson.dumps(histogram_document(total)).decode()),
                )
            for period_s, kept_s in KEPT_S.items():
                conn.execute(
                    "DELETE FROM status_latencies WHERE period_s = ? AND start_s <= ?", (period_s, now_s - kept_s)
                )

    async def latencies(self, period_s: int, since_s: int) -> list[LatencyHistogram]:
        return await self._run(self._latencies, period_s, since_s)

    @staticmethod
    def _latencies(conn, period_s: int, since_s: int) -> list[LatencyHistogram]:
        rows = conn.execute(
            "SELECT start_s, op_class, document FROM status_latencies WHERE period_s = ? AND start_s >= ? "
            "ORDER BY start_s, op_class",
            (period_s, since_s),
        ).fetchall()
        return [histogram_of(period_s, start_s, op_class, orjson.loads(doc)) for start_s, op_class, doc in rows]

    async def add_probe_results(self, results: Sequence[ProbeResult]) -> None:
        days = probe_marks(results)
        if days:
            await self._run(self._add_probe_days, days, day_of(time.time()))

    @staticmethod
    def _add_probe_days(conn, days: dict[date, str], today: date) -> None:
        with immediate(conn):
            for day, marks in days.items():
                row = conn.execute("SELECT marks FROM status_probe_days WHERE day = ?", (day.isoformat(),)).fetchone()
                conn.execute(
                    "INSERT OR REPLACE INTO status_probe_days (day, marks) VALUES (?, ?)",
                    (day.isoformat(), merge_probe_marks(None if row is None else row[0], marks)),
                )
            oldest = today - timedelta(days=PROBE_DAYS_KEPT)
            conn.execute("DELETE FROM status_probe_days WHERE day < ?", (oldest.isoformat(),))

    async def probe_days(self, first_day: date) -> list[ProbeDay]:
        return await self._run(self._probe_days, first_day)

    @staticmethod
    def _probe_days(conn, first_day: date) -> list[ProbeDay]:
        rows = conn.execute(
            "SELECT day, marks FROM status_probe_days WHERE day >= ? ORDER BY day", (first_day.isoformat(),)
        ).fetchall()
        return [ProbeDay(date.fromisoformat(day), check_probe_marks(marks)) for day, marks in rows]


def _key(histogram: LatencyHistogram) -> tuple[int, int, str]:
    """Return the row key of a histogram: its period, start and class."""
    return histogram.period_s, histogram.start_s, histogram.op_class
