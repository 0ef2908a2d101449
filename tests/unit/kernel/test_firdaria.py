"""kernel/firdaria.py: the firdaria against the sequences of Abu Ma'shar as Bonatti gives them
(interface.md, /v1/firdaria): day and night orders, a 75-year cycle, seven equal sub-periods
in Chaldean order for the planetary majors, none for the nodes."""

from __future__ import annotations

import pytest

from kernel.firdaria import firdaria, sequence, sub_lords
from kernel.time_lord_periods import TimeQuery, flatten
from tests.unit.kernel.time_lord_births import (
    BIRTH,
    NEVER,
    YEAR,
    at,
    everything,
)


def test_a_day_birth_runs_the_day_sequence_and_starts_over_after_75_years():
    majors = [p for p in firdaria(BIRTH, True, "nodes_last", YEAR, everything(120), NEVER) if p.level == 1]
    assert [p.members["lord"] for p in majors[:10]] == [
        "sun",
        "venus",
        "mercury",
        "moon",
        "saturn",
        "jupiter",
        "mars",
        "north_node",
        "south_node",
        "sun",
    ]
    assert majors[9].start_jd == pytest.approx(BIRTH + 75 * YEAR)
    assert majors[2].start_jd == pytest.approx(BIRTH + 18 * YEAR) and majors[2].end_jd == pytest.approx(
        BIRTH + 31 * YEAR
    )


@pytest.mark.parametrize(
    ("order", "lords"),
    [
        ("nodes_last", ["moon", "saturn", "jupiter", "mars", "sun", "venus", "mercury", "north_node", "south_node"]),
        (
            "nodes_after_mars",
            ["moon", "saturn", "jupiter", "mars", "north_node", "south_node", "sun", "venus", "mercury"],
        ),
    ],
)
def test_a_night_birth_runs_the_night_sequence_in_either_order(order, lords):
    majors = [p for p in firdaria(BIRTH, False, order, YEAR, everything(74), NEVER) if p.level == 1]
    assert [p.members["lord"] for p in majors] == lords


def test_planetary_majors_split_into_seven_equal_sub_periods_in_chaldean_order_and_nodes_do_not():
    assert sub_lords("sun") == ("sun", "venus", "mercury", "moon", "saturn", "jupiter", "mars")
    found = [p for p in firdaria(BIRTH, True, "nodes_last", YEAR, everything(75), NEVER)]
    subs = [p for p in found if p.level == 2 and p.members["major_lord"] == "mercury"]
    assert [p.members["lord"] for p in subs] == list(sub_lords("mercury"))
    assert all(p.end_jd - p.start_jd == pytest.approx(13 * YEAR / 7) for p in subs)
    major = next(p for p in found if p.level == 1 and p.members["lord"] == "mercury")
    assert subs[-1].end_jd == major.end_jd  # the last ends exactly on its major
    assert not [p for p in found if p.level == 2 and p.members["major_lord"] in ("north_node", "south_node")]


def test_an_at_query_inside_a_node_major_returns_the_major_alone():
    # Day majors: Sun 10, Venus 8, Mercury 13, Moon 9, Saturn 11, Jupiter 12, Mars 7 (70 years), North Node 3.
    found = flatten(firdaria(BIRTH, True, "nodes_last", YEAR, at(71 * YEAR), NEVER), at(71 * YEAR))
    assert [(p.level, p.members["lord"]) for p in found] == [(1, "north_node")]


@pytest.mark.parametrize(("day", "order"), [(True, "nodes_last"), (False, "nodes_last"), (False, "nodes_after_mars")])
def test_every_sequence_lasts_75_years_and_names_each_lord_once(day, order):
    majors = sequence(day, order)
    assert sum(years for _, years in majors) == 75
    assert sorted(lord for lord, _ in majors) == sorted(
        ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "north_node", "south_node"]
    )


# The Chaldean order by hand, slowest to fastest: Saturn, Jupiter, Mars, Sun, Venus, Mercury, Moon.
@pytest.mark.parametrize(
    ("major", "lords"),
    [
        ("saturn", ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")),
        ("moon", ("moon", "saturn", "jupiter", "mars", "sun", "venus", "mercury")),
        ("mars", ("mars", "sun", "venus", "mercury", "moon", "saturn", "jupiter")),
    ],
)
def test_the_sub_periods_start_with_the_major_and_follow_the_chaldean_order_round(major, lords):
    assert sub_lords(major) == lords


def test_the_year_length_scales_every_boundary():
    # Ten majors of a day birth end at 10, 18, 31, 40, 51, 63, 70, 73, 75 and 85 years.
    for year_days in (360.0, 365.25):
        majors = [
            p
            for p in firdaria(
                BIRTH, True, "nodes_last", year_days, TimeQuery(start_jd=BIRTH, end_jd=BIRTH + 86 * year_days), NEVER
            )
            if p.level == 1
        ]
        assert [p.end_jd for p in majors[:10]] == pytest.approx(
            [BIRTH + y * year_days for y in (10, 18, 31, 40, 51, 63, 70, 73, 75, 85)]
        )
