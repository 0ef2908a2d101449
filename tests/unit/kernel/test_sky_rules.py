"""Void of course, solar proximity and planetary hours, rule by rule (interface.md, Void-of-course
result; decisions.md, /v1/solar-proximity and /v1/planetary-hours)."""

from __future__ import annotations

import pytest

from kernel.aspects import ASPECT_TYPES, MAJOR_SEVEN
from kernel.errors import PolarDayOrNight
from kernel.planetary_hours import CHALDEAN_ORDER, planetary_day
from kernel.positions import CalcFlags, compute_positions
from kernel.solar_proximity import solar_proximity, status_at
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
    previous = {(body, aspect): separation(moon, lon) - ASPECT_TYPES[aspect].angle_deg for body, lon in others.items() for aspect in aspects}
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
    assert (tight.last_aspect.max_orb_deg, default.last_aspect.max_orb_deg) == (0.5, ASPECT_TYPES["square"].default_orb_deg)
    assert tight.is_void == default.is_void


def test_the_last_of_several_contacts_wins():
    found = void_of_course(2.0, [("mars", 5.0), ("venus", 95.0), ("jupiter", 280.0)], ["conjunction", "square"])
    # mars conjunct at 5°, venus square at 5°, jupiter square at 10°: jupiter is the last.
    assert (found.last_aspect.body_b, found.last_aspect.aspect) == ("jupiter", "square")


@pytest.mark.parametrize(
    ("separation_deg", "status"),
    [(0.0, "cazimi"), (0.28, "cazimi"), (17.0 / 60.0, "combust"), (7.99, "combust"), (8.0, "under_the_beams"), (16.99, "under_the_beams"), (17.0, "free"), (180.0, "free")],
)
def test_solar_proximity_status_follows_the_thresholds_of_decisions(separation_deg, status):
    assert status_at(separation_deg) == status


def test_solar_proximity_leaves_the_sun_out_and_measures_the_shorter_arc():
    records = solar_proximity(355.0, [("sun", 355.0), ("mercury", 3.0), ("mars", 175.0)])
    assert [(r.body, r.separation, r.status) for r in records] == [("mercury", pytest.approx(8.0), "under_the_beams"), ("mars", pytest.approx(180.0), "free")]


LONDON = (51.5, -0.13)


def test_the_planetary_day_runs_from_sunrise_to_sunrise_and_holds_the_moment():
    moment = Moment.from_iso("2024-03-20T03:00:00Z")  # before London's sunrise: the day began on the 19th
    day = planetary_day(moment, *LONDON)
    assert day.sunrise_jd <= moment.jd_ut1 < day.next_sunrise_jd
    assert day.sunrise_jd < day.sunset_jd < day.next_sunrise_jd
    assert day.day_ruler == "mars"  # Tuesday 19 March 2024
    assert day.hours[day.current_hour - 1].start_jd <= moment.jd_ut1 < day.hours[day.current_hour - 1].end_jd


def test_day_hours_are_twelfths_of_the_daylight_and_night_hours_twelfths_of_the_night():
    day = planetary_day(Moment.from_iso("2024-06-21T12:00:00Z"), *LONDON)
    day_hour, night_hour = (day.sunset_jd - day.sunrise_jd) / 12.0, (day.next_sunrise_jd - day.sunset_jd) / 12.0
    for hour in day.hours:
        assert hour.end_jd - hour.start_jd == pytest.approx(day_hour if hour.is_day else night_hour, abs=1e-9)
        assert hour.is_day == (hour.number <= 12)
    assert day.hours[0].start_jd == day.sunrise_jd and day.hours[11].end_jd == pytest.approx(day.sunset_jd)
    assert day.hours[12].start_jd == pytest.approx(day.sunset_jd) and day.hours[23].end_jd == day.next_sunrise_jd
    assert all(a.end_jd == b.start_jd for a, b in zip(day.hours, day.hours[1:]))


@pytest.mark.parametrize(
    ("date", "ruler"),
    [("2024-06-16", "sun"), ("2024-06-17", "moon"), ("2024-06-18", "mars"), ("2024-06-19", "mercury"), ("2024-06-20", "jupiter"), ("2024-06-21", "venus"), ("2024-06-22", "saturn")],
)
def test_the_first_hour_is_ruled_by_the_days_ruler_and_the_rest_follow_the_chaldean_order(date, ruler):
    day = planetary_day(Moment.from_iso(f"{date}T12:00:00Z"), *LONDON)
    assert day.day_ruler == ruler and day.hours[0].ruler == ruler
    start = CHALDEAN_ORDER.index(ruler)
    assert [h.ruler for h in day.hours] == [CHALDEAN_ORDER[(start + i) % 7] for i in range(24)]


def test_the_weekday_is_the_local_one_far_east_and_far_west():
    # Sunday 16 June 2024 dawns in Kiribati (lon +172) while it is still Saturday in UTC.
    assert planetary_day(Moment.from_iso("2024-06-15T20:00:00Z"), 1.4, 172.9).day_ruler == "sun"
    assert planetary_day(Moment.from_iso("2024-06-16T20:00:00Z"), 21.3, -157.8).day_ruler == "sun"  # Honolulu, Sunday afternoon


@pytest.mark.parametrize("when", ["2024-06-21T12:00:00Z", "2024-12-21T12:00:00Z"], ids=["polar-day", "polar-night"])
def test_where_the_sun_does_not_rise_or_set_there_are_no_planetary_hours(when):
    with pytest.raises(PolarDayOrNight) as raised:
        planetary_day(Moment.from_iso(when), 78.2, 15.6)  # Longyearbyen
    assert raised.value.http_status == 400


def test_the_walked_moments_include_void_and_not_void_moons():
    answers = set()
    for moment in MOMENTS:
        longitudes = {r.body: r.longitude for r in compute_positions(moment, PLANETS, CalcFlags()).records}
        answers.add(void_of_course(longitudes.pop("moon"), list(longitudes.items()), MAJOR_SEVEN).is_void)
    assert answers == {True, False}, "the brute-force comparison covers both answers"
