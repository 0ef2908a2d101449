"""The sky at a moment against Skyfield (DE421 and its own time scales) and a published star
catalogue: Delta T, sidereal time, sunrise and sunset, fixed stars."""

from __future__ import annotations

import pytest
from skyfield import almanac
from skyfield.api import Star, wgs84
from skyfield.framelib import ecliptic_frame

from kernel import engine
from kernel.earth_rotation import delta_t, sidereal_time
from kernel.stars import find_star, star_position
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

ARCSEC = 1.0 / 3600.0
SECONDS_PER_DAY = 86400.0

# Every fifth year 1900-2100 at a drifting time of day.
YEARS = list(range(1900, 2101, 5))
LAST_OBSERVED_YEAR = 2025

# Delta T: both libraries follow the observed values up to now, agreeing to 0.1 s except
# in 1953-1972, where their smoothings of the pre-atomic-clock record differ (Swiss
# Ephemeris: Stephenson, Morrison & Hohenkerk 2016, then the Astronomical Almanac's table;
# Skyfield: its built-in spline) by up to 0.7 s. Beyond now each extrapolates with its own
# model, and they part by up to 3.5 s by 2100 (a prediction, not a measurement).
OBSERVED_DELTA_T_TOLERANCE_S = 1.0
PREDICTED_DELTA_T_TOLERANCE_S = 5.0

# Sidereal time at the same UT1: the IAU 2006 Earth rotation angle plus the equation of the
# equinoxes in both before 2050 (a millisecond of time); from 2050 on, Swiss Ephemeris
# switches to its long-term model (Vondrák et al. 2011), 0.13 s of time (2") from IAU 2006 by 2100.
SIDEREAL_TIME_TOLERANCE_S = 0.001
LONG_TERM_SIDEREAL_TIME_TOLERANCE_S = 0.2
LONG_TERM_SIDEREAL_TIME_FROM = 2050


def moment_of(year: int) -> Moment:
    return Moment.from_iso(f"{year}-03-01T{year % 24:02d}:17:00Z")


@pytest.mark.parametrize("year", YEARS)
def test_delta_t_matches_skyfield_from_1900_to_2100(year):
    moment = moment_of(year)
    reference = timescale().ut1_jd(moment.jd_ut1).delta_t
    found = delta_t(moment)
    tolerance = OBSERVED_DELTA_T_TOLERANCE_S if year <= LAST_OBSERVED_YEAR else PREDICTED_DELTA_T_TOLERANCE_S
    assert abs(found.seconds - reference) < tolerance
    assert found.days * SECONDS_PER_DAY == pytest.approx(found.seconds)
    assert found.jd_tt == pytest.approx(moment.jd_ut1 + found.days, abs=1e-9)


@pytest.mark.parametrize("year", YEARS)
def test_greenwich_apparent_sidereal_time_matches_skyfield_from_1900_to_2100(year):
    moment = moment_of(year)
    reference_hours = timescale().ut1_jd(moment.jd_ut1).gast
    found = sidereal_time(moment)
    tolerance = LONG_TERM_SIDEREAL_TIME_TOLERANCE_S if year >= LONG_TERM_SIDEREAL_TIME_FROM else SIDEREAL_TIME_TOLERANCE_S
    assert abs(((found.gast_hours - reference_hours + 12.0) % 24.0) - 12.0) * 3600.0 < tolerance
    assert found.gast_degrees == pytest.approx(found.gast_hours * 15.0)
    assert found.lst_degrees is None and found.lst_hours is None


@pytest.mark.parametrize("longitude", [-179.5, -0.13, 0.0, 77.2, 180.0])
def test_local_sidereal_time_is_greenwich_plus_the_east_longitude(longitude):
    found = sidereal_time(moment_of(2024), longitude)
    assert found.lst_degrees == pytest.approx((found.gast_degrees + longitude) % 360.0, abs=1e-9)
    assert 0.0 <= found.lst_degrees < 360.0 and found.lst_hours == pytest.approx(found.lst_degrees / 15.0)


# Sunrise and sunset. Skyfield's almanac puts the Sun's centre at -0.8333° (34' of refraction,
# 16' of semidiameter, both fixed); Swiss Ephemeris takes the upper limb with the day's real
# semidiameter (15.7'-16.3') and its refraction for 1013.25 hPa and 10 °C (about 34.5'). The
# horizons differ by up to 0.03°, which the Sun crosses in a few seconds at low and middle
# latitudes and in more where it rises slantwise: 8 s up to 52° and 20 s at 64°.
PLACES = [(51.5, -0.13, 8.0), (0.0, 30.0, 8.0), (-33.9, 151.2, 8.0), (40.7, -74.0, 8.0), (64.1, -21.9, 20.0)]
DATES = [(1950, 12, 1), (2000, 1, 10), (2010, 6, 21), (2024, 3, 20), (2035, 9, 15)]
SKYFIELD_HORIZON_DEG = -0.8333
HORIZON_DIFFERENCE_DEG = 0.03
# Swiss Ephemeris's searcher can pass over an event within minutes of its starting time at
# high latitude; each of our searches starts this long before Skyfield's event.
SEARCH_LEAD_DAYS = 0.1


@pytest.mark.parametrize(("latitude", "longitude", "tolerance_s"), PLACES)
@pytest.mark.parametrize("date", DATES, ids=lambda d: "-".join(map(str, d)))
def test_sunrise_and_sunset_match_skyfields_almanac(latitude, longitude, tolerance_s, date):
    ts, ephemeris = timescale(), de421()
    start, end = ts.utc(*date), ts.utc(date[0], date[1], date[2] + 1)
    observer = ephemeris["earth"] + wgs84.latlon(latitude, longitude)
    compared = 0
    for finder, rising in ((almanac.find_risings, True), (almanac.find_settings, False)):
        times, _ = finder(observer, ephemeris["sun"], start, end)
        for reference in times:
            ours = engine.next_sun_rise_or_set(reference.ut1 - SEARCH_LEAD_DAYS, latitude, longitude, 0.0, rising=rising).jd_ut1
            assert abs(ours - reference.ut1) * SECONDS_PER_DAY < tolerance_s
            altitude = observer.at(ts.ut1_jd(ours)).observe(ephemeris["sun"]).apparent().altaz()[0].degrees
            assert abs(altitude - SKYFIELD_HORIZON_DEG) < HORIZON_DIFFERENCE_DEG
            compared += 1
    assert compared == 2, "every one of these places sees one sunrise and one sunset that day"


# Fixed stars: ICRS J2000 places and motions as SIMBAD gives them (from the Hipparcos new
# reduction, van Leeuwen 2007; radial velocities from SIMBAD), carried to the date by
# Skyfield (proper motion, precession, nutation, aberration, light deflection). Agreement is
# a few milliarcseconds; the bound, 0.05", leaves room for the two nutation models.
CATALOGUE = {
    # name: (RA h, m, s), (Dec sign, d, m, s), pm RA* mas/yr, pm Dec mas/yr, parallax mas, radial velocity km/s
    "Aldebaran": ((4, 35, 55.23907), (1, 16, 30, 33.4885), 63.45, -188.94, 48.94, 54.26),
    "Regulus": ((10, 8, 22.31099), (1, 11, 58, 1.9516), -248.73, 5.59, 41.13, 5.9),
    "Spica": ((13, 25, 11.57937), (-1, 11, 9, 40.7501), -42.35, -30.67, 13.06, 1.0),
    "Antares": ((16, 29, 24.45970), (-1, 26, 25, 55.2094), -12.11, -23.30, 5.89, -3.5),
}
STAR_TOLERANCE_DEG = 0.05 * ARCSEC


def catalogue_star(name: str) -> Star:
    (h, m, s), (sign, d, dm, ds), pm_ra, pm_dec, parallax, radial = CATALOGUE[name]
    return Star(
        ra_hours=h + m / 60.0 + s / 3600.0, dec_degrees=sign * (d + dm / 60.0 + ds / 3600.0),
        ra_mas_per_year=pm_ra, dec_mas_per_year=pm_dec, parallax_mas=parallax, radial_km_per_s=radial,
    )


def angle_diff_deg(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("name", list(CATALOGUE))
@pytest.mark.parametrize("when", ["1950-01-01T00:00:00Z", "2000-01-01T12:00:00Z", "2024-06-01T00:00:00Z", "2045-01-01T00:00:00Z"])
def test_star_positions_match_the_catalogue_carried_to_the_date(name, when):
    moment = Moment.from_iso(when)
    apparent = de421()["earth"].at(timescale().tt_jd(moment.jd_tt)).observe(catalogue_star(name)).apparent()
    latitude, longitude, _ = apparent.frame_latlon(ecliptic_frame)
    right_ascension, declination, _ = apparent.radec(epoch="date")
    found = star_position(find_star(name), moment)
    assert angle_diff_deg(found.longitude, longitude.degrees) < STAR_TOLERANCE_DEG
    assert abs(found.latitude - latitude.degrees) < STAR_TOLERANCE_DEG
    assert angle_diff_deg(found.right_ascension, right_ascension._degrees) < STAR_TOLERANCE_DEG
    assert abs(found.declination - declination.degrees) < STAR_TOLERANCE_DEG
