"""The searches over time: the generic root search, crossings (ingresses and returns) against
Skyfield (DE421), eclipses against NASA's canon, heliacal events against their definition."""

from __future__ import annotations

import math

import pytest
from skyfield import almanac
from skyfield.framelib import ecliptic_frame
from skyfield.searchlib import find_discrete

from kernel import engine
from kernel.ayanamshas import parse_ayanamsha
from kernel.crossings import crossings, first_crossings, longitude_offset, sign_entries
from kernel.deadline import Deadline
from kernel.eclipses import lunar_eclipses, solar_eclipses
from kernel.errors import BodyNotEligible, InvalidHeliacalEvent, OutOfRange
from kernel.heliacal import Atmosphere, Eyes, check_event, next_heliacal_event
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.search import find_offset_roots, find_roots, refine_root
from kernel.timescale import JD_UT1_MAX, Moment
from tests.unit.kernel import nasa_eclipses
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

NEVER = Deadline.never()
SECONDS_PER_DAY = 86400.0


# --- the generic search -------------------------------------------------------------------


def test_two_roots_closer_than_a_step_around_a_turning_point_are_both_found():
    # f(t) = (t - 5)^2 - 1e-4: two roots 0.02 days apart, inside one 2-day step.
    found = find_roots(lambda t: ((t - 5.0) ** 2 - 1e-4, 2.0 * (t - 5.0)), 0.0, 10.0, 2.0, NEVER)
    assert [round(r.jd, 6) for r in found] == [4.99, 5.01]
    assert [r.rising for r in found] == [False, True]


def test_a_newton_step_finer_than_a_julian_days_resolution_ends_the_refinement():
    # Near 2024 a Julian Day's last bit is 2^-31 day (40 us): the step after a near-exact
    # guess rounds back onto the guess, an end of the bracket, and must end the search there
    # rather than bisect the bracket on (it took 27 more calls and landed up to 1 ms off).
    # The curve's root lies between two Julian Days a double can hold, as an ephemeris' does.
    near, calls = 2460389.6291234, []
    root = near - 3e-11 / 0.9856

    def curve(t: float) -> tuple[float, float]:  # a longitude's distance, speeding up
        calls.append(t)
        days = t - near
        return days * (0.9856 + 0.01 * days) + 3e-11, 0.9856 + 0.02 * days

    (a, fa), (b, fb) = ((t, curve(t)[0]) for t in (near - 0.7, near + 0.3))
    calls.clear()
    found = refine_root(curve, a, b, fa, fb)
    assert abs(found - root) <= 2.0**-31
    assert len(calls) <= 3


# A converged Newton step is at most 1 ms and the engine's speed is accurate to a few per cent,
# so a refined crossing lies within a tenth of that of the crossing bisected to the last bit;
# 0.25 ms leaves room, and a search that bisected on from a rounded step missed it by up to 1 ms.
REFINED_WITHIN_DAYS = 0.25 / 86_400_000.0


@pytest.mark.parametrize(("body", "target"), [("sun", 0.0), ("moon", 123.5), ("mercury", 27.0), ("jupiter", 45.0), ("true_node", 10.0)])
def test_a_refined_crossing_lies_within_a_quarter_millisecond_of_the_bisected_one(body, target):
    offset = longitude_offset(body, target)
    for crossing in crossings(body, target, Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1, 3, NEVER):
        low, high = crossing.jd - 1e-6, crossing.jd + 1e-6
        rising = offset(low)[0] < 0.0
        while (middle := 0.5 * (low + high)) not in (low, high):
            if (offset(middle)[0] < 0.0) == rising:
                low = middle
            else:
                high = middle
        assert abs(crossing.jd - middle) <= REFINED_WITHIN_DAYS, (body, crossing)


def test_a_wrapping_angle_is_not_a_root():
    # An angle offset rising 40° a day: zero at t = 0.25, then a wrap from +170 to -190 at
    # t = 4.5 that is no root; the next zero would be at t = 9.25, past the end.
    found = find_roots(lambda t: ((40.0 * t + 180.0) % 360.0 - 180.0 - 10.0, 40.0), 0.0, 8.0, 1.0, NEVER)
    assert [round(r.jd, 6) for r in found] == [0.25] and found[0].rising


# --- crossings against Skyfield --------------------------------------------------------------

# Swiss Ephemeris (DE431) and DE421 agree on the Sun's longitude to a few milliarcseconds,
# which the Sun crosses in well under a second; the bound is 10 s.
CROSSING_TOLERANCE_S = 10.0


@pytest.mark.parametrize("year", [1950, 2000, 2024, 2040])
def test_the_seasons_match_skyfields_equinoxes_and_solstices(year):
    ts = timescale()
    times, kinds = almanac.find_discrete(ts.utc(year, 1, 1), ts.utc(year, 12, 31), almanac.seasons(de421()))
    for reference, kind in zip(times, kinds):
        (found,) = crossings("sun", 90.0 * kind, reference.ut1 - 3.0, 1, NEVER)
        assert abs(found.jd - reference.ut1) * SECONDS_PER_DAY < CROSSING_TOLERANCE_S
        assert found.direct


def skyfield_sign_ingresses(body: str, start_year: int, end_year: int):
    ts, ephemeris = timescale(), de421()
    earth, target = ephemeris["earth"], ephemeris[DE421_TARGETS[body]]

    def sign(t):
        _, lon, _ = earth.at(t).observe(target).apparent().frame_latlon(ecliptic_frame)
        return (lon.degrees // 30.0).astype(int)

    sign.step_days = 1.0
    return find_discrete(ts.utc(start_year, 1, 1), ts.utc(end_year, 1, 1), sign)


@pytest.mark.parametrize("body", ["mercury", "mars", "jupiter"])
def test_every_sign_ingress_retrograde_ones_included_matches_skyfield(body):
    times, signs = skyfield_sign_ingresses(body, 2024, 2027)
    assert len(times) >= 3
    previous = None
    for reference, new_sign in zip(times, signs):
        # The boundary crossed: the start of the new sign moving direct, its end moving retrograde.
        start = compute_positions(Moment.from_jd_ut1(reference.ut1 - 2.0), [body], CalcFlags()).records[0].longitude
        boundary = 30.0 * new_sign if (previous is None or (new_sign - previous) % 12 == 1) else 30.0 * ((new_sign + 1) % 12)
        (found,) = crossings(body, boundary, reference.ut1 - 1.0, 1, NEVER)
        assert abs(found.jd - reference.ut1) * SECONDS_PER_DAY < CROSSING_TOLERANCE_S, (body, reference.utc_iso(), start)
        previous = new_sign


@pytest.mark.parametrize("body", ["mercury", "mars"])
def test_an_ingress_into_a_sign_is_an_entry_matching_skyfields_sign_changes_into_it(body):
    # Skyfield (DE421) gives every change of sign; an entry into sign S is a change whose new
    # sign is S, direct when S follows the old sign, retrograde when it precedes it. The exits
    # (the other changes at S's boundaries) must not appear.
    times, signs = skyfield_sign_ingresses(body, 2024, 2027)
    start = times[0].ut1 - 1.0
    for sign in sorted(set(int(s) for s in signs)):
        expected = []
        for i, (reference, new_sign) in enumerate(zip(times, signs)):
            if new_sign == sign:
                old_sign = signs[i - 1] if i else (sign - 1) % 12
                expected.append((reference.ut1, (new_sign - old_sign) % 12 == 1))
        found = sign_entries(body, 30.0 * sign, start, len(expected), NEVER)
        assert [c.direct for c in found] == [direct for _, direct in expected], (body, sign)
        for crossing, (reference_jd, _) in zip(found, expected):
            assert abs(crossing.jd - reference_jd) * SECONDS_PER_DAY < CROSSING_TOLERANCE_S
            assert crossing.target_deg == 30.0 * (sign if crossing.direct else (sign + 1) % 12)


# The rule: the body's longitude lies on either side of the target 1 ms before and after.
ONE_MS_DAYS = 1.0 / 86_400_000.0


@pytest.mark.parametrize(("body", "target", "flags"), [
    ("sun", 0.0, CalcFlags()), ("moon", 123.5, CalcFlags()), ("mercury", 27.0, CalcFlags()),
    ("moon", 200.0, CalcFlags(sidereal=parse_ayanamsha("lahiri"))), ("mars", 10.0, CalcFlags(heliocentric=True)),
])
def test_every_crossing_is_refined_to_1_ms(body, target, flags):
    found = crossings(body, target, Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1, 3, NEVER, flags=flags)
    offset = longitude_offset(body, target, flags)
    with engine.configured(sidereal_mode=flags.sidereal.id if flags.sidereal else None):
        for crossing in found:
            before, after = offset(crossing.jd - ONE_MS_DAYS)[0], offset(crossing.jd + ONE_MS_DAYS)[0]
            assert (before < 0.0 < after) if crossing.direct else (after < 0.0 < before)


def test_crossings_past_the_supported_dates_are_out_of_range_saying_how_many_lay_inside():
    # The Sun reaches 0° Aries once a year: from 2998-01-01 the equinoxes of 2998 and 2999 lie
    # inside the supported dates (they end on 3000-01-01), the third would not.
    start = Moment.from_iso("2998-01-01T00:00:00Z").jd_ut1
    assert all(c.jd < JD_UT1_MAX for c in crossings("sun", 0.0, start, 2, NEVER))
    with pytest.raises(OutOfRange) as caught:
        crossings("sun", 0.0, start, 3, NEVER)
    assert "Only 2 of the 3" in caught.value.message and caught.value.param == "count"


def test_an_asteroid_search_stops_at_the_end_of_its_files_with_out_of_range():
    # Ceres takes 4.6 years around the Sun: from 2990 not three returns to one longitude fit
    # before its files end (2999-12-31), and the engine is never asked past them.
    with pytest.raises(OutOfRange) as caught:
        crossings("ceres", 0.0, Moment.from_iso("2990-01-01T00:00:00Z").jd_ut1, 5, NEVER)
    assert "ceres" in caught.value.message and "2999-12-31" in caught.value.message
    with pytest.raises(OutOfRange) as caught:
        crossings("ceres", 0.0, Moment.from_iso("1100-01-01T00:00:00Z").jd_ut1, 1, NEVER, from_param="search_start")
    assert caught.value.param == "search_start"


def test_a_retrograde_loop_crosses_a_longitude_three_times_in_order():
    # Mercury stationed retrograde at 27°13' Aries on 1 April 2024 and direct at 15°58' Aries
    # on 25 April (published almanacs): 27° Aries is crossed before the first station, again
    # between the stations, and a third time after the second.
    found = crossings("mercury", 27.0, Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1, 3, NEVER)
    assert [c.direct for c in found] == [True, False, True]
    first_station, second_station = (Moment.from_iso(f"2024-04-{day}T00:00:00Z").jd_ut1 for day in ("01", "25"))
    assert found[0].jd < first_station < found[1].jd < second_station < found[2].jd


def test_a_backward_search_returns_the_latest_first():
    start = Moment.from_iso("2024-06-01T00:00:00Z").jd_ut1
    found = crossings("sun", 0.0, start, 2, NEVER, backward=True)
    assert found[0].jd > found[1].jd and found[0].jd < start
    assert abs(found[0].jd - Moment.from_iso("2024-03-20T03:06:00Z").jd_ut1) < 1.0 / 24


def test_a_sidereal_return_reaches_the_sidereal_longitude():
    lahiri = parse_ayanamsha("lahiri")
    (found,) = crossings("sun", 60.0, Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, 1, NEVER, flags=CalcFlags(sidereal=lahiri))
    record = compute_positions(Moment.from_jd_ut1(found.jd), ["sun"], CalcFlags(sidereal=lahiri)).records[0]
    assert abs(record.longitude - 60.0) < 1e-5


# --- eclipses against NASA's canon ---------------------------------------------------------

# Maxima within 30 s of the canon's (the bound): the two use different lunar
# ephemerides and limb corrections; Swiss Ephemeris's Delta T turns our UT into TD.
ECLIPSE_TOLERANCE_S = 30.0


def canon_jd_tt(date: str, clock: str) -> float:
    year, month, day = map(int, date.split("-"))
    hour, minute, second = map(int, clock.split(":"))
    return timescale().tt(year, month, day, hour, minute, second).tt


@pytest.mark.parametrize(("kind", "catalogue", "search"), [("solar", nasa_eclipses.SOLAR, solar_eclipses), ("lunar", nasa_eclipses.LUNAR, lunar_eclipses)])
def test_every_eclipse_of_2021_to_2032_has_the_canons_type_and_maximum(kind, catalogue, search):
    types = ["total", "annular", "partial", "annular_total"] if kind == "solar" else ["total", "partial", "penumbral"]
    found = search(Moment.from_iso("2021-01-01T00:00:00Z").jd_ut1, types, len(catalogue), NEVER)
    for eclipse, (date, clock, expected_type) in zip(found, catalogue):
        assert eclipse.eclipse_type == expected_type, date
        ours_tt = Moment.from_jd_ut1(eclipse.maximum).jd_tt
        assert abs(ours_tt - canon_jd_tt(date, clock)) * SECONDS_PER_DAY < ECLIPSE_TOLERANCE_S, date


def test_a_type_filter_and_a_backward_search_keep_to_the_canon():
    totals = solar_eclipses(Moment.from_iso("2033-01-01T00:00:00Z").jd_ut1, ["total"], 2, NEVER, backward=True)
    canon = [(d, c) for d, c, t in nasa_eclipses.SOLAR if t == "total"][-2:][::-1]
    assert [e.eclipse_type for e in totals] == ["total", "total"]
    for eclipse, (date, clock) in zip(totals, canon):
        assert abs(Moment.from_jd_ut1(eclipse.maximum).jd_tt - canon_jd_tt(date, clock)) * SECONDS_PER_DAY < ECLIPSE_TOLERANCE_S


def test_a_local_solar_eclipse_has_contacts_in_order_magnitude_and_obscuration():
    dallas = Observer(32.78, -96.8, 0.0)
    (eclipse,) = solar_eclipses(Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, ["total", "annular", "partial", "annular_total"], 1, NEVER, place=dallas)
    assert eclipse.eclipse_type == "total" and eclipse.magnitude > 1.0 and eclipse.obscuration == 1.0
    contacts = [eclipse.first_contact, eclipse.second_contact, eclipse.maximum, eclipse.third_contact, eclipse.fourth_contact]
    assert contacts == sorted(contacts)
    assert 3.5 * 60 < (eclipse.third_contact - eclipse.second_contact) * SECONDS_PER_DAY < 4.0 * 60  # about 3 min 50 s of totality in Dallas


def test_lunar_visibility_follows_the_moon_above_the_horizon():
    # The total lunar eclipse of 2025-09-07 (18:12 TD) was seen from Asia and Europe, not from the Americas.
    start = Moment.from_iso("2025-09-01T00:00:00Z").jd_ut1
    (delhi,) = lunar_eclipses(start, ["total"], 1, NEVER, place=Observer(28.6, 77.2, 0.0))
    (chicago,) = lunar_eclipses(start, ["total"], 1, NEVER, place=Observer(41.9, -87.6, 0.0))
    assert delhi.visible is True and chicago.visible is False


# --- heliacal events -------------------------------------------------------------------------


def test_heliacal_rules_refuse_acronychal_events_and_inferior_only_events_for_outer_planets():
    with pytest.raises(InvalidHeliacalEvent):
        check_event("mars", "acronychal_rising")
    with pytest.raises(BodyNotEligible):
        check_event("jupiter", "evening_first")
    with pytest.raises(BodyNotEligible):
        check_event("moon", "morning_first")
    check_event("venus", "morning_last")


def test_a_heliacal_rising_happens_at_dawn_with_the_planet_just_above_the_horizon():
    cairo = Observer(30.0, 31.2, 0.0)
    event = next_heliacal_event(Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, "venus", "morning_first", cairo, Atmosphere(), Eyes())
    assert event.sun_altitude < 0.0 < event.object_altitude
    assert 5.0 < event.visibility_arc_deg < 15.0
    # Venus passed inferior conjunction on 2025-03-23: its heliacal rising follows within days.
    assert Moment.from_iso("2025-03-23T00:00:00Z").jd_ut1 < event.jd < Moment.from_iso("2025-04-10T00:00:00Z").jd_ut1
    assert math.isfinite(event.jd)


def test_roots_of_several_targets_on_one_grid_are_the_instants_each_search_alone_finds():
    start = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1
    targets = [0.0, 20.0, 25.0, 200.0]  # 20° and 25° Aries lie in the retrograde loop of April 2024: three crossings each
    mercury = longitude_offset("mercury", 0.0)

    def longitude(jd):
        offset, speed = mercury(jd)
        return offset % 360.0, speed

    shared = find_offset_roots(
        longitude, [(lambda v, t=t: (v - t + 180.0) % 360.0 - 180.0, longitude_offset("mercury", t)) for t in targets], start, start + 400.0, 2.0, NEVER
    )
    alone = [find_roots(longitude_offset("mercury", t), start, start + 400.0, 2.0, NEVER) for t in targets]
    assert shared == alone and sum(map(len, alone)) >= 8


@pytest.mark.parametrize(("body", "targets", "flags"), [
    ("sun", [95.0 + 30.0 * k for k in range(11)], CalcFlags()),
    ("sun", [12.5, 200.0, 359.9], CalcFlags(sidereal=parse_ayanamsha("lahiri"))),
    ("mercury", [10.0, 250.0, 17.0, 10.0], CalcFlags()),
])
def test_the_first_crossing_of_each_target_is_the_instant_a_search_for_it_alone_finds(body, targets, flags):
    start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    found = first_crossings(body, targets, start, NEVER, flags=flags)
    assert [c.jd for c in found] == [crossings(body, target, start, 1, NEVER, flags=flags)[0].jd for target in targets]


def test_a_search_told_it_has_enough_stops_at_that_step_with_the_same_roots():
    samples: list[float] = []

    def sine(t: float) -> tuple[float, float]:  # roots at every whole multiple of pi
        samples.append(t)
        return math.sin(t), math.cos(t)

    (every,) = find_offset_roots(sine, [(lambda value: value, sine)], 1.0, 30.0, 0.5, NEVER)
    whole = len(samples)
    samples.clear()
    (first_two,) = find_offset_roots(sine, [(lambda value: value, sine)], 1.0, 30.0, 0.5, NEVER, lambda roots: len(roots[0]) >= 2)
    assert first_two == every[:2] and [round(r.jd, 9) for r in first_two] == [round(math.pi, 9), round(2 * math.pi, 9)]
    assert len(samples) < whole / 3

