"""The status report (``/status`` and ``/v1/status``): each operation class's figures over the
last hour, day and 30 days, and the uptime of the last 30 days, read from the store so every
gateway reports the same figures (``status_recording.py`` adds them, ``status_figures.py``
computes them).

The windows are aligned to the periods the store keeps: the last hour is the current minute
and the 59 before it, the last day the current hour and the 23 before it, 30 days the current
UTC day and the 29 before it. A report is read once every ``REPORT_CACHE_S`` seconds at most,
however often the page is asked for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from gateway.operation_classes import OPERATION_CLASSES
from gateway.status_figures import WindowFigures, uptime_share, window_figures
from gateway.status_recording import BUCKET_BOUNDS_S
from gateway.utc_text import iso
from store.interfaces import StatusRecords
from store.status_records import DAY_S, HOUR_S, MINUTE_S, LatencyHistogram, ProbeDay, day_of, period_start

#: The windows: name -> (the period the store keeps them at, how many periods).
WINDOWS = {"hour": (MINUTE_S, 60), "day": (HOUR_S, 24), "30_days": (DAY_S, 30)}
#: Seconds a report is answered from this gateway's cache (the store's figures change only
#: at each gateway's flush, every few seconds).
REPORT_CACHE_S = 5.0
#: Days of uptime history.
UPTIME_DAYS = 30


@dataclass(frozen=True)
class StatusReport:
    """What the status page shows, as of ``as_of_s`` (Unix seconds)."""

    as_of_s: float
    figures: dict[str, dict[str, WindowFigures]]  # class -> window -> figures
    days: list[ProbeDay]  # the last UPTIME_DAYS days, oldest first (days never probed left out)
    probe_interval_s: float


def build_report(
    windows: dict[str, list[LatencyHistogram]], days: list[ProbeDay], as_of_s: float, probe_interval_s: float
) -> StatusReport:
    """Return the report of the histograms read for each window and the probe days."""
    figures = {
        op_class: {
            window: window_figures((h for h in histograms if h.op_class == op_class), BUCKET_BOUNDS_S)
            for window, histograms in windows.items()
        }
        for op_class in OPERATION_CLASSES
    }
    return StatusReport(as_of_s, figures, days, probe_interval_s)


async def read_report(store: StatusRecords, now_s: float, probe_interval_s: float) -> StatusReport:
    """Return the report as the store holds it at ``now_s``."""
    windows = {}
    for window, (period_s, periods) in WINDOWS.items():
        windows[window] = await store.latencies(period_s, period_start(now_s, period_s) - (periods - 1) * period_s)
    first_day = day_of(now_s) - timedelta(days=UPTIME_DAYS - 1)
    return build_report(windows, await store.probe_days(first_day), now_s, probe_interval_s)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def report_data(report: StatusReport) -> dict[str, Any]:
    """Return the report as ``/v1/status`` answers it (``data``): durations in milliseconds to
    0.1 ms, shares as fractions in [0, 1]."""
    classes = []
    for op_class, description in OPERATION_CLASSES.items():
        windows = []
        for window, figures in report.figures[op_class].items():
            p50, p95, p99 = figures.percentiles_s
            windows.append(
                {
                    "window": window,
                    "requests": figures.requests,
                    "p50_ms": _ms(p50),
                    "p95_ms": _ms(p95),
                    "p99_ms": _ms(p99),
                    "server_error_share": figures.server_error_share,
                }
            )
        classes.append({"name": op_class, "description": description, "windows": windows})
    days = [
        {
            "date": day.day.isoformat(),
            "probed_minutes": day.up_minutes + day.down_minutes,
            "down_minutes": day.down_minutes,
            "uptime": uptime_share(day),
        }
        for day in report.days
    ]
    return {"classes": classes, "uptime": {"probe_interval_s": report.probe_interval_s, "days": days}}


def as_of(report: StatusReport) -> str:
    """Return when the report's figures were read, as a time stamp."""
    return iso(datetime.fromtimestamp(report.as_of_s, UTC))


class ReportCache:
    """This gateway's latest report, read again from the store when older than REPORT_CACHE_S."""

    def __init__(self, store: StatusRecords, probe_interval_s: float) -> None:
        self._store = store
        self._probe_interval_s = probe_interval_s
        self._report: StatusReport | None = None
        self._read_at = 0.0

    async def report(self) -> StatusReport:
        """Return the report, at most REPORT_CACHE_S seconds old."""
        now = time.monotonic()
        if self._report is None or now - self._read_at >= REPORT_CACHE_S:
            self._report = await read_report(self._store, time.time(), self._probe_interval_s)
            self._read_at = now
        return self._report

    def forget(self) -> None:
        """Read the store again on the next report (after a flush this gateway waits for)."""
        self._report = None
