"""Profections, zodiacal releasing and firdaria against timelines derived by hand from the
spec's arithmetic (interface.md, the three endpoints and Time-lord period records), and
properties over random births and ranges."""

from __future__ import annotations

import random

import pytest

from kernel.deadline import Deadline
from kernel.errors import BeforeBirth, MissingValue, RangeTooLong, UnreadableValue
from kernel.firdaria import firdaria, sub_lords
from kernel.natal_points import natal_points, point_names
from kernel.positions import Observer
from kernel.profections import mean_boundaries, profections, solar_boundaries
from kernel.releasing import UNIT_DAYS, releasing
from kernel.time_lord_periods import TimeQuery, check_range_cap, flatten, time_query
from kernel.timescale import Moment, calendar_span_text, duration_text, plus_calendar_years
from kernel.zodiac import SIGNS

BIRTH = 2448058.1041667  # 1990-06-15 14:30 UT1
YEAR = 365.2422
NEVER = Deadline.never()
ARIES, TAURUS, GEMINI, CANCER, LEO, VIRGO, LIBRA, SCORPIO, SAGITTARIUS, CAPRICORN, AQUARIUS, PISCES = range(12)


def everything(years: float) -> TimeQuery:
    return TimeQuery(start_jd=BIRTH, end_jd=BIRTH + years * YEAR)


def at(days_after_birth: float) -> TimeQuery:
    return TimeQuery(at_jd=BIRTH + days_after_birth)


# --- profections -------------------------------------------------------------------------


def test_at_age_n_the_profected_sign_is_n_signs_on_and_its_ruler_is_the_lord():
    years = [p for p in profections(LIBRA, BIRTH, mean_boundaries(BIRTH, YEAR), False, everything(30), NEVER)]
    assert [(p.members["age"], p.members["house"], p.members["sign"], p.members["lord"]) for p in years[:3]] == [
        (0, 1, "Libra", "venus"), (1, 2, "Scorpio", "mars"), (2, 3, "Sagittarius", "jupiter"),
    ]
    assert years[12].members["house"] == 1 and years[12].members["sign"] == "Libra"  # the 13th year starts over
    assert years[29].members["sign"] == SIGNS[(LIBRA + 29) % 12]


def test_each_month_advances_one_sign_further_in_equal_twelfths_of_the_mean_year():
    found = flatten(profections(ARIES, BIRTH, mean_boundaries(BIRTH, YEAR), True, at(5 * YEAR + 100), NEVER), at(5 * YEAR + 100))
    year, month = found
    assert (year.level, month.level) == (1, 2)
    assert month.members["month"] == int(100 // (YEAR / 12)) + 1
    assert month.members["sign"] == SIGNS[(ARIES + 5 + month.members["month"] - 1) % 12]
    assert month.end_jd - month.start_jd == pytest.approx(YEAR / 12)
    assert year.start_jd == pytest.approx(BIRTH + 5 * YEAR) and year.end_jd == pytest.approx(BIRTH + 6 * YEAR)


def test_solar_years_turn_at_the_suns_return_within_a_day_of_the_mean_ones():
    sun = 84.3  # the Sun's longitude at this birth, near enough: only the returns' spacing matters here
    solar = solar_boundaries(BIRTH, sun, None, NEVER)
    mean = mean_boundaries(BIRTH, YEAR)
    for age in (1, 10, 40):
        assert abs(solar(age, 1) - mean(age, 1)) < 1.5  # the mean year drifts against the true return
        assert solar(age, 13) == solar(age + 1, 1)
        months = [solar(age, m) for m in range(1, 14)]
        assert months == sorted(months) and all(27 < b - a < 33 for a, b in zip(months, months[1:]))


# --- zodiacal releasing ------------------------------------------------------------------

YEARS = {ARIES: 15, TAURUS: 8, GEMINI: 20, CANCER: 25, LEO: 19, VIRGO: 20, LIBRA: 8, SCORPIO: 15, SAGITTARIUS: 12, CAPRICORN: 27, AQUARIUS: 30, PISCES: 12}


def test_chapters_walk_the_signs_from_the_lot_each_its_years_of_360_days_around_the_zodiac():
    chapters = [p for p in releasing(LEO, None, BIRTH, 1, everything(300), NEVER)]
    assert [p.members["sign"] for p in chapters[:13]] == [SIGNS[(LEO + i) % 12] for i in range(13)]
    elapsed = 0
    for chapter in chapters[:13]:
        sign = SIGNS.index(chapter.members["sign"])
        assert chapter.start_jd == pytest.approx(BIRTH + elapsed * 360.0)
        elapsed += YEARS[sign]
        assert chapter.end_jd == pytest.approx(BIRTH + elapsed * 360.0)
    assert not any(p.members["loosing_of_bond"] for p in chapters)


def test_a_leo_chapter_of_19_years_looses_the_bond_at_month_211_into_aquarius():
    # Leo lasts 19 years = 228 months. Its months run Leo (19), Virgo (20), Libra (8), Scorpio
    # (15), Sagittarius (12), Capricorn (27), Aquarius (30), Pisces (12), Aries (15), Taurus (8),
    # Gemini (20), Cancer (25): 211 months, one circuit. Month 211 begins the loosing of the
    # bond at the sign opposite Leo, Aquarius, which runs 30 months but is cut to the chapter's
    # end after 228 - 211 = 17.
    months = [p for p in releasing(LEO, None, BIRTH, 2, everything(20), NEVER) if p.level == 2 and p.start_jd < BIRTH + 19 * 360.0]
    signs = [p.members["sign"] for p in months]
    assert signs == ["Leo", "Virgo", "Libra", "Scorpio", "Sagittarius", "Capricorn", "Aquarius", "Pisces", "Aries", "Taurus", "Gemini", "Cancer", "Aquarius"]
    loosing = months[12]
    assert loosing.members["loosing_of_bond"] is True and sum(p.members["loosing_of_bond"] for p in months) == 1
    assert loosing.start_jd == pytest.approx(BIRTH + 211 * 30.0)
    assert loosing.end_jd == pytest.approx(BIRTH + 19 * 360.0)  # cut to the parent's end: 17 months, not 30


def test_a_chapter_shorter_than_18_years_never_looses_the_bond_and_its_last_month_is_cut():
    months = [p for p in releasing(SCORPIO, None, BIRTH, 2, everything(16), NEVER) if p.level == 2 and p.start_jd < BIRTH + 15 * 360.0]
    # Scorpio 15 years = 180 months: Scorpio 15, Sagittarius 12, Capricorn 27, Aquarius 30,
    # Pisces 12, Aries 15, Taurus 8, Gemini 20, Cancer 25 (164), Leo cut from 19 to 16.
    assert [p.members["sign"] for p in months] == ["Scorpio", "Sagittarius", "Capricorn", "Aquarius", "Pisces", "Aries", "Taurus", "Gemini", "Cancer", "Leo"]
    assert months[-1].end_jd - months[-1].start_jd == pytest.approx(16 * 30.0)
    assert not any(p.members["loosing_of_bond"] for p in months)


def test_levels_3_and_4_divide_by_twelve_again():
    found = flatten(releasing(ARIES, None, BIRTH, 4, at(0.1), NEVER), at(0.1))
    assert [p.level for p in found] == [1, 2, 3, 4]
    assert [p.end_jd - p.start_jd for p in found] == pytest.approx([15 * 360.0, 15 * 30.0, 15 * 2.5, 15 * 5 / 24])
    assert UNIT_DAYS == pytest.approx(5 / 24)


def test_angular_signs_from_fortune_carry_their_place_counted_inclusively():
    chapters = [p for p in releasing(ARIES, CANCER, BIRTH, 1, everything(200), NEVER)][:12]
    places = {p.members["sign"]: p.members.get("angle_from_fortune") for p in chapters}
    assert places == {"Cancer": 1, "Libra": 4, "Capricorn": 7, "Aries": 10, **{s: None for s in SIGNS if s not in ("Cancer", "Libra", "Capricorn", "Aries")}}
    assert all("angle_from_fortune" not in p.members for p in releasing(ARIES, None, BIRTH, 1, everything(50), NEVER))


# --- firdaria ----------------------------------------------------------------------------


def test_a_day_birth_runs_the_day_sequence_and_starts_over_after_75_years():
    majors = [p for p in firdaria(BIRTH, True, "nodes_last", YEAR, everything(120), NEVER) if p.level == 1]
    assert [p.members["lord"] for p in majors[:10]] == ["sun", "venus", "mercury", "moon", "saturn", "jupiter", "mars", "north_node", "south_node", "sun"]
    assert majors[9].start_jd == pytest.approx(BIRTH + 75 * YEAR)
    assert majors[2].start_jd == pytest.approx(BIRTH + 18 * YEAR) and majors[2].end_jd == pytest.approx(BIRTH + 31 * YEAR)


@pytest.mark.parametrize(
    ("order", "lords"),
    [
        ("nodes_last", ["moon", "saturn", "jupiter", "mars", "sun", "venus", "mercury", "north_node", "south_node"]),
        ("nodes_after_mars", ["moon", "saturn", "jupiter", "mars", "north_node", "south_node", "sun", "venus", "mercury"]),
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


# --- the query -----------------------------------------------------------------------------


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
    (GENERATOR.randrange(12), GENERATOR.randrange(12), GENERATOR.uniform(0, 80 * YEAR), GENERATOR.uniform(30, 20 * YEAR))
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
            parents = [p for p in found if p.level == child.level - 1 and p.start_jd <= child.start_jd + 1e-9 and child.end_jd <= p.end_jd + 1e-9]
            assert len(parents) == 1, (name, child)


@pytest.mark.parametrize(("sign", "fortune", "offset", "length"), CASES[:10])
def test_an_at_query_agrees_with_the_range_query_around_it(sign, fortune, offset, length):
    instant = BIRTH + offset + length / 3
    query = TimeQuery(start_jd=BIRTH + offset, end_jd=BIRTH + offset + length)
    for (name, _, ranged), (_, _, pointed) in zip(techniques(sign, fortune, query), techniques(sign, fortune, TimeQuery(at_jd=instant))):
        holding = [(p.level, p.members) for p in ranged if p.start_jd <= instant < p.end_jd]
        assert sorted(holding, key=lambda x: x[0]) == sorted([(p.level, p.members) for p in pointed], key=lambda x: x[0]), name


# --- the natal points a request names --------------------------------------------------------


@pytest.mark.parametrize("bodies", [
    ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node", "lilith", "chiron"),
    ("mars", "saturn"), ("moon", "sun"), ("sun", "venus", "moon"), ("moon",), (),
])
@pytest.mark.parametrize("place", [Observer(51.5, -0.1), None])
def test_the_points_known_from_the_request_are_the_points_its_natal_chart_holds(bodies, place):
    # The gateway refuses a starting point from these names before anything is cast; the
    # time-lords service then reads that point's longitude from the chart.
    chart = natal_points(Moment.from_jd_ut1(BIRTH), place, bodies, lots=True)
    assert point_names(bodies, place=place is not None, lots=True) == tuple(chart.longitudes)
