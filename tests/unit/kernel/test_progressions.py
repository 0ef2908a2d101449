"""Secondary progressions (decisions.md, /v1/progressed): a day for a year."""

from __future__ import annotations

import pytest

from kernel.errors import InvalidProgression
from kernel.progressions import TROPICAL_YEAR_DAYS, progressed_moment
from kernel.timescale import Moment

NATAL = Moment.from_iso("1970-05-10T06:00:00Z")


def test_each_year_lived_moves_the_progressed_moment_one_day():
    thirty_years = NATAL.plus_days(30 * 365.2422)
    assert progressed_moment(NATAL, thirty_years).jd_ut1 == pytest.approx(NATAL.jd_ut1 + 30, abs=1e-9)


def test_the_year_length_is_the_tropical_year_unless_given():
    assert TROPICAL_YEAR_DAYS == 365.2422
    ten_julian_years = NATAL.plus_days(3652.5)
    assert progressed_moment(NATAL, ten_julian_years, 365.25).jd_ut1 == pytest.approx(NATAL.jd_ut1 + 10, abs=1e-9)


def test_the_natal_moment_itself_progresses_to_itself():
    assert progressed_moment(NATAL, NATAL).jd_ut1 == NATAL.jd_ut1


def test_a_target_before_birth_is_invalid_progression():
    with pytest.raises(InvalidProgression):
        progressed_moment(NATAL, NATAL.plus_days(-1))
