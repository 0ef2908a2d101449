"""Void-of-course periods (kernel/void_of_course_periods.py) against a brute-force walk
of the Moon at one-minute steps, every body moving."""

from __future__ import annotations

import numpy as np
import pytest

from kernel import bodies as body_table
from kernel import engine
from kernel.crossings import GEOCENTRIC, elongation_offset, longitude_offset
from kernel.deadline import Deadline
from kernel.positions import ecliptic_longitude_flags
from kernel.search import refine_root
from kernel.timescale import Moment
from kernel.void_of_course import contact_angles
from kernel.void_of_course_periods import STEP_DAYS, searched_span, void_periods

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


@pytest.mark.parametrize(
    ("start", "others", "aspects"),
    [
        ("2024-03-01T00:00:00Z", OTHERS, MAJOR_SEVEN),
        (
            "1987-08-10T00:00:00Z",
            OTHERS + ["mean_node", "chiron"],
            ["conjunction", "opposition", "trine", "square", "sextile"],
        ),
    ],
)
def test_every_period_of_a_month_matches_a_walk_of_the_moon_at_one_minute_steps(start, others, aspects):
    start_jd = Moment.from_iso(start).jd_ut1
    end_jd = start_jd + 30.0
    walked = walked_periods(start_jd, end_jd, others, aspects)
    # Ours for the whole passages the walk saw (the first and last passages it cut are left out).
    found = [
        p
        for p in void_periods(start_jd, end_jd, others, aspects, NEVER)
        if walked[0][1] - 1e-3 <= p.end_jd <= walked[-1][1] + 1e-3
    ]
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


def every_contact_refined(start_jd: float, end_jd: float, others: list[str], aspects: list[str]):
    """Return (start, end, sign, last contact's body and type or None) of the periods overlapping
    [start_jd, end_jd] the plain way: each body sampled over every date in turn on the search's
    grid, every bracketed contact and ingress refined, the last contact of each passage taken
    by (instant, earlier body, earlier type)."""
    low, high = searched_span(start_jd, end_jd)
    jds = np.append(np.arange(low, high, STEP_DAYS), high)
    flags = ecliptic_longitude_flags(GEOCENTRIC)

    def sampled(body: str) -> np.ndarray:
        number = body_table.engine_number(body)
        return np.array([engine.calc_body(jd, number, flags).values[0] for jd in jds])

    def refined(offset, i: int, before: float, after: float) -> float:
        return refine_root(offset, jds[i], jds[i + 1], before, after) if after > 0.0 else float(jds[i + 1])

    moon = sampled("moon")
    signs = (moon // 30.0).astype(int) % 12
    ingresses = []
    for i in np.flatnonzero(signs[1:] != signs[:-1]):
        offset = longitude_offset("moon", 30.0 * signs[i + 1])
        ingresses.append((refined(offset, i, offset(jds[i])[0], offset(jds[i + 1])[0]), int(signs[i + 1])))
    contacts = []
    for body_index, body in enumerate(others):
        elongation = moon - sampled(body)
        for angle_index, (aspect, angle) in enumerate(contact_angles(aspects)):
            offsets = (elongation - angle + 180.0) % 360.0 - 180.0
            for i in np.flatnonzero((offsets[:-1] < 0.0) & (offsets[1:] >= 0.0) & (offsets[1:] - offsets[:-1] < 180.0)):
                jd = refined(elongation_offset("moon", body, angle), i, float(offsets[i]), float(offsets[i + 1]))
                contacts.append(((jd, -body_index, -angle_index), body, aspect))
    periods = []
    for (entered, sign), (left, _) in zip(ingresses, ingresses[1:]):
        last = max((c for c in contacts if entered <= c[0][0] < left), default=None)
        period = (entered if last is None else last[0][0], left, sign, None if last is None else last[1:])
        if period[0] <= end_jd and period[1] >= start_jd:
            periods.append(period)
    return periods


@pytest.mark.parametrize(
    ("start", "months", "others", "aspects"),
    [
        ("2024-01-01T00:00:00Z", 12, OTHERS + ["mean_node"], MAJOR_SEVEN),
        ("1931-07-15T00:00:00Z", 6, OTHERS, ["conjunction", "opposition", "trine", "square", "sextile"]),
        ("2077-02-01T00:00:00Z", 4, ["sun", "mars", "chiron", "true_node"], ["conjunction", "square", "quincunx"]),
    ],
)
def test_the_periods_are_those_of_every_contact_refined_to_the_same_instants(start, months, others, aspects):
    start_jd = Moment.from_iso(start).jd_ut1
    end_jd = start_jd + 30.5 * months
    found = [
        (p.start_jd, p.end_jd, p.sign, None if p.last_aspect is None else (p.last_aspect.body_b, p.last_aspect.aspect))
        for p in void_periods(start_jd, end_jd, others, aspects, NEVER)
    ]
    assert len(found) >= 13 * months
    assert found == every_contact_refined(start_jd, end_jd, others, aspects)
