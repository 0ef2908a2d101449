"""The status page's figures from merged histograms (gateway/status_figures.py): percentiles by
linear interpolation in their bucket, within that bucket's width of the true value."""

from __future__ import annotations

import random

import pytest

from gateway.status_figures import merged_counts, percentile_s, uptime_share, window_figures
from store.status_records import DOWN, MINUTE_S, MINUTES_A_DAY, NOT_PROBED, UP, LatencyHistogram, ProbeDay

BOUNDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def histogram_of(durations: list[float], errors: int = 0, op_class: str = "quick") -> LatencyHistogram:
    counts = [0] * (len(BOUNDS) + 1)
    for duration in durations:
        counts[next((i for i, bound in enumerate(BOUNDS) if duration <= bound), len(BOUNDS))] += 1
    return LatencyHistogram(MINUTE_S, 0, op_class, tuple(counts), errors)


def test_a_percentile_is_interpolated_linearly_in_its_bucket():
    counts = [0, 10] + [0] * 12  # ten answers in (5 ms, 10 ms]
    assert percentile_s(counts, BOUNDS, 0.5) == pytest.approx(0.0075)
    assert percentile_s(counts, BOUNDS, 1.0) == pytest.approx(0.010)


def test_the_first_bucket_starts_at_zero():
    assert percentile_s([4] + [0] * 13, BOUNDS, 0.5) == pytest.approx(0.0025)


def test_a_rank_above_the_highest_bound_reads_as_that_bound():
    assert percentile_s([0] * 13 + [3], BOUNDS, 0.99) == 60.0


def test_no_answers_have_no_percentile():
    assert percentile_s([0] * 14, BOUNDS, 0.5) is None


def test_a_percentile_is_within_its_buckets_width_of_the_exact_one():
    rng = random.Random(50)
    durations = sorted(rng.lognormvariate(-4.5, 1.2) for _ in range(5000))
    counts, _ = merged_counts([histogram_of(durations)], len(BOUNDS) + 1)
    for q in (0.5, 0.95, 0.99):
        exact = durations[int(q * len(durations)) - 1]
        bucket = next(i for i, bound in enumerate(BOUNDS) if exact <= bound)
        width = BOUNDS[bucket] - (BOUNDS[bucket - 1] if bucket else 0.0)
        assert abs(percentile_s(counts, BOUNDS, q) - exact) <= width


def test_histograms_merge_by_adding_their_counts_and_those_of_other_buckets_are_left_out():
    other = LatencyHistogram(MINUTE_S, 0, "quick", (5, 5), 5)
    counts, errors = merged_counts([histogram_of([0.001], 1), histogram_of([0.001, 0.2]), other], len(BOUNDS) + 1)
    assert (counts[0], counts[5], errors) == (2, 1, 1)


def test_the_server_error_share_is_5xx_over_every_answer():
    figures = window_figures([histogram_of([0.001] * 3, errors=1), histogram_of([0.001])], BOUNDS)
    assert (figures.requests, figures.server_error_share) == (4, 0.25)


def test_a_window_without_answers_has_no_figures():
    figures = window_figures([], BOUNDS)
    assert (figures.requests, figures.percentiles_s, figures.server_error_share) == (0, (None, None, None), None)


def test_uptime_is_the_share_of_probed_minutes_that_were_up():
    marks = UP * 3 + DOWN + NOT_PROBED * (MINUTES_A_DAY - 4)
    assert uptime_share(ProbeDay(None, marks)) == 0.75
    assert uptime_share(ProbeDay(None, NOT_PROBED * MINUTES_A_DAY)) is None
