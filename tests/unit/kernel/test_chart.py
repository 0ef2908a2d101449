"""The chart builder (kernel/chart.py), rule by rule.

References: house spans by hand from made-up cusps; mundane positions against Swiss
Ephemeris's own house-position function called here directly (swe.house_pos), so the
chart's plumbing (tropical coordinates, ARMC, obliquity) is what is checked.
"""

from __future__ import annotations

import math

import pytest
import swisseph as swe

from kernel.ayanamshas import parse_ayanamsha
from kernel.chart import MUNDANE, ChartSettings, cast_chart, gauquelin_sector, zodiacal_house
from kernel.houses import compute_houses, parse_house_system
from kernel.positions import CalcFlags, Observer, ayanamsha_value, compute_positions
from kernel.timescale import Moment

PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node")
LONDON = Observer(51.5, -0.13)
MOMENT = Moment.from_iso("1990-06-15T14:30:00Z")


def settings(**changes) -> ChartSettings:
    return ChartSettings(bodies=PLANETS, system=parse_house_system("placidus"), **changes)


@pytest.mark.parametrize(
    ("longitude", "house"),
    [(10.0, 1), (29.999, 1), (30.0, 2), (355.0, 12), (5.0, 12), (9.999, 12), (200.0, 7)],
)
def test_a_body_is_in_the_house_whose_span_from_its_cusp_holds_its_longitude(longitude, house):
    # Cusps crossing 0 degrees: house 12 runs from 340 to 10.
    cusps = [10.0, 30.0, 60.0, 90.0, 120.0, 150.0, 190.0, 210.0, 240.0, 270.0, 300.0, 340.0]
    assert zodiacal_house(longitude, cusps) == house


def test_positions_carry_the_chart_fields_with_speeds_always_computed():
    chart = cast_chart(MOMENT, LONDON, settings(applying=False))
    assert [p.body for p in chart.positions] == list(PLANETS)
    for position in chart.positions:
        assert position.speed is not None and position.retrograde is (position.speed < 0)
        assert position.sign == position.sign.lower()
        assert 1 <= position.house <= 12 and position.house_position is None
    assert all(aspect.applying is None for aspect in chart.aspects)


def test_zodiacal_houses_follow_the_cusps():
    chart = cast_chart(MOMENT, LONDON, settings())
    for position in chart.positions:
        assert position.house == zodiacal_house(position.longitude, chart.houses.cusps_deg)


def test_mundane_house_position_is_swiss_ephemeris_house_pos_and_house_its_floor():
    chart = cast_chart(MOMENT, LONDON, settings(house_position_mode=MUNDANE))
    obliquity = swe.calc_ut(MOMENT.jd_ut1, swe.ECL_NUT)[0][0]
    for position in chart.positions:
        expected = swe.house_pos(
            chart.houses.armc_deg, LONDON.latitude_deg, obliquity, (position.longitude, position.latitude), b"P"
        )
        assert position.house_position == pytest.approx(expected, abs=1e-9)
        assert 1 <= position.house_position < 13 and position.house == math.floor(position.house_position)


def test_a_sidereal_chart_keeps_each_body_in_its_mundane_house():
    tropical = cast_chart(MOMENT, LONDON, settings(house_position_mode=MUNDANE))
    sidereal = cast_chart(
        MOMENT, LONDON, settings(house_position_mode=MUNDANE, flags=CalcFlags(sidereal=parse_ayanamsha("lahiri")))
    )
    aya = ayanamsha_value(MOMENT, parse_ayanamsha("lahiri"))
    for t, s in zip(tropical.positions, sidereal.positions):
        assert s.longitude == pytest.approx((t.longitude - aya) % 360, abs=1e-6)
        assert s.house_position == pytest.approx(t.house_position, abs=1e-6)
    assert sidereal.metadata.sidereal == "lahiri"


def test_aspects_and_parallels_come_from_the_chart_positions():
    chart = cast_chart(MOMENT, LONDON, settings(parallel_orb_deg=1.0))
    by_body = {p.body: p for p in chart.positions}
    for aspect in chart.aspects:
        separation = abs(by_body[aspect.body_a].longitude - by_body[aspect.body_b].longitude) % 360
        assert min(separation, 360 - separation) == pytest.approx(aspect.separation_deg, abs=1e-9)
    for parallel in chart.parallels:
        assert parallel.declination_a_deg == by_body[parallel.body_a].declination
    assert cast_chart(MOMENT, LONDON, settings(parallels=False)).parallels == []


def test_inside_the_polar_circle_placidus_falls_back_to_porphyrius_and_says_so():
    chart = cast_chart(MOMENT, Observer(75.0, 20.0), settings())
    assert chart.metadata.house_system == "porphyrius"
    assert [w.kind for w in chart.warnings] == ["high_latitude"]


def test_metadata_names_the_moment_place_and_a_natal_source():
    chart = cast_chart(MOMENT, LONDON, settings())
    assert chart.chart_type == "natal" and chart.metadata.source == {"type": "natal"}
    assert chart.metadata.jd_ut1 == MOMENT.jd_ut1 and chart.metadata.datetime_iso.startswith("1990-06-15T14:30:00")
    assert (chart.metadata.latitude, chart.metadata.longitude) == (51.5, -0.13)
    assert chart.metadata.house_system == "placidus" and chart.metadata.bodies == list(PLANETS)


def test_chart_positions_equal_the_positions_endpoint_records():
    records = compute_positions(MOMENT, list(PLANETS), CalcFlags()).records
    chart = cast_chart(MOMENT, LONDON, settings())
    for record, position in zip(records, chart.positions):
        assert (position.longitude, position.declination, position.speed) == (
            record.longitude,
            record.declination,
            record.speed,
        )


def test_equatorial_adds_each_body_s_right_ascension_and_keeps_ecliptic_longitudes():
    chart = cast_chart(MOMENT, LONDON, settings(flags=CalcFlags(equatorial=True)))
    plain = cast_chart(MOMENT, LONDON, settings())
    equatorial = compute_positions(MOMENT, list(PLANETS), CalcFlags(equatorial=True)).records
    for position, reference, record in zip(chart.positions, plain.positions, equatorial):
        assert position.right_ascension == record.right_ascension
        assert position.longitude == reference.longitude
    assert all(p.right_ascension is None for p in plain.positions)


def test_topocentric_positions_are_seen_from_the_chart_place():
    chart = cast_chart(MOMENT, LONDON, settings(flags=CalcFlags(topocentric=True)))
    seen = compute_positions(MOMENT, list(PLANETS), CalcFlags(topocentric=True), LONDON).records
    assert [p.longitude for p in chart.positions] == [r.longitude for r in seen]
    geocentric_moon = cast_chart(MOMENT, LONDON, settings()).positions[1].longitude
    assert abs(chart.positions[1].longitude - geocentric_moon) > 0.1  # the Moon's parallax, up to ~1 degree


def test_no_nutation_applies_to_positions_and_cusps():
    chart = cast_chart(MOMENT, LONDON, settings(flags=CalcFlags(no_nutation=True)))
    houses = compute_houses(
        MOMENT, LONDON.latitude_deg, LONDON.longitude_deg, parse_house_system("placidus"), no_nutation=True
    )
    assert chart.houses.cusps_deg == houses.cusps_deg
    mean = compute_positions(MOMENT, list(PLANETS), CalcFlags(no_nutation=True)).records
    assert [p.longitude for p in chart.positions] == [r.longitude for r in mean]


@pytest.mark.parametrize("flags", [CalcFlags(j2000=True), CalcFlags(heliocentric=True)], ids=["j2000", "heliocentric"])
def test_mundane_positions_with_j2000_or_heliocentric_longitudes_are_the_callers_error(flags):
    with pytest.raises(ValueError):
        cast_chart(MOMENT, LONDON, settings(flags=flags, house_position_mode=MUNDANE))


GAUQUELIN = parse_house_system("gauquelin")


def gauquelin_sector_by_swiss_ephemeris(chart, tropical_longitude: float, latitude: float) -> int:
    obliquity = swe.calc_ut(MOMENT.jd_ut1, swe.ECL_NUT)[0][0]
    return math.floor(
        swe.house_pos(chart.houses.armc_deg, LONDON.latitude_deg, obliquity, (tropical_longitude, latitude), b"G")
    )


def test_gauquelin_places_bodies_by_the_sector_they_stand_in():
    chart = cast_chart(MOMENT, LONDON, ChartSettings(bodies=PLANETS, system=GAUQUELIN))
    houses = [p.house for p in chart.positions]
    assert houses == [gauquelin_sector_by_swiss_ephemeris(chart, p.longitude, p.latitude) for p in chart.positions]
    assert all(p.house_position is None for p in chart.positions)  # reported in mundane mode only
    assert len(set(houses)) > 3


@pytest.mark.parametrize("sidereal", [None, "lahiri"], ids=["tropical", "sidereal"])
def test_gauquelin_places_derived_points_by_sector_on_the_ecliptic(sidereal):
    # A derived point (midpoint, antiscion, lot) is a point on the ecliptic, latitude 0, placed
    # by the bodies' method: the floor of swe_house_pos for its tropical longitude of date.
    ayanamsha = parse_ayanamsha(sidereal) if sidereal else None
    chart = cast_chart(
        MOMENT, LONDON, ChartSettings(bodies=PLANETS, system=GAUQUELIN, flags=CalcFlags(sidereal=ayanamsha))
    )
    shift = ayanamsha_value(MOMENT, ayanamsha) if ayanamsha else 0.0
    longitudes = [i + 0.5 for i in range(0, 360, 5)]
    found = [chart.placement.house(longitude) for longitude in longitudes]
    assert found == [
        gauquelin_sector_by_swiss_ephemeris(chart, (longitude + shift) % 360, 0.0) for longitude in longitudes
    ]
    assert found == [gauquelin_sector(longitude, chart.houses.cusps_deg) for longitude in longitudes]
    assert sorted(set(found)) == list(range(1, 37))


def test_a_gauquelin_sector_spans_from_the_next_cusp_forward_to_its_own():
    # Made-up sectors 10 degrees wide running against the zodiac: cusp 1 at 5, cusp 2 at 355, ...
    cusps = [(5.0 - 10.0 * k) % 360 for k in range(36)]
    assert [gauquelin_sector(longitude, cusps) for longitude in (0.0, 5.0, 5.1, 355.0, 354.9, 15.0, 15.1)] == [
        1,
        1,
        36,
        2,
        2,
        36,
        35,
    ]


def test_zodiacal_systems_place_derived_points_by_the_cusp_spans():
    chart = cast_chart(MOMENT, LONDON, settings())
    assert [chart.placement.house(i + 0.5) for i in range(360)] == [
        zodiacal_house(i + 0.5, chart.houses.cusps_deg) for i in range(360)
    ]


def test_a_chart_without_a_place_has_no_houses_angles_nor_sect():
    chart = cast_chart(MOMENT, None, settings())
    assert (chart.houses, chart.placement, chart.day_chart) == (None, None, None)
    assert [p.house for p in chart.positions] == [None] * len(PLANETS)
    assert (chart.metadata.latitude, chart.metadata.house_system) == (None, None)


def test_a_chart_without_a_place_has_the_geocentric_positions_of_a_chart_with_one():
    placed, placeless = cast_chart(MOMENT, LONDON, settings()), cast_chart(MOMENT, None, settings())
    assert [(p.body, p.longitude, p.speed, p.declination) for p in placeless.positions] == [
        (p.body, p.longitude, p.speed, p.declination) for p in placed.positions
    ]
    assert placeless.aspects == placed.aspects


def test_a_topocentric_chart_without_a_place_is_the_callers_error():
    with pytest.raises(ValueError):
        cast_chart(MOMENT, None, settings(flags=CalcFlags(topocentric=True)))


def test_a_chart_with_a_place_needs_a_house_system():
    with pytest.raises(ValueError):
        cast_chart(MOMENT, LONDON, ChartSettings(bodies=PLANETS, system=None))
