"""The midpoint composite (decisions.md, /v1/composite), against Skyfield DE421 positions."""

from __future__ import annotations

import pytest
from skyfield.framelib import ecliptic_frame

from kernel.chart import ChartSettings, cast_chart
from kernel.composite import composite_chart, composite_longitude
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

ARCSEC = 1 / 3600
# A composite longitude is the mean of two longitudes, so it carries the mean of their
# Swiss-Ephemeris-vs-DE421 differences: within 1" for the Sun and planets, 2" for the Moon
# (the bounds of tests/unit/kernel/test_positions.py).
TOLERANCE_DEG = {"sun": 1 * ARCSEC, "mars": 1 * ARCSEC, "venus": 1 * ARCSEC, "moon": 2 * ARCSEC}
DE421_NAMES = {"sun": "sun", "moon": "moon", "venus": "venus", "mars": "mars barycenter"}
SETTINGS = ChartSettings(bodies=tuple(DE421_NAMES), system=parse_house_system("placidus"))
MOMENT_A, MOMENT_B = Moment.from_iso("1984-02-11T09:20:00Z"), Moment.from_iso("1986-10-30T22:05:00Z")


def skyfield_longitude(moment: Moment, body: str) -> float:
    t = timescale().tt_jd(moment.jd_tt)
    _, lon, _ = de421()["earth"].at(t).observe(de421()[DE421_NAMES[body]]).apparent().frame_latlon(ecliptic_frame)
    return lon.degrees


def shorter_arc_midpoint(a: float, b: float) -> float:
    """The midpoint by hand: half the signed difference taken the short way round."""
    difference = (b - a + 180) % 360 - 180
    return (a + difference / 2) % 360


@pytest.mark.parametrize("resolution", ["nearest", "far"])
def test_composite_positions_are_the_midpoints_of_skyfield_s_natal_positions(resolution):
    chart = composite_chart(
        cast_chart(MOMENT_A, Observer(48.85, 2.35), SETTINGS),
        cast_chart(MOMENT_B, Observer(-23.55, -46.63), SETTINGS),
        SETTINGS,
        resolution,
    )
    for position in chart.positions:
        expected = shorter_arc_midpoint(
            skyfield_longitude(MOMENT_A, position.body), skyfield_longitude(MOMENT_B, position.body)
        )
        if resolution == "far":
            expected = (expected + 180) % 360
        assert abs((position.longitude - expected + 180) % 360 - 180) < TOLERANCE_DEG[position.body], position.body
    assert chart.chart_type == "composite" and chart.metadata.source == {"type": "composite", "resolution": resolution}


def test_composite_houses_are_the_midpoints_of_the_cusps_and_bodies_sit_in_them():
    a = cast_chart(MOMENT_A, Observer(48.85, 2.35), SETTINGS)
    b = cast_chart(MOMENT_B, Observer(-23.55, -46.63), SETTINGS)
    chart = composite_chart(a, b, SETTINGS)
    for composite, ca, cb in zip(chart.houses.cusps_deg, a.houses.cusps_deg, b.houses.cusps_deg):
        assert composite == pytest.approx(shorter_arc_midpoint(ca, cb), abs=1e-9)
    assert chart.metadata.jd_ut1 == pytest.approx((MOMENT_A.jd_ut1 + MOMENT_B.jd_ut1) / 2)


def test_gauquelin_places_composite_positions_by_the_sector_of_the_composite_cusps():
    # By hand: sector k spans from composite cusp k+1 forward along the zodiac to cusp k.
    gauquelin = ChartSettings(
        bodies=("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn"), system=parse_house_system("gauquelin")
    )
    a = cast_chart(MOMENT_A, Observer(48.85, 2.35), gauquelin)
    b = cast_chart(MOMENT_B, Observer(-23.55, -46.63), gauquelin)
    chart = composite_chart(a, b, gauquelin)
    cusps = chart.houses.cusps_deg
    assert len(cusps) == 36

    def by_hand(longitude: float) -> int:
        return next(
            k + 1
            for k in range(36)
            if 0 < (longitude - cusps[(k + 1) % 36]) % 360 <= (cusps[k] - cusps[(k + 1) % 36]) % 360
        )

    houses = [p.house for p in chart.positions]
    assert houses == [by_hand(p.longitude) for p in chart.positions]
    assert len(set(houses)) > 3
    assert [chart.placement.house(i + 0.5) for i in range(360)] == [by_hand(i + 0.5) for i in range(360)]


def test_exactly_opposite_longitudes_take_the_lower_candidate():
    assert composite_longitude(10.0, 190.0) == 100.0 and composite_longitude(10.0, 190.0, "far") == 280.0
