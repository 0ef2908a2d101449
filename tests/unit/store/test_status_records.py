"""The status records' rules (store/status_records.py): what a store may keep, how minutes roll
up into hours and days, and how probe marks merge."""

from __future__ import annotations

import pytest

from store.status_records import (
    DAY_S,
    DOWN,
    HOUR_S,
    MINUTE_S,
    MINUTES_A_DAY,
    NOT_PROBED,
    UP,
    LatencyHistogram,
    ProbeResult,
    add_histograms,
    check_histogram,
    check_probe_marks,
    merge_into,
    merge_probe_marks,
    probe_marks,
    rolled_up,
)

NOON = 1_796_558_400  # 2026-12-06T12:00:00Z


def test_a_minute_rolls_up_into_its_minute_hour_and_day():
    minute = LatencyHistogram(MINUTE_S, NOON + 120, "chart", (1, 2), 1)
    periods = {(h.period_s, h.start_s) for h in rolled_up([minute])}
    assert periods == {(MINUTE_S, NOON + 120), (HOUR_S, NOON), (DAY_S, NOON - 12 * HOUR_S)}


def test_minutes_of_one_hour_roll_up_into_one_hour_total():
    minutes = [LatencyHistogram(MINUTE_S, NOON + i * MINUTE_S, "chart", (1, 2), 1) for i in range(3)]
    (hour,) = [h for h in rolled_up(minutes) if h.period_s == HOUR_S]
    assert (hour.counts, hour.errors, hour.total) == ((3, 6), 3, 9)


def test_histograms_of_other_buckets_do_not_add():
    with pytest.raises(ValueError):
        add_histograms(
            LatencyHistogram(MINUTE_S, NOON, "quick", (1,), 0), LatencyHistogram(MINUTE_S, NOON, "quick", (1, 1), 0)
        )
    newer = LatencyHistogram(MINUTE_S, NOON, "quick", (1, 1), 0)
    assert merge_into(LatencyHistogram(MINUTE_S, NOON, "quick", (1,), 0), newer) == newer


@pytest.mark.parametrize(
    "histogram",
    [
        LatencyHistogram(7, NOON, "quick", (1,), 0),
        LatencyHistogram(MINUTE_S, NOON + 1, "quick", (1,), 0),
        LatencyHistogram(MINUTE_S, NOON, "acct.*", (1,), 0),
        LatencyHistogram(MINUTE_S, NOON, "quick", (), 0),
        LatencyHistogram(MINUTE_S, NOON, "quick", (1,) * 65, 0),
        LatencyHistogram(MINUTE_S, NOON, "quick", (1, -1), 0),
        LatencyHistogram(MINUTE_S, NOON, "quick", (1,), 2),
    ],
)
def test_a_histogram_no_store_may_keep_is_refused(histogram):
    with pytest.raises(ValueError):
        check_histogram(histogram)


def test_a_minute_with_a_failed_probe_is_down():
    (marks,) = probe_marks([ProbeResult(NOON + 5, True), ProbeResult(NOON + 30, False)]).values()
    assert marks[12 * 60] == DOWN and marks.count(NOT_PROBED) == MINUTES_A_DAY - 1


def test_probe_marks_merge_to_the_worse_in_either_order():
    up = UP + NOT_PROBED * (MINUTES_A_DAY - 1)
    down = DOWN + UP + NOT_PROBED * (MINUTES_A_DAY - 2)
    assert merge_probe_marks(up, down) == merge_probe_marks(down, up) == down
    assert merge_probe_marks(None, up) == up


def test_marks_of_another_length_or_letter_are_refused():
    for marks in ("", UP * (MINUTES_A_DAY + 1), "x" * MINUTES_A_DAY):
        with pytest.raises(ValueError):
            check_probe_marks(marks)
