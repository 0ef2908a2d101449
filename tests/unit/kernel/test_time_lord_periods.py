"""kernel/time_lord_periods.py: the query that selects time-lord periods (one instant, or a
range cut to birth, its cap in calendar years), the selection (a period holds an instant on
[start, end)) and the flat, clamped ordering (interface.md, Time-lord period records),
checked by hand and as properties over random births and ranges of the three techniques."""

from __future__ import annotations

import random

import pytest

from kernel.errors import BeforeBirth, MissingValue, RangeTooLong, UnreadableValue
from kernel.firdaria import firdaria
from kernel.profections import mean_boundaries, profections
from kernel.releasing import releasing
from kernel.time_lord_periods import Period, TimeQuery, check_range_cap, flatten, overlaps, time_query
from kernel.timescale import calendar_span_text, duration_text, plus_calendar_years
from tests.unit.kernel.time_lord_births import (
    BIRTH,
    NEVER,
    YEAR,
    at,
)


def test_nothing_precedes_birth():
    with pytest.raises(BeforeBirth):
        time_query(BIRTH, BIRTH - 1, None, None)
    cut = time_query(BIRTH, None, BIRTH - 1000, BIRTH + 10)
    assert cut.start_jd == BIRTH  # cut to birth, and the periods are not flagged for it
    periods = flatten(firdaria(BIRTH, True, "nodes_last", YEAR, cut, NEVER), cut)
    assert not any(p.clamped_start for p in periods)


def test_a_range_past_its_cap_is_range_too_long_and_the_query_needs_at_or_both_ends():
    # 2110-06-15 14:30, the same calendar date and time 120 years on: 43,829 days (29 leap days).
    cap_end = BIRTH + 43829
    with pytest.raises(RangeTooLong):
        check_range_cap(BIRTH, cap_end + 2 / 86400, 120)
    check_range_cap(BIRTH, cap_end, 120)
    with pytest.raises(MissingValue):
        time_query(BIRTH, None, None, None)
    with pytest.raises(MissingValue):
        time_query(BIRTH, None, BIRTH, None)
    with pytest.raises(UnreadableValue):
        time_query(BIRTH, None, BIRTH + 10, BIRTH + 5)
    with pytest.raises(UnreadableValue):
        time_query(BIRTH, BIRTH + 1, BIRTH, BIRTH + 5)


# Julian Days of 0h UT on the dates named (hand-derived: JD 2451544.5 is 2000-01-01).
JAN_1_2024, JAN_1_2025, FEB_29_2024, FEB_28_2025 = 2460310.5, 2460676.5, 2460369.5, 2460734.5


def test_a_cap_in_years_is_calendar_years_so_a_leap_year_fits_a_one_year_cap():
    assert JAN_1_2025 - JAN_1_2024 == 366
    check_range_cap(JAN_1_2024, JAN_1_2025, 1)
    with pytest.raises(RangeTooLong):
        check_range_cap(JAN_1_2024, JAN_1_2025 + 0.001 / 86400, 1)


def test_the_same_date_a_year_after_29_february_is_28_february():
    assert plus_calendar_years(FEB_29_2024, 1) == FEB_28_2025
    assert plus_calendar_years(FEB_29_2024 + 0.25, 4) == FEB_29_2024 + 1461 + 0.25


def test_a_refused_range_states_how_long_it_lasts_and_the_cap_exactly():
    with pytest.raises(RangeTooLong) as caught:
        check_range_cap(JAN_1_2024, JAN_1_2025 + 2, 1)
    assert "lasts 1 year and 2 days" in str(caught.value) and "at most 1 year." in str(caught.value)
    assert calendar_span_text(JAN_1_2024, JAN_1_2025 + 2 / 86400) == "1 year and 2 seconds"
    assert calendar_span_text(JAN_1_2024, JAN_1_2024 + 1.5) == "1 day and 12 hours"
    assert duration_text(366 + 8.64 / 86400) == "366 days and 8.64 seconds"


def test_a_range_clamps_only_the_periods_it_cuts_and_an_at_query_never_clamps():
    query = TimeQuery(start_jd=BIRTH + 100, end_jd=BIRTH + 200)
    found = flatten(firdaria(BIRTH, True, "nodes_last", YEAR, query, NEVER), query)
    assert [(p.clamped_start, p.clamped_end) for p in found] == [(True, True), (True, True)]
    assert found[0].start_jd == BIRTH + 100 and found[0].end_jd == BIRTH + 200
    whole = flatten(firdaria(BIRTH, True, "nodes_last", YEAR, at(150), NEVER), at(150))
    assert not any(p.clamped_start or p.clamped_end for p in whole) and whole[0].start_jd == BIRTH


# --- properties over random births and ranges --------------------------------------------

GENERATOR = random.Random(20261124)
CASES = [
    (
        GENERATOR.randrange(12),
        GENERATOR.randrange(12),
        GENERATOR.uniform(0, 80 * YEAR),
        GENERATOR.uniform(30, 20 * YEAR),
    )
    for _ in range(25)
]


def techniques(sign, fortune, query):
    yield "profections", 2, list(profections(sign, BIRTH, mean_boundaries(BIRTH, YEAR), True, query, NEVER))
    yield "releasing", 3, list(releasing(sign, fortune, BIRTH, 3, query, NEVER))
    yield "firdaria", 2, list(firdaria(BIRTH, sign % 2 == 0, "nodes_last", YEAR, query, NEVER))


@pytest.mark.parametrize(("sign", "fortune", "offset", "length"), CASES)
def test_each_level_tiles_the_range_and_each_deeper_period_lies_in_exactly_one_parent(sign, fortune, offset, length):
    query = TimeQuery(start_jd=BIRTH + offset, end_jd=BIRTH + offset + length)
    for name, levels, periods in techniques(sign, fortune, query):
        found = flatten(periods, query)
        for level in range(1, levels + 1):
            track = [p for p in found if p.level == level]
            if name == "firdaria" and level == 2:
                continue  # node majors have no sub-periods: level 2 leaves gaps by design
            assert track[0].start_jd == query.start_jd and track[-1].end_jd == query.end_jd, (name, level)
            assert all(a.end_jd == pytest.approx(b.start_jd, abs=1e-9) for a, b in zip(track, track[1:])), (name, level)
        for child in (p for p in found if p.level > 1):
            parents = [
                p
                for p in found
                if p.level == child.level - 1
                and p.start_jd <= child.start_jd + 1e-9
                and child.end_jd <= p.end_jd + 1e-9
            ]
            assert len(parents) == 1, (name, child)


@pytest.mark.parametrize(("sign", "fortune", "offset", "length"), CASES[:10])
def test_an_at_query_agrees_with_the_range_query_around_it(sign, fortune, offset, length):
    instant = BIRTH + offset + length / 3
    query = TimeQuery(start_jd=BIRTH + offset, end_jd=BIRTH + offset + length)
    for (name, _, ranged), (_, _, pointed) in zip(
        techniques(sign, fortune, query), techniques(sign, fortune, TimeQuery(at_jd=instant))
    ):
        holding = [(p.level, p.members) for p in ranged if p.start_jd <= instant < p.end_jd]
        assert sorted(holding, key=lambda x: x[0]) == sorted(
            [(p.level, p.members) for p in pointed], key=lambda x: x[0]
        ), name


def test_a_period_holds_an_instant_from_its_start_up_to_but_not_including_its_end():
    assert overlaps(10.0, 20.0, TimeQuery(at_jd=10.0))
    assert overlaps(10.0, 20.0, TimeQuery(at_jd=19.999))
    assert not overlaps(10.0, 20.0, TimeQuery(at_jd=20.0))
    assert not overlaps(10.0, 20.0, TimeQuery(at_jd=9.999))


def test_a_period_that_only_touches_a_range_is_not_in_it():
    assert not overlaps(10.0, 20.0, TimeQuery(start_jd=20.0, end_jd=30.0))
    assert not overlaps(10.0, 20.0, TimeQuery(start_jd=0.0, end_jd=10.0))
    assert overlaps(10.0, 20.0, TimeQuery(start_jd=19.0, end_jd=30.0))


def test_periods_are_ordered_by_start_and_an_outer_period_before_the_inner_one_starting_with_it():
    query = TimeQuery(at_jd=5.0)
    periods = [Period(2, 0.0, 6.0), Period(1, 0.0, 10.0), Period(3, 4.0, 6.0)]
    assert [p.level for p in flatten(periods, query)] == [1, 2, 3]


def test_an_error_names_the_argument_at_fault():
    cases = [
        ((BIRTH - 1, None, None), BeforeBirth, "at"),
        ((BIRTH + 1, BIRTH, None), UnreadableValue, "at"),
        ((None, None, BIRTH + 1), MissingValue, "start"),
        ((None, BIRTH, None), MissingValue, "end"),
        ((None, BIRTH + 5, BIRTH + 5), UnreadableValue, "end"),
        ((None, BIRTH - 10, BIRTH - 5), BeforeBirth, "end"),
    ]
    for arguments, error, about in cases:
        with pytest.raises(error) as caught:
            time_query(BIRTH, *arguments)
        assert caught.value.about == about, arguments
