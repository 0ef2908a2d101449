"""kernel/crossings.py: crossings of a longitude (ingresses, returns, seasons) against Skyfield
(DE421), refined to 1 ms, bounded by the supported dates, forward and backward, tropical and
sidereal; and the first crossings of several targets against one search each."""

from __future__ import annotations

import pytest
from skyfield import almanac
from skyfield.framelib import ecliptic_frame
from skyfield.searchlib import find_discrete

from kernel import engine
from kernel.ayanamshas import parse_ayanamsha
from kernel.crossings import crossings, crossings_until, first_crossings, longitude_offset, sign_entries
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import CalcFlags, compute_positions
from kernel.timescale import JD_UT1_MAX, Moment
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

NEVER = Deadline.never()
SECONDS_PER_DAY = 86400.0


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
        boundary = (
            30.0 * new_sign if (previous is None or (new_sign - previous) % 12 == 1) else 30.0 * ((new_sign + 1) % 12)
        )
        (found,) = crossings(body, boundary, reference.ut1 - 1.0, 1, NEVER)
        assert abs(found.jd - reference.ut1) * SECONDS_PER_DAY < CROSSING_TOLERANCE_S, (
            body,
            reference.utc_iso(),
            start,
        )
        previous = new_sign


@pytest.mark.parametrize("body", ["mercury", "mars"])
def test_an_ingress_into_a_sign_is_an_entry_matching_skyfields_sign_changes_into_it(body):
    # Skyfield (DE421) gives every change of sign; an entry into sign S is a change whose new
    # sign is S, direct when S follows the old sign, retrograde when it precedes it. The exits
    # (the other changes at S's boundaries) must not appear.
    times, signs = skyfield_sign_ingresses(body, 2024, 2027)
    start = times[0].ut1 - 1.0
    for sign in sorted({int(s) for s in signs}):
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


@pytest.mark.parametrize(
    ("body", "target", "flags"),
    [
        ("sun", 0.0, CalcFlags()),
        ("moon", 123.5, CalcFlags()),
        ("mercury", 27.0, CalcFlags()),
        ("moon", 200.0, CalcFlags(sidereal=parse_ayanamsha("lahiri"))),
        ("mars", 10.0, CalcFlags(heliocentric=True)),
    ],
)
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
    assert "Only 2 of the 3" in caught.value.message and caught.value.about == "count"


def test_an_asteroid_search_stops_at_the_end_of_its_files_with_out_of_range():
    # Ceres takes 4.6 years around the Sun: from 2990 not three returns to one longitude fit
    # before its files end (2999-12-31), and the engine is never asked past them.
    with pytest.raises(OutOfRange) as caught:
        crossings("ceres", 0.0, Moment.from_iso("2990-01-01T00:00:00Z").jd_ut1, 5, NEVER)
    assert "ceres" in caught.value.message and "2999-12-31" in caught.value.message
    with pytest.raises(OutOfRange) as caught:
        crossings("ceres", 0.0, Moment.from_iso("1100-01-01T00:00:00Z").jd_ut1, 1, NEVER)
    assert caught.value.about == "from_jd" and caught.value.param is None


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
    (found,) = crossings(
        "sun", 60.0, Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, 1, NEVER, flags=CalcFlags(sidereal=lahiri)
    )
    record = compute_positions(Moment.from_jd_ut1(found.jd), ["sun"], CalcFlags(sidereal=lahiri)).records[0]
    assert abs(record.longitude - 60.0) < 1e-5


@pytest.mark.parametrize(
    ("body", "targets", "flags"),
    [
        ("sun", [95.0 + 30.0 * k for k in range(11)], CalcFlags()),
        ("sun", [12.5, 200.0, 359.9], CalcFlags(sidereal=parse_ayanamsha("lahiri"))),
        ("mercury", [10.0, 250.0, 17.0, 10.0], CalcFlags()),
    ],
)
def test_the_first_crossing_of_each_target_is_the_instant_a_search_for_it_alone_finds(body, targets, flags):
    start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    found = first_crossings(body, targets, start, NEVER, flags=flags)
    assert [c.jd for c in found] == [crossings(body, target, start, 1, NEVER, flags=flags)[0].jd for target in targets]


@pytest.mark.parametrize(
    ("body", "target", "days"),
    [
        ("sun", 84.25, 366.0),
        ("moon", 201.7, 366.0),
        ("moon", 3.5, 1200.0),
        ("mercury", 27.0, 90.0),
    ],
)
def test_the_crossings_until_a_date_are_the_instants_a_search_for_a_count_finds_before_it(body, target, days):
    start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    until = start + days
    found = crossings_until(body, target, start, until, NEVER, flags=CalcFlags(speed=True))
    counted = crossings(body, target, start, len(found) + 1, NEVER, flags=CalcFlags(speed=True))
    assert found and all(c.jd < until for c in found) and counted[-1].jd >= until
    assert found == counted[:-1]
