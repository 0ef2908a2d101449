"""kernel/profections.py: annual and monthly profections against the spec's arithmetic
(interface.md, /v1/profections: one sign a year, one more a month, whole-sign houses, the
traditional rulers), mean years of equal months, and solar years checked against the Sun's
own longitude."""

from __future__ import annotations

import pytest

from kernel.positions import CalcFlags, compute_positions
from kernel.profections import mean_boundaries, profected, profections, solar_boundaries
from kernel.time_lord_periods import flatten
from kernel.timescale import Moment
from kernel.zodiac import SIGN_KEYS
from tests.unit.kernel.time_lord_births import (
    ARIES,
    BIRTH,
    CANCER,
    CAPRICORN,
    GEMINI,
    LEO,
    LIBRA,
    NEVER,
    PISCES,
    TAURUS,
    YEAR,
    at,
    everything,
)


def test_at_age_n_the_profected_sign_is_n_signs_on_and_its_ruler_is_the_lord():
    years = [p for p in profections(LIBRA, BIRTH, mean_boundaries(BIRTH, YEAR), False, everything(30), NEVER)]
    assert [(p.members["age"], p.members["house"], p.members["sign"], p.members["lord"]) for p in years[:3]] == [
        (0, 1, "libra", "venus"),
        (1, 2, "scorpio", "mars"),
        (2, 3, "sagittarius", "jupiter"),
    ]
    assert years[12].members["house"] == 1 and years[12].members["sign"] == "libra"  # the 13th year starts over
    assert years[29].members["sign"] == SIGN_KEYS[(LIBRA + 29) % 12]


def test_each_month_advances_one_sign_further_in_equal_twelfths_of_the_mean_year():
    found = flatten(
        profections(ARIES, BIRTH, mean_boundaries(BIRTH, YEAR), True, at(5 * YEAR + 100), NEVER), at(5 * YEAR + 100)
    )
    year, month = found
    assert (year.level, month.level) == (1, 2)
    assert month.members["month"] == int(100 // (YEAR / 12)) + 1
    assert month.members["sign"] == SIGN_KEYS[(ARIES + 5 + month.members["month"] - 1) % 12]
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


# Rulers by hand (Ptolemy, Tetrabiblos I.17), Aries first.
RULERS = [
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "saturn",
    "jupiter",
]


@pytest.mark.parametrize(
    ("from_sign", "age", "month", "house", "sign"),
    [
        (ARIES, 0, None, 1, ARIES),
        (ARIES, 13, None, 2, TAURUS),
        (ARIES, 13, 3, 4, CANCER),
        (PISCES, 1, None, 2, ARIES),
        (CAPRICORN, 30, 12, 6, GEMINI),
        (LEO, 11, 12, 11, GEMINI),
    ],
)
def test_a_month_is_one_sign_past_the_previous_counting_from_the_year_sign(from_sign, age, month, house, sign):
    # Counted by hand: the year at age n is n signs on; month m adds m - 1 more.
    members = profected(from_sign, age, month)
    assert (members["house"], members["sign"], members["lord"]) == (house, SIGN_KEYS[sign], RULERS[sign])
    assert members["age"] == age and members.get("month") == month


def sun_longitude(jd_ut1: float) -> float:
    return compute_positions(Moment.from_jd_ut1(jd_ut1), ["sun"], CalcFlags()).records[0].longitude


def test_a_solar_year_and_each_of_its_months_begin_when_the_sun_reaches_its_natal_longitude_plus_30_per_month():
    natal = sun_longitude(BIRTH)
    solar = solar_boundaries(BIRTH, natal, None, NEVER)
    for age in (3, 27):
        for month in range(1, 13):
            expected = (natal + 30.0 * (month - 1)) % 360.0
            # The search's 1 ms is 0.04" of the Sun's motion; 1e-4 deg (0.36") leaves room.
            assert abs((sun_longitude(solar(age, month)) - expected + 180.0) % 360.0 - 180.0) < 1e-4, (age, month)
        assert solar(age, 1) == pytest.approx(BIRTH + age * YEAR, abs=1.5)
