"""The status report (gateway/status_report.py): each class's figures per window from the store's
histograms, as /v1/status answers them."""

from __future__ import annotations

import asyncio
from datetime import date

from gateway.operation_classes import OPERATION_CLASSES
from gateway.status_report import WINDOWS, build_report, read_report, report_data
from store.status_records import DAY_S, HOUR_S, MINUTE_S, MINUTES_A_DAY, NOT_PROBED, UP, LatencyHistogram, ProbeDay

NOON = 1_796_558_400  # 2026-12-06T12:00:00Z


def test_every_class_has_figures_for_every_window_in_the_answer():
    data = report_data(build_report({w: [] for w in WINDOWS}, [], NOON, 60))
    assert [c["name"] for c in data["classes"]] == list(OPERATION_CLASSES)
    assert all([w["window"] for w in c["windows"]] == ["hour", "day", "30_days"] for c in data["classes"])


def test_durations_are_answered_in_milliseconds_and_shares_as_fractions():
    minute = LatencyHistogram(MINUTE_S, NOON, "quick", (4,) + (0,) * 13, 1)
    data = report_data(build_report({"hour": [minute], "day": [], "30_days": []}, [], NOON, 60))
    hour = data["classes"][0]["windows"][0]
    assert (hour["requests"], hour["p50_ms"], hour["server_error_share"]) == (4, 2.5, 0.25)


def test_uptime_days_are_answered_with_their_minutes():
    day = ProbeDay(date(2026, 12, 6), UP * 10 + NOT_PROBED * (MINUTES_A_DAY - 10))
    data = report_data(build_report({w: [] for w in WINDOWS}, [day], NOON, 60))
    assert data["uptime"] == {
        "probe_interval_s": 60,
        "days": [{"date": "2026-12-06", "probed_minutes": 10, "down_minutes": 0, "uptime": 1.0}],
    }


class Store:
    def __init__(self):
        self.asked = []

    async def latencies(self, period_s, since_s):
        self.asked.append((period_s, since_s))
        return []

    async def probe_days(self, first_day):
        self.asked.append(first_day)
        return []


def test_the_windows_are_the_last_60_minutes_24_hours_and_30_days():
    store = Store()
    asyncio.run(read_report(store, NOON + 30, 60))
    assert store.asked == [
        (MINUTE_S, NOON - 59 * MINUTE_S),
        (HOUR_S, NOON - 23 * HOUR_S),
        (DAY_S, NOON - 12 * HOUR_S - 29 * DAY_S),
        date(2026, 11, 7),
    ]
