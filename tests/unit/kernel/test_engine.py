"""Swiss Ephemeris global state: sidereal mode and observer never leak from one computation to the next."""

from __future__ import annotations

import pytest

from kernel import engine
from kernel.ayanamshas import parse_ayanamsha
from kernel.bodies import engine_number
from kernel.errors import OutOfRange
from kernel.houses import compute_houses, parse_house_system
from kernel.positions import CalcFlags, Observer, ayanamsha_value, compute_positions
from kernel.timescale import Moment
from shared.errors import InvalidParameter

MOMENT = Moment.from_iso("1990-08-04T16:20:00Z")
BODIES = ["sun", "moon", "mars", "mean_node", "true_node", "chiron", "osc_apogee"]
PLACE = Observer(latitude_deg=-33.87, longitude_deg=151.21, altitude_m=40.0)


def plain():
    """The same plain request every test compares against."""
    return compute_positions(MOMENT, BODIES, CalcFlags())


def plain_equatorial():
    return compute_positions(MOMENT, BODIES, CalcFlags(equatorial=True))


BASELINE = plain()
BASELINE_EQUATORIAL = plain_equatorial()
BASELINE_HOUSES = compute_houses(MOMENT, 51.5, -0.13, parse_house_system("placidus"))


def test_sidereal_computation_then_plain_one_gives_the_plain_result():
    sidereal = compute_positions(MOMENT, BODIES, CalcFlags(sidereal=parse_ayanamsha("raman")))
    assert sidereal.records[0].longitude != BASELINE.records[0].longitude
    assert plain() == BASELINE
    assert plain_equatorial() == BASELINE_EQUATORIAL


def test_topocentric_computation_then_plain_one_gives_the_plain_result():
    topocentric = compute_positions(MOMENT, BODIES, CalcFlags(topocentric=True), PLACE)
    assert topocentric.records[1].longitude != BASELINE.records[1].longitude  # lunar parallax
    assert plain() == BASELINE
    assert plain_equatorial() == BASELINE_EQUATORIAL


def test_sidereal_and_topocentric_together_then_plain():
    compute_positions(MOMENT, BODIES, CalcFlags(sidereal=parse_ayanamsha("lahiri"), topocentric=True), PLACE)
    assert plain() == BASELINE


def test_sidereal_houses_then_plain_houses_give_the_plain_houses():
    compute_houses(MOMENT, 51.5, -0.13, parse_house_system("placidus"), sidereal=parse_ayanamsha("krishnamurti"))
    assert compute_houses(MOMENT, 51.5, -0.13, parse_house_system("placidus")) == BASELINE_HOUSES


def test_two_sidereal_modes_in_turn_do_not_mix():
    lahiri = compute_positions(MOMENT, ["sun"], CalcFlags(sidereal=parse_ayanamsha("lahiri")))
    compute_positions(MOMENT, ["sun"], CalcFlags(sidereal=parse_ayanamsha("fagan_bradley")))
    ayanamsha_value(MOMENT, parse_ayanamsha("raman"))
    again = compute_positions(MOMENT, ["sun"], CalcFlags(sidereal=parse_ayanamsha("lahiri")))
    assert again == lahiri


def test_an_error_inside_a_sidereal_topocentric_request_still_resets_the_state():
    old = Moment.from_iso("1100-01-01T00:00:00Z")
    with pytest.raises(OutOfRange):
        compute_positions(
            old, ["moon", "chiron"], CalcFlags(sidereal=parse_ayanamsha("lahiri"), topocentric=True), PLACE
        )
    assert plain() == BASELINE


def test_configured_block_resets_even_when_the_block_raises():
    with pytest.raises(InvalidParameter):
        with engine.configured(sidereal_mode=3, observer_lon_lat_alt=(10.0, 50.0, 0.0)):
            raise InvalidParameter("boom")
    assert plain() == BASELINE
    assert compute_houses(MOMENT, 51.5, -0.13, parse_house_system("placidus")) == BASELINE_HOUSES


def test_topocentric_without_an_observer_is_the_callers_error():
    # The request reader refuses it first (tests/unit/runtime/test_wire.py); the kernel only guards.
    with pytest.raises(ValueError):
        compute_positions(MOMENT, ["moon"], CalcFlags(topocentric=True))


def test_after_a_sidereal_request_the_engine_is_back_in_its_default_mode():
    moon = engine_number("moon")
    with engine.configured(sidereal_mode=engine.DEFAULT_SIDEREAL_MODE):
        default = engine.calc_body(MOMENT.jd_ut1, moon, engine.FLG_SIDEREAL).values
    compute_positions(MOMENT, ["moon"], CalcFlags(sidereal=parse_ayanamsha("lahiri")))
    # A raw sidereal call outside any configured() block sees the default mode, not Lahiri.
    assert engine.calc_body(MOMENT.jd_ut1, moon, engine.FLG_SIDEREAL).values == default


def test_after_a_topocentric_request_the_engine_observer_is_back_at_its_reset_place():
    moon = engine_number("moon")
    with engine.configured(observer_lon_lat_alt=(0.0, 0.0, 0.0)):
        reset_place = engine.calc_body(MOMENT.jd_ut1, moon, engine.FLG_TOPOCTR).values
    compute_positions(MOMENT, ["moon"], CalcFlags(topocentric=True), PLACE)
    assert engine.calc_body(MOMENT.jd_ut1, moon, engine.FLG_TOPOCTR).values == reset_place


def test_longitudes_and_speeds_date_by_date_are_each_bodys_own_calls_bit_for_bit():
    # Swiss Ephemeris keeps a date's shared work between calls; read date by date or body by body
    # (the body's own calls over every date), each longitude and speed is the same to the last bit.
    names = ["moon", "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]
    names += ["mean_node", "true_node", "chiron"]
    numbers = [engine_number(name) for name in names]
    flags = engine.FLG_SPEED
    jds = [2451545.0 + 0.37 * k for k in range(1500)]
    by_date = engine.longitudes_and_speeds_by_date(numbers, flags, jds)
    calls = [[engine.calc_body(jd, number, flags).values for jd in jds] for number in numbers]
    by_body = [[(values[0], values[3]) for values in body_calls] for body_calls in calls]
    assert [list(row) for row in zip(*by_date)] == by_body
