"""Lunations (kernel/lunations.py) against Skyfield's almanac (DE421): the Moon's phases
are where its ecliptic longitude of date leads the Sun's by 0, 90, 180 and 270 degrees."""

from __future__ import annotations

import pytest
from skyfield import almanac

from kernel.crossings import elongation_offset
from kernel.deadline import Deadline
from kernel.lunations import PHASE_ANGLES_DEG, STEP_DAYS, find_lunations
from kernel.search import find_roots
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

NEVER = Deadline.never()
SECONDS_PER_DAY = 86400.0
# The bound. The elongation grows about 12° a day, a degree in two hours: the two
# ephemerides (Swiss Ephemeris on DE431, DE421) agree on the Moon to a few milliarcseconds,
# well under a second of its motion, and both times are UT1 from the same Delta T model to a
# second or so in this century.
PHASE_TIME_TOLERANCE_S = 30.0
QUARTERS = ("new_moon", "first_quarter", "full_moon", "last_quarter")


@pytest.mark.parametrize(("start_year", "end_year"), [(1950, 1960), (2000, 2010), (2024, 2034), (2040, 2050)])
def test_every_quarter_of_a_decade_matches_skyfields_moon_phases_within_30_seconds(start_year, end_year):
    ts = timescale()
    times, quarters = almanac.find_discrete(
        ts.utc(start_year, 1, 1), ts.utc(end_year, 1, 1), almanac.moon_phases(de421())
    )
    start, end = (Moment.from_iso(f"{year}-01-01T00:00:00Z").jd_ut1 for year in (start_year, end_year))
    found = find_lunations(start, end, list(QUARTERS), NEVER)
    assert [lunation.phase for lunation in found] == [QUARTERS[q] for q in quarters]
    errors_s = [abs(lunation.jd - reference.ut1) * SECONDS_PER_DAY for lunation, reference in zip(found, times)]
    assert max(errors_s) < PHASE_TIME_TOLERANCE_S, max(errors_s)


def test_the_eight_phases_come_in_their_cycles_order_each_once_a_month():
    start = Moment.from_iso("2024-01-11T12:00:00Z").jd_ut1  # just after a new Moon
    found = find_lunations(
        start,
        start + 29.5,
        ["balsamic", "new_moon", "crescent", "first_quarter", "gibbous", "full_moon", "disseminating", "last_quarter"],
        NEVER,
    )
    assert [lunation.elongation_deg for lunation in found] == [45, 90, 135, 180, 225, 270, 315, 0]


@pytest.mark.parametrize(("start", "days"), [("2024-01-01T00:00:00Z", 366.0), ("1911-05-17T06:00:00Z", 800.0)])
def test_each_phase_is_the_instant_a_search_for_that_phase_alone_finds(start, days):
    start_jd = Moment.from_iso(start).jd_ut1
    found = find_lunations(start_jd, start_jd + days, list(PHASE_ANGLES_DEG), NEVER)
    alone = sorted(
        (root.jd, phase)
        for phase, angle in PHASE_ANGLES_DEG.items()
        for root in find_roots(elongation_offset("moon", "sun", angle), start_jd, start_jd + days, STEP_DAYS, NEVER)
        if root.rising
    )
    assert [(lunation.jd, lunation.phase) for lunation in found] == alone
