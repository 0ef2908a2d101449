"""Recording every answered request for the public status page (issue 50, part 5): each
gateway counts its answers per UTC minute and operation class in fixed-bucket histograms, and
adds them to the store every ``CELESTIAL_STATUS_FLUSH_S`` seconds with its probes' results
(``status_probes.py``), so every gateway's page reads the same totals (``status_report.py``).

Recording is a dictionary look-up, a bisection and two increments per request
(``python -m bench status_recording`` measures it); nothing waits on the store.
"""

from __future__ import annotations

import asyncio
import bisect
import time

import structlog

from gateway.operation_classes import class_of_path
from gateway.status_probes import probe_every
from shared.metrics_recording import DURATION_BUCKETS_S
from shared.runtime.config import Settings
from store.errors import StoreError
from store.interfaces import StatusRecords
from store.status_records import MINUTE_S, LatencyHistogram, ProbeResult

log = structlog.get_logger("celestial.gateway")

#: The upper bounds (seconds, inclusive) of the duration buckets, a last bucket above them: the
#: metric catalogue's Prometheus buckets (issue 50), so the page's figures and the metrics'
#: come from the same buckets.
BUCKET_BOUNDS_S = DURATION_BUCKETS_S
_BUCKETS = len(BUCKET_BOUNDS_S) + 1
#: The most unflushed minutes a gateway holds while the store is unreachable (then the
#: oldest are dropped): a day of every class.
_MOST_MINUTES_HELD = 1440 * 8


class StatusRecorder:
    """One gateway's answers and probe results not yet added to the store."""

    def __init__(self) -> None:
        # (minute start, class) -> counts per bucket, then the count of 5xx
        self._minutes: dict[tuple[int, str], list[int]] = {}
        self._probes: list[ProbeResult] = []

    def record(self, op_class: str, status: int, duration_s: float, now_s: float) -> None:
        """Count one answer of ``op_class`` with HTTP ``status`` that took ``duration_s`` seconds, at ``now_s``."""
        key = (int(now_s // MINUTE_S) * MINUTE_S, op_class)
        counts = self._minutes.get(key)
        if counts is None:
            counts = self._minutes[key] = [0] * (_BUCKETS + 1)
        counts[bisect.bisect_left(BUCKET_BOUNDS_S, duration_s)] += 1
        if status >= 500:
            counts[_BUCKETS] += 1

    def record_probe(self, result: ProbeResult) -> None:
        """Keep one probe's result until the next flush."""
        self._probes.append(result)

    def take(self) -> tuple[list[LatencyHistogram], list[ProbeResult]]:
        """Return (and forget) the minute histograms and probe results recorded so far."""
        minutes, self._minutes = self._minutes, {}
        probes, self._probes = self._probes, []
        histograms = [
            LatencyHistogram(MINUTE_S, start_s, op_class, tuple(counts[:_BUCKETS]), counts[_BUCKETS])
            for (start_s, op_class), counts in sorted(minutes.items())
        ]
        return histograms, probes

    def give_back(self, histograms: list[LatencyHistogram], probes: list[ProbeResult]) -> None:
        """Keep what a flush could not add, for the next one (the newest first kept when too many)."""
        for histogram in histograms[-_MOST_MINUTES_HELD:]:
            counts = self._minutes.setdefault((histogram.start_s, histogram.op_class), [0] * (_BUCKETS + 1))
            for i, count in enumerate(histogram.counts):
                counts[i] += count
            counts[_BUCKETS] += histogram.errors
        self._probes[:0] = probes[-_MOST_MINUTES_HELD:]

    async def flush(self, store: StatusRecords) -> None:
        """Add what was recorded to ``store``; kept for the next flush when the store fails."""
        histograms, probes = self.take()
        try:
            if histograms:
                await store.add_latencies(histograms)
            if probes:
                await store.add_probe_results(probes)
        except (StoreError, OSError) as error:
            # A histogram added before the failure is added again: the next flush may count a
            # few answers twice rather than lose a store outage's worth of them.
            self.give_back(histograms, probes)
            log.warning("status_flush_failed", error=type(error).__name__)

    async def flush_every(self, store: StatusRecords, interval_s: float) -> None:
        """Flush every ``interval_s`` seconds until cancelled, then once more."""
        try:
            while True:
                await asyncio.sleep(interval_s)
                await self.flush(store)
        finally:
            await self.flush(store)


def record_answer(scope: dict, status: int, duration_s: float) -> None:
    """Count a request's answer (``status``, ``duration_s`` seconds in the gateway) when its
    path names an operation and its application records (``app.state.status_recorder``)."""
    op_class = class_of_path(scope.get("path", ""))
    if op_class is None or "app" not in scope:
        return
    recorder = getattr(scope["app"].state, "status_recorder", None)
    if recorder is not None:
        recorder.record(op_class, status, duration_s, time.time())


def start_recording(app, settings: Settings, store: object) -> list[asyncio.Task]:
    """Set ``app.state.status_recorder`` and return the tasks that flush it to ``store`` and
    probe ``app`` (none, and no recorder, when the store keeps no status records)."""
    if not isinstance(store, StatusRecords):
        app.state.status_recorder = None
        return []
    recorder = app.state.status_recorder = StatusRecorder()
    tasks = [asyncio.create_task(recorder.flush_every(store, settings.status_flush_s))]
    if settings.status_probe_s > 0:
        tasks.append(asyncio.create_task(probe_every(app, recorder.record_probe, settings.status_probe_s)))
    return tasks
