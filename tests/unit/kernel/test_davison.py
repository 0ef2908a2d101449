"""The Davison chart's midpoints (decisions.md, Charts: /v1/davison)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from skyfield.framelib import ecliptic_frame

from kernel.chart import ChartSettings, cast_chart
from kernel.davison import great_circle_midpoint, midpoint_moment, midpoint_utc
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

ARCSEC = 1 / 3600
# Positions of the Sun and planets from Swiss Ephemeris and from DE421 agree within 1"
# (tests/unit/kernel/test_positions.py explains the bound); the Moon within 2".
TOLERANCE_DEG = {"sun": 1 * ARCSEC, "mars": 1 * ARCSEC, "jupiter": 1 * ARCSEC, "moon": 2 * ARCSEC}
DE421_NAMES = {"sun": "sun", "moon": "moon", "mars": "mars barycenter", "jupiter": "jupiter barycenter"}


def central_angle_deg(lat_a, lon_a, lat_b, lon_b) -> float:
    """Haversine distance in degrees of arc (an independent formula from the midpoint's vectors)."""
    pa, pb = math.radians(lat_a), math.radians(lat_b)
    h = math.sin((pb - pa) / 2) ** 2 + math.cos(pa) * math.cos(pb) * math.sin(math.radians(lon_b - lon_a) / 2) ** 2
    return math.degrees(2 * math.asin(math.sqrt(h)))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0), (0, 90), (0, 45)),
        ((0, 170), (0, -170), (0, 180)),
        ((0, -170), (0, 170), (0, 180)),
        ((30, 10), (30, 10), (30, 10)),
        ((80, 0), (80, 180), (90, None)),
    ],
    ids=["equator", "across-the-date-line", "across-the-date-line-reversed", "same-place", "over-the-pole"],
)
def test_the_place_is_the_great_circle_midpoint_by_hand(a, b, expected):
    latitude, longitude = great_circle_midpoint(*a, *b)
    assert latitude == pytest.approx(expected[0], abs=1e-9)
    if expected[1] is not None:
        assert abs((longitude - expected[1] + 180) % 360 - 180) < 1e-9
    assert -180 <= longitude <= 180


@pytest.mark.parametrize(
    ("a", "b"), [((51.5, -0.13), (40.7, -74.0)), ((-33.9, 151.2), (35.7, 139.7)), ((64.1, -21.9), (-34.6, -58.4))]
)
def test_the_midpoint_is_halfway_along_the_shorter_great_circle(a, b):
    middle = great_circle_midpoint(*a, *b)
    whole = central_angle_deg(*a, *b)
    assert central_angle_deg(*a, *middle) == pytest.approx(whole / 2, abs=1e-7)
    assert central_angle_deg(*middle, *b) == pytest.approx(whole / 2, abs=1e-7)


def test_antipodal_places_take_the_midpoint_a_quarter_turn_north_of_a():
    assert great_circle_midpoint(-20.0, 30.0, 20.0, -150.0) == pytest.approx((70.0, 30.0))
    latitude, longitude = great_circle_midpoint(20.0, 30.0, -20.0, -150.0)
    assert (latitude, longitude) == pytest.approx((70.0, -150.0))


def test_two_datetimes_meet_halfway_between_their_utc_instants():
    a = datetime(1980, 1, 1, 0, 0, tzinfo=UTC)
    b = datetime(1990, 7, 1, 12, 0, tzinfo=UTC)
    # 3834 d 12 h apart (3653 days to 1990, 181 more to July); half is 1917 d 6 h, and
    # 1827 days reach 1985-01-01, 90 more 1985-04-01.
    halfway = datetime(1985, 4, 1, 6, 0, tzinfo=UTC)
    assert (b - a) / 2 == halfway - a
    assert midpoint_utc(a, b).jd_ut1 == Moment.from_utc_datetime(halfway).jd_ut1


def test_two_julian_days_meet_halfway_between_them():
    assert midpoint_moment(Moment.from_jd_ut1(2444239.5), Moment.from_jd_ut1(2448074.0)).jd_ut1 == pytest.approx(
        2446156.75, abs=1e-9
    )


def test_davison_positions_match_skyfield_at_the_midpoint_instant():
    moment = midpoint_utc(datetime(1980, 1, 1, tzinfo=UTC), datetime(1990, 7, 1, 12, tzinfo=UTC))
    place = great_circle_midpoint(51.5, -0.13, 40.7, -74.0)
    chart = cast_chart(
        moment, Observer(*place), ChartSettings(bodies=tuple(DE421_NAMES), system=parse_house_system("placidus"))
    )
    t = timescale().tt_jd(moment.jd_tt)
    earth = de421()["earth"]
    for position in chart.positions:
        _, lon, _ = earth.at(t).observe(de421()[DE421_NAMES[position.body]]).apparent().frame_latlon(ecliptic_frame)
        assert abs((position.longitude - lon.degrees + 180) % 360 - 180) < TOLERANCE_DEG[position.body], position.body
