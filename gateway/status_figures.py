"""The status page's figures, computed from merged histograms (pure functions; docs/status.md
says how each is measured).

A percentile is read from the bucket counts by linear interpolation inside the bucket that
holds its rank: with ``n`` answers, the ``q`` percentile is the duration of rank ``q * n``,
taken as evenly spread between the bucket's lower and upper bounds (0 below the first). Its
error is at most the width of that bucket (5 ms below 5 ms, 15 ms from 10 to 25 ms, ...). A
rank in the last bucket (above the highest bound) reads as the highest bound: a lower bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from store.status_records import LatencyHistogram, ProbeDay

#: The percentiles the page gives, as fractions.
PERCENTILES = (0.50, 0.95, 0.99)


@dataclass(frozen=True)
class WindowFigures:
    """One class's figures over one window: how many answers, their percentiles (seconds;
    None without answers) and the share of them that were 5xx (None without answers)."""

    requests: int
    percentiles_s: tuple[float | None, ...]
    server_error_share: float | None


def merged_counts(histograms: Iterable[LatencyHistogram], buckets: int) -> tuple[list[int], int]:
    """Return the summed bucket counts and 5xx count of ``histograms`` that have ``buckets``
    buckets (others were recorded under other bounds and are left out)."""
    counts = [0] * buckets
    errors = 0
    for histogram in histograms:
        if len(histogram.counts) != buckets:
            continue
        for i, count in enumerate(histogram.counts):
            counts[i] += count
        errors += histogram.errors
    return counts, errors


def percentile_s(counts: Sequence[int], bounds_s: Sequence[float], q: float) -> float | None:
    """Return the ``q`` percentile (0 < q <= 1) in seconds of the answers counted in ``counts``
    (one more than ``bounds_s``, the buckets' inclusive upper bounds), interpolated linearly in
    its bucket; None when nothing was counted."""
    total = sum(counts)
    if total == 0:
        return None
    rank = q * total
    below = 0
    for i, count in enumerate(counts):
        if count and below + count >= rank:
            if i == len(bounds_s):
                return float(bounds_s[-1])
            lower = bounds_s[i - 1] if i else 0.0
            return lower + (bounds_s[i] - lower) * (rank - below) / count
        below += count
    return float(bounds_s[-1])


def window_figures(histograms: Iterable[LatencyHistogram], bounds_s: Sequence[float]) -> WindowFigures:
    """Return the figures of one class over the periods of ``histograms``."""
    counts, errors = merged_counts(histograms, len(bounds_s) + 1)
    total = sum(counts)
    return WindowFigures(
        total,
        tuple(percentile_s(counts, bounds_s, q) for q in PERCENTILES),
        errors / total if total else None,
    )


def uptime_share(day: ProbeDay) -> float | None:
    """Return the share of a day's probed minutes that were up; None when none was probed."""
    probed = day.up_minutes + day.down_minutes
    return day.up_minutes / probed if probed else None
