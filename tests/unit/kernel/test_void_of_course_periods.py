"""Void-of-course periods (kernel/void_of_course_periods.py) against a brute-force walk
of the Moon at one-minute steps, every body moving."""

from __future__ import annotations

import numpy as np
import pytest

from kernel import bodies as body_table
from kernel import engine
from kernel.crossings import GEOCENTRIC
from kernel.deadline import Deadline
from kernel.positions import ecliptic_longitude_flags
from kernel.timescale import Moment
from kernel.void_of_course import contact_angles
from kernel.void_of_course_periods import void_periods

NEVER = Deadline.never()
MINUTE_DAYS = 1.0 / 1440.0
# The walk finds each contact and ingress within the minute that brackets it: an instant of
# ours lies within one step of the walk's (a millisecond's slack for rounding).
WALK_TOLERANCE_DAYS = MINUTE_DAYS + 1e-8
OTHERS = ["sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]
MAJOR_SEVEN = ["conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semi_sextile"]


def walked_periods(start_jd: float, end_jd: float, others: list[str], aspects: list[str]):
    """Return (start, end, sign, last contact's body or None) of each whole sign passage of the
    Moon in the walk, from one-minute samples: a contact or ingress is the first minute at or
    past it."""
    flags = ecliptic_longitude_flags(GEOCENTRIC)
    jds = np.arange(start_jd, end_jd, MINUTE_DAYS)

    def walk(body: str) -> np.ndarray:
        number = body_table.engine_number(body)
        return np.array([engine.calc_body(jd, number, flags).values[0] for jd in jds])

    moon = walk("moon")
    signs = (moon // 30.0).astype(int) % 12
    ingresses = [(jds[i + 1], int(signs[i + 1])) for i in np.flatnonzero(signs[1:] != signs[:-1])]
    contacts = []
    for body in others:
        elongation = moon - walk(body)
        for _aspect, angle in contact_angles(aspects):
            offsets = (elongation - angle + 180.0) % 360.0 - 180.0
            for i in np.flatnonzero((offsets[:-1] < 0.0) & (offsets[1:] >= 0.0) & (offsets[1:] - offsets[:-1] < 180.0)):
                contacts.append((jds[i + 1], body))
    periods = []
    for (entered, sign), (left, _) in zip(ingresses, ingresses[1:]):
        inside = [c for c in contacts if entered <= c[0] < left]
        last = max(inside, default=None)
        periods.append((entered if last is None else last[0], left, sign, None if last is None else last[1]))
    return periods


@pytest.mark.parametrize(("start", "others", "aspects"), [
    ("2024-03-01T00:00:00Z", OTHERS, MAJOR_SEVEN),
    ("1987-08-10T00:00:00Z", OTHERS + ["mean_node", "chiron"], ["conjunction", "opposition", "trine", "square", "sextile"]),
])
def test_every_period_of_a_month_matches_a_walk_of_the_moon_at_one_minute_steps(start, others, aspects):
    start_jd = Moment.from_iso(start).jd_ut1
    end_jd = start_jd + 30.0
    walked = walked_periods(start_jd, end_jd, others, aspects)
    # Ours for the whole passages the walk saw (the first and last passages it cut are left out).
    found = [p for p in void_periods(start_jd, end_jd, others, aspects, NEVER) if walked[0][1] - 1e-3 <= p.end_jd <= walked[-1][1] + 1e-3]
    assert len(found) == len(walked) > 10
    for period, (walk_start, walk_end, sign, body) in zip(found, walked):
        assert period.sign == sign
        assert 0.0 <= walk_end - period.end_jd < WALK_TOLERANCE_DAYS
        assert 0.0 <= walk_start - period.start_jd < WALK_TOLERANCE_DAYS
        assert (period.last_aspect.body_b if period.last_aspect else None) == body


def test_a_sign_without_a_contact_is_void_from_the_ingress_to_the_next():
    start_jd = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    # With the conjunction to the Sun alone, the Moon perfects one contact a month: every other
    # sign it crosses is void throughout, its period beginning at the ingress into it.
    periods = void_periods(start_jd, start_jd + 30.0, ["sun"], ["conjunction"], NEVER)
    whole = [p for p in periods if p.last_aspect is None]
    assert len(whole) >= 10
    for before, after in zip(periods, periods[1:]):
        assert after.start_jd >= before.end_jd
        if after.last_aspect is None:
            assert after.start_jd == before.end_jd
