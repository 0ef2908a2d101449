"""kernel/void_of_course.py: the void-of-course snapshot, rule by rule (interface.md, Void-of-course
result), and against a brute-force walk of the Moon through the rest of its sign."""

from __future__ import annotations

import pytest

from kernel.aspects import ASPECT_TYPES, MAJOR_SEVEN
from kernel.positions import CalcFlags, compute_positions
from kernel.timescale import Moment
from kernel.void_of_course import void_of_course

PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]
# Moments spread over a few lunar months, so the Moon sits at every stage of its signs.
MOMENTS = [Moment.from_jd_ut1(2460310.5 + 3.37 * i) for i in range(16)]

# The brute-force walk: the Moon stepped along its sign 0.002° at a time (about 10 s of its
# motion), the other bodies fixed, a contact perfected where separation minus the aspect
# angle changes sign. Its answer is good to a step; the analytic one must agree to it.
WALK_STEP_DEG = 0.002


def separation(a: float, b: float) -> float:
    arc = abs(a - b) % 360.0
    return 360.0 - arc if arc > 180.0 else arc


def walk(moon: float, others: dict[str, float], aspects) -> tuple[str, str, float] | None:
    """Return (body, aspect, Moon's longitude) of the last contact met walking the Moon to its sign's end."""
    end = (int(moon // 30.0) + 1) * 30.0
    last = None
    previous = {
        (body, aspect): separation(moon, lon) - ASPECT_TYPES[aspect].angle_deg
        for body, lon in others.items()
        for aspect in aspects
    }
    for key, value in previous.items():
        if value == 0.0:
            last = (*key, moon)
    position = moon
    while position < end - 1e-12:
        position = min(position + WALK_STEP_DEG, end - 1e-12)
        for (body, aspect), before in previous.items():
            now = separation(position, others[body]) - ASPECT_TYPES[aspect].angle_deg
            # An exact conjunction or opposition touches the aspect without crossing it.
            touches = aspect in ("conjunction", "opposition") and abs(now) < WALK_STEP_DEG and abs(before) >= abs(now)
            if (before < 0.0) != (now < 0.0) or now == 0.0 or touches:
                last = (body, aspect, position)
            previous[(body, aspect)] = now
    return last


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: f"jd{m.jd_ut1:.2f}")
def test_the_last_aspect_is_the_last_contact_a_brute_force_walk_of_the_moon_meets(moment):
    records = compute_positions(moment, PLANETS, CalcFlags()).records
    longitudes = {r.body: r.longitude for r in records}
    moon = longitudes.pop("moon")
    found = void_of_course(moon, list(longitudes.items()), MAJOR_SEVEN)
    expected = walk(moon, longitudes, MAJOR_SEVEN)
    if expected is None:
        assert found.is_void and found.last_aspect is None
        return
    assert not found.is_void
    assert (found.last_aspect.body_b, found.last_aspect.aspect) == expected[:2]
    assert found.next_sign_boundary == pytest.approx((int(moon // 30) + 1) * 30.0 % 360.0)
    assert found.degrees_until_sign_change == pytest.approx((int(moon // 30) + 1) * 30.0 - moon)


def test_the_last_aspect_is_reported_at_perfection_applying_with_orb_zero():
    found = void_of_course(10.0, [("saturn", 70.0)], ["sextile"])  # exact now: 70° - 60° = 10°
    assert found.last_aspect.orb_deg == 0.0 and found.last_aspect.applying is True
    assert found.last_aspect.body_a == "moon" and found.last_aspect.separation_deg == 60.0


def test_a_contact_exact_now_keeps_the_moon_from_being_void_but_one_at_the_boundary_does_not():
    assert not void_of_course(10.0, [("mars", 10.0)], ["conjunction"]).is_void
    assert void_of_course(10.0, [("mars", 30.0)], ["conjunction"]).is_void  # perfected in Taurus, not Aries
    assert void_of_course(10.0, [("mars", 5.0)], ["conjunction"]).is_void  # behind the Moon: separating


def test_only_the_aspects_asked_for_count():
    others = [("venus", 100.0)]  # a square from 10°, a trine from 340° (behind)
    assert not void_of_course(10.0, others, ["square"]).is_void
    assert void_of_course(10.0, others, ["trine", "sextile"]).is_void


def test_the_orb_is_reported_as_the_aspects_max_orb_and_decides_nothing():
    tight = void_of_course(10.0, [("venus", 100.0)], ["square"], orb_deg=0.5)
    default = void_of_course(10.0, [("venus", 100.0)], ["square"])
    assert (tight.last_aspect.max_orb_deg, default.last_aspect.max_orb_deg) == (
        0.5,
        ASPECT_TYPES["square"].default_orb_deg,
    )
    assert tight.is_void == default.is_void


def test_the_last_of_several_contacts_wins():
    found = void_of_course(2.0, [("mars", 5.0), ("venus", 95.0), ("jupiter", 280.0)], ["conjunction", "square"])
    # mars conjunct at 5°, venus square at 5°, jupiter square at 10°: jupiter is the last.
    assert (found.last_aspect.body_b, found.last_aspect.aspect) == ("jupiter", "square")


def test_the_walked_moments_include_void_and_not_void_moons():
    answers = set()
    for moment in MOMENTS:
        longitudes = {r.body: r.longitude for r in compute_positions(moment, PLANETS, CalcFlags()).records}
        answers.add(void_of_course(longitudes.pop("moon"), list(longitudes.items()), MAJOR_SEVEN).is_void)
    assert answers == {True, False}, "the brute-force comparison covers both answers"
