"""What the store keeps for the public status page (issue 50, part 5), and its rules, shared by
both stores (``sqlite_status.py``, ``nats_status.py``).

- Latency histograms: per operation class and period (a UTC minute, hour or day), the count of
  answers in each fixed duration bucket (the bounds are the gateway's, ``gateway/status_recording.py``;
  the store keeps counts only) and how many of them were 5xx. Every gateway adds its own
  minutes; the store adds them into the minute, the hour and the day that hold them, so every
  gateway reads the same totals.
- Probe days: per UTC day, what the gateways' own probes saw in each of its 1440 minutes:
  not probed, up, or down (a minute with any failed probe is down).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

MINUTE_S = 60
HOUR_S = 3600
DAY_S = 86_400
#: The periods a histogram is kept at, and for how long (seconds) after the period began: the
#: status page's windows are the last hour (minutes), the last day (hours) and 30 days (days).
KEPT_S = {MINUTE_S: 2 * HOUR_S, HOUR_S: 2 * DAY_S, DAY_S: 32 * DAY_S}
#: Probe days are kept as long as day histograms.
PROBE_DAYS_KEPT = 32

#: An operation class's name: a short lower-case token (it is a key in either store).
_CLASS_RE = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: The most buckets a histogram may have (the gateway's have 14).
MAX_BUCKETS = 64

#: A probe minute's marks: not probed, up, down; a later mark replaces an earlier one only
#: when it is worse (``merge_probe_marks``).
NOT_PROBED, UP, DOWN = ".", "u", "d"
_MARK_RANK = {NOT_PROBED: 0, UP: 1, DOWN: 2}
MINUTES_A_DAY = DAY_S // MINUTE_S


@dataclass(frozen=True)
class LatencyHistogram:
    """The answers of one operation class in one period: ``counts[i]`` in bucket ``i`` (the
    last bucket above the highest bound), ``errors`` of them 5xx."""

    period_s: int  # MINUTE_S, HOUR_S or DAY_S
    start_s: int  # the period's start, Unix seconds, a multiple of period_s
    op_class: str
    counts: tuple[int, ...]
    errors: int

    @property
    def total(self) -> int:
        """Return the number of answers counted."""
        return sum(self.counts)


@dataclass(frozen=True)
class ProbeDay:
    """What the probes saw on one UTC day: one mark per minute (``NOT_PROBED``, ``UP``, ``DOWN``)."""

    day: date
    marks: str

    @property
    def up_minutes(self) -> int:
        """Return the minutes probed and found up."""
        return self.marks.count(UP)

    @property
    def down_minutes(self) -> int:
        """Return the minutes in which a probe failed."""
        return self.marks.count(DOWN)


@dataclass(frozen=True)
class ProbeResult:
    """One probe's outcome, at ``at_s`` (Unix seconds)."""

    at_s: float
    up: bool


def check_histogram(histogram: LatencyHistogram) -> LatencyHistogram:
    """Return ``histogram`` when a store may keep it; ValueError naming what is wrong otherwise."""
    if histogram.period_s not in KEPT_S:
        raise ValueError(f"period {histogram.period_s} s is not one of {sorted(KEPT_S)}")
    if histogram.start_s % histogram.period_s:
        raise ValueError(f"start {histogram.start_s} is not the start of a {histogram.period_s} s period")
    if not isinstance(histogram.op_class, str) or _CLASS_RE.fullmatch(histogram.op_class) is None:
        raise ValueError(f"operation class {histogram.op_class!r} is not a lower-case token")
    if not 1 <= len(histogram.counts) <= MAX_BUCKETS:
        raise ValueError(f"a histogram has 1 to {MAX_BUCKETS} buckets, not {len(histogram.counts)}")
    if any(count < 0 for count in histogram.counts) or not 0 <= histogram.errors <= sum(histogram.counts):
        raise ValueError("counts are not negative and errors are among them")
    return histogram


def period_start(at_s: float, period_s: int) -> int:
    """Return the start (Unix seconds) of the ``period_s`` period holding ``at_s``."""
    return int(at_s // period_s) * period_s


def add_histograms(a: LatencyHistogram, b: LatencyHistogram) -> LatencyHistogram:
    """Return the sum of two histograms of the same class and period; ValueError when their
    buckets differ (the bounds changed: the newer histogram replaces the older)."""
    if len(a.counts) != len(b.counts):
        raise ValueError(f"{len(a.counts)} buckets cannot be added to {len(b.counts)}")
    return LatencyHistogram(
        a.period_s, a.start_s, a.op_class, tuple(x + y for x, y in zip(a.counts, b.counts)), a.errors + b.errors
    )


def merge_into(kept: LatencyHistogram | None, added: LatencyHistogram) -> LatencyHistogram:
    """Return what the store keeps after adding ``added`` to ``kept`` (None: nothing yet): their
    sum, or ``added`` alone when the buckets differ."""
    if kept is None or len(kept.counts) != len(added.counts):
        return added
    return add_histograms(kept, added)


def rolled_up(minutes: Iterable[LatencyHistogram]) -> list[LatencyHistogram]:
    """Return the histograms a store adds for minute histograms: each minute itself, and the
    same counts under the hour and the day that hold it, one histogram per period and class."""
    totals: dict[tuple[int, int, str], LatencyHistogram] = {}
    for minute in minutes:
        check_histogram(minute)
        for period_s in KEPT_S:
            start_s = period_start(minute.start_s, period_s)
            part = LatencyHistogram(period_s, start_s, minute.op_class, minute.counts, minute.errors)
            key = (period_s, start_s, minute.op_class)
            totals[key] = merge_into(totals.get(key), part)
    return list(totals.values())


def histogram_document(histogram: LatencyHistogram) -> dict:
    """Return the JSON document a store keeps for a histogram (its key holds the rest)."""
    return {"counts": list(histogram.counts), "errors": histogram.errors}


def histogram_of(period_s: int, start_s: int, op_class: str, document: dict) -> LatencyHistogram:
    """Return the histogram a store kept as ``document`` under that period, start and class."""
    return LatencyHistogram(period_s, start_s, op_class, tuple(document["counts"]), document["errors"])


def day_of(at_s: float) -> date:
    """Return the UTC day holding ``at_s`` (Unix seconds)."""
    return datetime.fromtimestamp(at_s, UTC).date()


def probe_marks(results: Iterable[ProbeResult]) -> dict[date, str]:
    """Return, per UTC day, the marks of ``results`` (minutes not probed left ``NOT_PROBED``)."""
    days: dict[date, list[str]] = {}
    for result in results:
        marks = days.setdefault(day_of(result.at_s), [NOT_PROBED] * MINUTES_A_DAY)
        minute = int(result.at_s % DAY_S) // MINUTE_S
        mark = UP if result.up else DOWN
        if _MARK_RANK[mark] > _MARK_RANK[marks[minute]]:
            marks[minute] = mark
    return {day: "".join(marks) for day, marks in days.items()}


def merge_probe_marks(kept: str | None, added: str) -> str:
    """Return a day's marks after adding ``added`` to ``kept``: each minute the worse of the two
    (down over up over not probed), so two gateways' probes of one minute merge alike in any order."""
    if kept is None or len(kept) != MINUTES_A_DAY:
        return added
    return "".join(a if _MARK_RANK[a] >= _MARK_RANK[b] else b for a, b in zip(kept, added))


def check_probe_marks(marks: str) -> str:
    """Return ``marks`` when they are one day's; ValueError otherwise."""
    if len(marks) != MINUTES_A_DAY or set(marks) - set(_MARK_RANK):
        raise ValueError(f"a day has {MINUTES_A_DAY} marks, each one of {''.join(_MARK_RANK)}")
    return marks
