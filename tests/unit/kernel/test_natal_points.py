"""kernel/natal_points.py: the natal points the time-lords and transit scans read: the names
known from the request before anything is cast, the sect against the Sun's altitude from
Skyfield (DE421), the lots by their formulas (interface.md, /v1/lots) only when the bodies
allow them, and nothing that needs a place without one."""

from __future__ import annotations

import pytest
from skyfield.api import wgs84

from kernel.natal_points import ASCENDANT, MIDHEAVEN, lots_allowed, natal_points, point_names
from kernel.positions import Observer
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale
from tests.unit.kernel.time_lord_births import BIRTH


@pytest.mark.parametrize(
    "bodies",
    [
        (
            "sun",
            "moon",
            "mercury",
            "venus",
            "mars",
            "jupiter",
            "saturn",
            "uranus",
            "neptune",
            "pluto",
            "mean_node",
            "lilith",
            "chiron",
        ),
        ("mars", "saturn"),
        ("moon", "sun"),
        ("sun", "venus", "moon"),
        ("moon",),
        (),
    ],
)
@pytest.mark.parametrize("place", [Observer(51.5, -0.1), None])
def test_the_points_known_from_the_request_are_the_points_its_natal_chart_holds(bodies, place):
    # The gateway refuses a starting point from these names before anything is cast; the
    # time-lords service then reads that point's longitude from the chart.
    chart = natal_points(Moment.from_jd_ut1(BIRTH), place, bodies, lots=True)
    assert point_names(bodies, place=place is not None, lots=True) == tuple(chart.longitudes)


# Hours away from sunrise and sunset, so the ecliptic measure of the sect and the Sun's true
# altitude cannot disagree (they can only within a few minutes of either).
@pytest.mark.parametrize(
    ("when", "latitude", "longitude"),
    [
        ("1990-06-15T14:30:00Z", 51.5, -0.1),
        ("1990-06-15T02:00:00Z", 51.5, -0.1),
        ("2001-12-01T02:00:00Z", -33.9, 151.2),
        ("2001-12-01T14:00:00Z", -33.9, 151.2),
    ],
)
def test_a_birth_is_diurnal_when_the_sun_is_above_the_horizon(when, latitude, longitude):
    moment = Moment.from_iso(when)
    ephemeris = de421()
    observer = ephemeris["earth"] + wgs84.latlon(latitude, longitude)
    altitude = observer.at(timescale().ut1_jd(moment.jd_ut1)).observe(ephemeris["sun"]).apparent().altaz()[0].degrees
    assert abs(altitude) > 5.0, "the case is far from the horizon"
    assert natal_points(moment, Observer(latitude, longitude), ("sun", "moon")).is_day == (altitude > 0.0)


@pytest.mark.parametrize("when", ["1990-06-15T14:30:00Z", "1990-06-15T02:00:00Z"])
def test_the_lot_of_fortune_is_ascendant_plus_moon_minus_sun_by_day_and_reversed_by_night(when):
    points = natal_points(Moment.from_iso(when), Observer(51.5, -0.1), ("sun", "moon"), lots=True)
    lon = points.longitudes
    sign = 1.0 if points.is_day else -1.0
    assert lon["part_of_fortune"] == pytest.approx(
        (lon[ASCENDANT] + sign * (lon["moon"] - lon["sun"])) % 360.0, abs=1e-9
    )
    assert lon["part_of_spirit"] == pytest.approx(
        (lon[ASCENDANT] - sign * (lon["moon"] - lon["sun"])) % 360.0, abs=1e-9
    )


def test_a_lot_is_given_only_when_every_body_of_its_formula_is_among_the_points():
    # Eros needs Venus and Spirit (Sun, Moon); Necessity Fortune and Mercury; Courage Mars;
    # Victory Jupiter; Nemesis Saturn (interface.md, /v1/lots).
    assert lots_allowed(("sun", "moon", ASCENDANT)) == ("part_of_fortune", "part_of_spirit")
    assert lots_allowed(("sun", "moon", "venus", "saturn", ASCENDANT)) == (
        "part_of_fortune",
        "part_of_spirit",
        "part_of_eros",
        "part_of_nemesis",
    )
    assert lots_allowed(("venus", "mercury", "mars", "jupiter", "saturn", ASCENDANT)) == ()


def test_without_a_place_there_are_no_angles_no_lots_and_no_sect():
    points = natal_points(Moment.from_jd_ut1(BIRTH), None, ("sun", "moon", "venus"), lots=True)
    assert tuple(points.longitudes) == ("sun", "moon", "venus")
    assert points.is_day is None
    assert MIDHEAVEN not in point_names(("sun", "moon"), place=False, lots=True)
