"""kernel/stars.py: fixed-star places of date against a published catalogue (SIMBAD's ICRS
J2000 places and motions, from the Hipparcos new reduction) carried to the date by Skyfield."""

from __future__ import annotations

import pytest
from skyfield.api import Star
from skyfield.framelib import ecliptic_frame

from kernel.stars import find_star, star_position
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import de421, timescale

ARCSEC = 1.0 / 3600.0


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
        ra_hours=h + m / 60.0 + s / 3600.0,
        dec_degrees=sign * (d + dm / 60.0 + ds / 3600.0),
        ra_mas_per_year=pm_ra,
        dec_mas_per_year=pm_dec,
        parallax_mas=parallax,
        radial_km_per_s=radial,
    )


def angle_diff_deg(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("name", list(CATALOGUE))
@pytest.mark.parametrize(
    "when", ["1950-01-01T00:00:00Z", "2000-01-01T12:00:00Z", "2024-06-01T00:00:00Z", "2045-01-01T00:00:00Z"]
)
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
