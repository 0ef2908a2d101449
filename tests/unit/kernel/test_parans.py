"""Parans (kernel/parans.py) against Skyfield's risings, settings and transits (DE421, stars
as Skyfield Star objects from their catalogue places), and the rules of pairing.

Conventions matched: our horizon is geometric and geocentric (the point's centre at true
altitude 0, no refraction, no parallax), so Skyfield is asked for altitude 0
(``horizon_degrees=0``, which turns its refraction and radius allowances off); for the Moon,
whose parallax (about 0.95 degree) Skyfield's topocentric observer sees, the horizon is moved
down by its horizontal parallax (topocentric altitude = geocentric altitude - HP cos(alt)),
which puts Skyfield's Moon on the geocentric horizon to a few arcseconds. Transits are
parallax-free on the meridian. Tolerance 60 s (the issue's): the two ephemerides, Delta T
models and nutation series agree to about a second of time; what is left is the Moon's
horizontal-parallax approximation (a few seconds) at the slowest horizon crossings (60 deg).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from skyfield import almanac
from skyfield.api import Star, wgs84
from skyfield.searchlib import find_discrete

from kernel.parans import (
    SIDEREAL_DAY_DAYS,
    AngleEvent,
    angle_events,
    day_sky,
    paran_latitudes,
    parans,
)
from kernel.stars import find_star
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

TOLERANCE_S = 60.0
BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn")
# Catalogue places (ICRS, J2000; proper motions mas/yr with RA's times cos dec; parallax mas;
# radial velocity km/s). Source: SIMBAD (Hipparcos 2007 reduction, van Leeuwen 2007).
STARS = {
    "Regulus": ((10, 8, 22.31099), (11, 58, 1.9516), -248.73, 5.59, 41.13, 5.9),
    "Aldebaran": ((4, 35, 55.23907), (16, 30, 33.4885), 63.45, -188.94, 48.94, 54.26),
    "Sirius": ((6, 45, 8.91728), (-16, -42, -58.0171), -546.01, -1223.07, 379.21, -5.5),
}
BIRTHS = ("1985-07-13T14:05:00Z", "2001-12-24T03:30:00Z", "2019-03-20T21:58:00Z")
LATITUDES = (-33.9, 0.0, 40.7, 59.9)


def _star(ra, dec, pm_ra, pm_dec, parallax, radial) -> Star:
    return Star(
        ra_hours=ra,
        dec_degrees=dec,
        ra_mas_per_year=pm_ra,
        dec_mas_per_year=pm_dec,
        parallax_mas=parallax,
        radial_km_per_s=radial,
    )


def _skyfield_events(target, name: str, latitude: float, longitude: float, start_jd: float) -> dict[str, list[float]]:
    """Return Skyfield's events of one point in the day (UT1 Julian Days), a little widened."""
    ts = timescale()
    eph = de421()
    place = wgs84.latlon(latitude, longitude)
    observer = eph["earth"] + place
    t0, t1 = ts.ut1_jd(start_jd - 0.01), ts.ut1_jd(start_jd + SIDEREAL_DAY_DAYS + 0.01)
    horizon = 0.0
    if name == "moon":
        distance_km = observer.at(ts.ut1_jd(start_jd + 0.5)).observe(target).apparent().distance().km
        horizon = -math.degrees(math.asin(6378.137 / distance_km))
    rising, _ = almanac.find_risings(observer, target, t0, t1, horizon_degrees=horizon)
    setting, _ = almanac.find_settings(observer, target, t0, t1, horizon_degrees=horizon)
    times, upper = find_discrete(t0, t1, almanac.meridian_transits(eph, target, place))
    return {
        "ascendant": list(rising.ut1),
        "descendant": list(setting.ut1),
        "midheaven": [t for t, u in zip(times.ut1, upper) if u == 1],
        "imum_coeli": [t for t, u in zip(times.ut1, upper) if u == 0],
    }


@pytest.mark.parametrize("birth", BIRTHS)
@pytest.mark.parametrize("latitude", LATITUDES)
def test_every_event_is_within_60_s_of_skyfields_finders(birth, latitude):
    longitude = 2.35
    moment = Moment.from_iso(birth)
    sky, _ = day_sky(moment, BODIES, [find_star(name) for name in STARS])
    events = angle_events(sky, latitude, longitude)
    eph = de421()
    targets = {name: eph[DE421_TARGETS[name]] for name in BODIES}
    targets.update({name: _star(*values) for name, values in STARS.items()})
    reference = {
        name: _skyfield_events(target, name, latitude, longitude, moment.jd_ut1) for name, target in targets.items()
    }
    assert events
    for event in events:
        nearest = min(abs(event.jd_ut - t) for t in reference[event.point][event.angle]) * 86400.0
        assert nearest <= TOLERANCE_S, (event, nearest)
    # And none of Skyfield's events inside the day is missing from ours.
    end = moment.jd_ut1 + SIDEREAL_DAY_DAYS
    for name, by_angle in reference.items():
        for angle, times in by_angle.items():
            for t in times:
                if moment.jd_ut1 + 120 / 86400 < t < end - 120 / 86400:
                    assert any(
                        e.point == name and e.angle == angle and abs(e.jd_ut - t) * 86400 <= TOLERANCE_S for e in events
                    ), (name, angle, t)


def _event(point: str, angle: str, minutes: float) -> AngleEvent:
    return AngleEvent(point, angle, 2451545.0 + minutes / 1440.0, 0.0)


def test_two_points_on_angles_within_the_orb_are_a_paran():
    found = parans([_event("venus", "ascendant", 0.0), _event("Regulus", "midheaven", 3.5)], orb_minutes=4.0)
    assert [(p.first.point, p.second.point) for p in found] == [("venus", "Regulus")]
    assert found[0].separation_s == pytest.approx(210.0)


def test_events_further_apart_than_the_orb_are_no_paran():
    assert parans([_event("venus", "ascendant", 0.0), _event("Regulus", "midheaven", 4.5)], orb_minutes=4.0) == []


def test_one_points_own_events_are_no_paran():
    assert parans([_event("moon", "ascendant", 0.0), _event("moon", "midheaven", 1.0)], orb_minutes=4.0) == []


def test_a_circumpolar_point_has_no_rising_nor_setting():
    moment = Moment.from_iso("2001-12-24T03:30:00Z")
    sky, _ = day_sky(moment, (), [find_star("Capella")])  # declination +46: circumpolar beyond 44 N
    angles = {e.angle for e in angle_events(sky, 60.0, 0.0)}
    assert angles == {"midheaven", "imum_coeli"}


def test_events_fall_in_the_sidereal_day_from_the_moment():
    moment = Moment.from_iso("1985-07-13T14:05:00Z")
    sky, _ = day_sky(moment, BODIES, [])
    events = angle_events(sky, 51.5, 0.0)
    assert all(moment.jd_ut1 <= e.jd_ut < moment.jd_ut1 + SIDEREAL_DAY_DAYS for e in events)
    # Every point but the Moon (whose day is longer than the Earth's turn) has its four events.
    counts = {name: sum(e.point == name for e in events) for name in BODIES}
    assert all(count == 4 for name, count in counts.items() if name != "moon")


def test_paran_latitude_puts_both_points_on_their_angles_at_one_sidereal_time():
    first, second = (150.0, 12.0, "ascendant"), (100.0, 20.0, "midheaven")
    (latitude,) = paran_latitudes(first, second)
    # Rising: LST = RA - semi-arc, so the semi-arc is 50 degrees: cos 50 = -tan(lat) tan(12).
    expected = math.degrees(math.atan(-math.cos(math.radians(50.0)) / math.tan(math.radians(12.0))))
    assert latitude == pytest.approx(expected, abs=1e-6)


def test_two_meridian_angles_give_no_paran_latitude():
    assert paran_latitudes((150.0, 12.0, "midheaven"), (150.0, -20.0, "imum_coeli")) == []


def test_paran_latitudes_agree_with_the_day_scan_at_those_latitudes():
    moment = Moment.from_iso("1985-07-13T14:05:00Z")
    sky, _ = day_sky(moment, (), [find_star("Regulus"), find_star("Aldebaran")])
    ra, dec = sky.right_ascensions[:, 0], sky.declinations[:, 0]
    for latitude in paran_latitudes((ra[0], dec[0], "descendant"), (ra[1], dec[1], "ascendant")):
        events = {(e.point, e.angle): e for e in angle_events(sky, latitude, 0.0)}
        gap = abs(events["Regulus", "descendant"].jd_ut - events["Aldebaran", "ascendant"].jd_ut) * 86400.0
        # The stars' places drift by their precession and aberration in a day: a few seconds at most.
        assert gap < 5.0 or abs(gap - SIDEREAL_DAY_DAYS * 86400) < 5.0
    assert np.isfinite(ra).all()
