"""Positions against an independent ephemeris (Skyfield + JPL DE421) and against textbook formulas.

Skyfield is fed the same TT our Moment uses (``ts.tt_jd(moment.jd_tt)``), so the comparisons test
the ephemeris, the apparent-place reduction and the frames, not two Delta T models.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from skyfield.api import wgs84
from skyfield.framelib import ICRS_to_J2000, ecliptic_frame, ecliptic_J2000_frame
from skyfield.functions import mxv, rot_x
from skyfield.nutationlib import iau2000a, mean_obliquity
from skyfield.vectorlib import VectorFunction

from kernel import engine
from kernel.ayanamshas import parse_ayanamsha
from kernel.bodies import engine_number, resolve_bodies
from kernel.conditions import EPHEMERIS_FALLBACK
from kernel.errors import BodyNotEligible, OutOfRange
from kernel.positions import (
    CalcFlags,
    EclipticPosition,
    EquatorialPosition,
    Observer,
    ayanamsha_value,
    compute_positions,
    obliquity_deg,
)
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import DE421_TARGETS, de421, timescale

ARCSEC = 1.0 / 3600.0

# Sun and planets: Swiss Ephemeris (compressed DE431) and DE421 agree to a few milliarcseconds
# for the inner planets and ~0.3" for Uranus..Pluto (DE421's outer orbits are older fits); the
# two reductions (IAU 2000B vs 2000A nutation, deflection) add milliarcseconds. Bound: 1".
PLANET_TOLERANCE_DEG = 1.0 * ARCSEC
# The Moon: same ephemeris family, but it moves ~0.5"/s, so any timing mismatch shows first. 2".
MOON_TOLERANCE_DEG = 2.0 * ARCSEC

# 40 deterministic dates spread over DE421's span 1900-2050, with a drifting time of day.
JD_UT1_1900 = 2415021.0  # 1900-01-01 12h
JD_UT1_2050 = 2469807.0  # 2050-12-31 12h
COMPARISON_JDS = [JD_UT1_1900 + (JD_UT1_2050 - JD_UT1_1900) * i / 39 + 0.137 * i for i in range(40)]
PLANET_NAMES = list(DE421_TARGETS)


def tolerance_for(body: str) -> float:
    return MOON_TOLERANCE_DEG if body == "moon" else PLANET_TOLERANCE_DEG


def angle_diff_deg(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@functools.cache
def skyfield_apparent(jd_ut1: float, target: str):
    """Skyfield's apparent geocentric place of a DE421 target at our moment's TT."""
    moment = Moment.from_jd_ut1(jd_ut1)
    ts, eph = timescale(), de421()
    t = ts.tt_jd(moment.jd_tt)
    return eph["earth"].at(t).observe(eph[target]).apparent()


def skyfield_true_obliquity_deg(jd_tt: float) -> float:
    """Mean obliquity (IAU 2006) + nutation in obliquity (IAU 2000A), from Skyfield's nutationlib."""
    _, d_eps = iau2000a(jd_tt)  # units of 0.1 microarcsecond
    return (mean_obliquity(jd_tt) + d_eps * 1e-7) * ARCSEC


# --- ecliptic and equatorial places of date -------------------------------------------------------


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS, ids=lambda jd: f"jd{jd:.1f}")
def test_apparent_ecliptic_longitude_and_latitude_of_date_match_skyfield(jd_ut1):
    records = compute_positions(Moment.from_jd_ut1(jd_ut1), PLANET_NAMES, CalcFlags()).records
    for record in records:
        lat, lon, _ = skyfield_apparent(jd_ut1, DE421_TARGETS[record.body]).frame_latlon(ecliptic_frame)
        assert angle_diff_deg(record.longitude, lon.degrees) < tolerance_for(record.body), record.body
        assert abs(record.latitude - lat.degrees) < tolerance_for(record.body), record.body


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS, ids=lambda jd: f"jd{jd:.1f}")
def test_apparent_right_ascension_and_declination_of_date_match_skyfield(jd_ut1):
    records = compute_positions(Moment.from_jd_ut1(jd_ut1), PLANET_NAMES, CalcFlags(equatorial=True)).records
    for record in records:
        ra, dec, _ = skyfield_apparent(jd_ut1, DE421_TARGETS[record.body]).radec(epoch="date")
        assert angle_diff_deg(record.right_ascension, ra._degrees) < tolerance_for(record.body), record.body
        assert abs(record.declination - dec.degrees) < tolerance_for(record.body), record.body
        assert 0.0 <= record.right_ascension < 360.0


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::4], ids=lambda jd: f"jd{jd:.1f}")
def test_declination_is_the_ecliptic_place_rotated_by_the_obliquity_of_date(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    eps = math.radians(skyfield_true_obliquity_deg(moment.jd_tt))
    for record in compute_positions(moment, PLANET_NAMES, CalcFlags()).records:
        lat, lon, _ = skyfield_apparent(jd_ut1, DE421_TARGETS[record.body]).frame_latlon(ecliptic_frame)
        beta, lam = lat.radians, lon.radians
        # sin(dec) = sin(beta) cos(eps) + cos(beta) sin(eps) sin(lambda)
        dec = math.degrees(math.asin(math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam)))
        assert abs(record.declination - dec) < tolerance_for(record.body), record.body


def test_declination_is_not_the_ecliptic_latitude():
    # At the June solstice the Sun sits on the ecliptic (latitude ~0) at declination ~ +23.4°.
    sun = compute_positions(Moment.from_iso("2024-06-20T20:51:00Z"), ["sun"], CalcFlags()).records[0]
    assert abs(sun.latitude) < 1.0 * ARCSEC
    assert sun.declination == pytest.approx(23.44, abs=0.01)


# Swiss Ephemeris's obliquity (IAU 2006 + 2000B nutation) vs Skyfield's (IAU 2006 + 2000A): the
# nutation models differ by < 1 mas. 0.01":
OBLIQUITY_TOLERANCE_DEG = 0.01 * ARCSEC


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::5], ids=lambda jd: f"jd{jd:.1f}")
def test_true_obliquity_of_date_matches_skyfield(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    assert abs(obliquity_deg(moment) - skyfield_true_obliquity_deg(moment.jd_tt)) < OBLIQUITY_TOLERANCE_DEG


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::3], ids=lambda jd: f"jd{jd:.1f}")
def test_out_of_bounds_is_exactly_declination_beyond_the_true_obliquity(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    eps = obliquity_deg(moment)
    for flags in (CalcFlags(), CalcFlags(equatorial=True)):
        for record in compute_positions(moment, resolve_bodies(["all"]), flags).records:
            assert record.out_of_bounds == (abs(record.declination) > eps), record.body


def test_moon_at_the_2025_major_standstill_is_out_of_bounds():
    # 2025-02-22 21h UTC: the Moon near declination -28.7° (major lunar standstill, 2024-2025).
    moment = Moment.from_iso("2025-02-22T21:00:00Z")
    _, dec, _ = skyfield_apparent(moment.jd_ut1, "moon").radec(epoch="date")
    assert dec.degrees < -28.0  # the independent ephemeris agrees it is far south of -23.44°
    moon, sun = compute_positions(moment, ["moon", "sun"], CalcFlags()).records
    assert moon.out_of_bounds is True
    assert sun.out_of_bounds is False


# --- sidereal mode -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["lahiri", "fagan_bradley", "raman", "true_citra", "galcent_0sag"])
def test_sidereal_longitude_is_tropical_less_ayanamsha_and_declination_unchanged(name):
    ayanamsha = parse_ayanamsha(name)
    bodies = resolve_bodies(["all"])
    for jd_ut1 in COMPARISON_JDS[::8]:
        moment = Moment.from_jd_ut1(jd_ut1)
        tropical = compute_positions(moment, bodies, CalcFlags()).records
        sidereal = compute_positions(moment, bodies, CalcFlags(sidereal=ayanamsha)).records
        value = ayanamsha_value(moment, ayanamsha)
        for t, s in zip(tropical, sidereal):
            # Subtraction in Swiss Ephemeris itself: agreement to float rounding (1e-9°).
            assert angle_diff_deg(s.longitude, t.longitude - value) < 1e-9, (name, t.body)
            assert s.latitude == pytest.approx(t.latitude, abs=1e-9)
            assert s.declination == t.declination
            assert s.out_of_bounds == t.out_of_bounds


def test_sidereal_mode_does_not_rotate_equatorial_coordinates():
    moment = Moment.from_jd_ut1(COMPARISON_JDS[17])
    bodies = resolve_bodies(["all"])
    tropical = compute_positions(moment, bodies, CalcFlags(equatorial=True)).records
    sidereal = compute_positions(moment, bodies, CalcFlags(equatorial=True, sidereal=parse_ayanamsha("lahiri"))).records
    assert sidereal == tropical


# The Lahiri ayanamsha is defined (Indian Calendar Reform Committee, 1955; Indian Astronomical
# Ephemeris) as 23°15'00.658" on 1956-03-21 0h TT, a true value (with nutation). Removing the
# nutation in longitude there (IAU 2000A via Skyfield, +16.78") and advancing by the IAU 2006
# general precession in longitude (Capitaine et al. 2003: 5028.796195" T + 1.1054348" T², T in
# Julian centuries) gives the mean ayanamsha at J2000.0: 23°51'25.8". Swiss Ephemeris carries
# the precession along the moving ecliptic, which differs by a few tenths of an arcsecond: 1".
LAHIRI_DEFINITION_ARCSEC = 23 * 3600 + 15 * 60 + 0.658
LAHIRI_DEFINITION_JD_TT = 2435553.5
LAHIRI_TOLERANCE_DEG = 1.0 * ARCSEC


def test_lahiri_ayanamsha_at_j2000_follows_its_published_definition():
    d_psi, _ = iau2000a(LAHIRI_DEFINITION_JD_TT)
    mean_at_definition = LAHIRI_DEFINITION_ARCSEC - d_psi * 1e-7
    moment = Moment.from_jd_ut1(2451545.0)
    t = (moment.jd_tt - LAHIRI_DEFINITION_JD_TT) / 36525.0
    expected_mean_deg = (mean_at_definition + 5028.796195 * t + 1.1054348 * t * t) * ARCSEC
    lahiri = parse_ayanamsha("lahiri")
    assert ayanamsha_value(moment, lahiri, no_nutation=True) == pytest.approx(
        expected_mean_deg, abs=LAHIRI_TOLERANCE_DEG
    )
    # The true value (what sidereal longitudes use) adds the nutation in longitude of the day.
    d_psi_2000, _ = iau2000a(moment.jd_tt)
    expected_true_deg = expected_mean_deg + d_psi_2000 * 1e-7 * ARCSEC
    assert ayanamsha_value(moment, lahiri) == pytest.approx(expected_true_deg, abs=LAHIRI_TOLERANCE_DEG)
    assert 23.85 < ayanamsha_value(moment, lahiri) < 23.86  # 23°51'


# --- nodes and apogees ---------------------------------------------------------------------------

# Meeus, Astronomical Algorithms (2nd ed.), ch. 47: mean elements of the lunar orbit referred to
# the mean equinox of date, T in Julian centuries TT from J2000. Swiss Ephemeris uses the fuller
# ELP 2000 series; over 1900-2050 the truncated polynomials agree to well under 1".
MEAN_NODE_TOLERANCE_DEG = 1.0 * ARCSEC
# The apogee lies on the inclined orbit: its ecliptic longitude and latitude follow from the
# orbital one by the reduction to the ecliptic with the mean inclination 5.1453964° (Meeus
# ch. 47); the inclination's small periodic terms that Swiss Ephemeris keeps give ~1". 3":
MEAN_APOGEE_LONGITUDE_TOLERANCE_DEG = 3.0 * ARCSEC
MEAN_APOGEE_LATITUDE_TOLERANCE_DEG = 1.0 * ARCSEC
MEAN_LUNAR_INCLINATION_DEG = 5.1453964


def meeus_mean_node_deg(t: float) -> float:
    return 125.04452 - 1934.136261 * t + 0.0020708 * t**2 + t**3 / 450000.0


def meeus_mean_apogee_orbital_deg(t: float) -> float:
    mean_longitude = 218.3164477 + 481267.88123421 * t - 0.0015786 * t**2 + t**3 / 538841.0 - t**4 / 65194000.0
    mean_anomaly = 134.9633964 + 477198.8675055 * t + 0.0087414 * t**2 + t**3 / 69699.0 - t**4 / 14712000.0
    return mean_longitude - mean_anomaly + 180.0  # perigee = L' - M'; apogee opposite


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS, ids=lambda jd: f"jd{jd:.1f}")
def test_mean_node_and_mean_apogee_match_meeus(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    t = (moment.jd_tt - 2451545.0) / 36525.0
    node, apogee = compute_positions(moment, ["mean_node", "mean_apogee"], CalcFlags(no_nutation=True)).records
    omega = meeus_mean_node_deg(t)
    assert angle_diff_deg(node.longitude, omega) < MEAN_NODE_TOLERANCE_DEG
    inclination = math.radians(MEAN_LUNAR_INCLINATION_DEG)
    u = math.radians(meeus_mean_apogee_orbital_deg(t) - omega)  # argument of latitude of the apogee
    longitude = omega + math.degrees(math.atan2(math.cos(inclination) * math.sin(u), math.cos(u)))
    latitude = math.degrees(math.asin(math.sin(inclination) * math.sin(u)))
    assert angle_diff_deg(apogee.longitude, longitude) < MEAN_APOGEE_LONGITUDE_TOLERANCE_DEG
    assert abs(apogee.latitude - latitude) < MEAN_APOGEE_LATITUDE_TOLERANCE_DEG


def test_lilith_is_the_mean_apogee_under_its_own_name():
    moment = Moment.from_jd_ut1(COMPARISON_JDS[3])
    lilith = compute_positions(moment, ["lilith"], CalcFlags()).records[0]
    apogee = compute_positions(moment, ["mean_apogee"], CalcFlags()).records[0]
    assert lilith.body == "lilith" and apogee.body == "mean_apogee"
    assert lilith.longitude == apogee.longitude


# True node = ascending node of the osculating geocentric lunar orbit: node direction = z × h,
# h = r × v, with the Moon's geometric geocentric position and velocity from DE421 rotated into
# the true ecliptic and equinox of date. DE421 and DE431 lunar states differ by metres and mm/s;
# neglecting the slow rotation of the frame itself (precession-nutation) costs < 0.1". 0.5":
TRUE_NODE_TOLERANCE_DEG = 0.5 * ARCSEC


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS, ids=lambda jd: f"jd{jd:.1f}")
def test_true_node_is_the_node_of_the_osculating_lunar_orbit(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    eph = de421()
    t = timescale().tt_jd(moment.jd_tt)
    state = (eph["moon"] - eph["earth"]).at(t)
    rotation = ecliptic_frame.rotation_at(t)
    r = mxv(rotation, state.position.au)
    v = mxv(rotation, state.velocity.au_per_d)
    node = np.cross([0.0, 0.0, 1.0], np.cross(r, v))
    expected = math.degrees(math.atan2(node[1], node[0])) % 360.0
    true_node = compute_positions(moment, ["true_node"], CalcFlags()).records[0]
    assert angle_diff_deg(true_node.longitude, expected) < TRUE_NODE_TOLERANCE_DEG


# --- asteroids -----------------------------------------------------------------------------------

# Geometric heliocentric ICRS state, no light time or aberration (what we hand to Skyfield).
HELIO_GEOMETRIC_ICRS = (
    engine.FLG_HELCTR
    | engine.FLG_J2000
    | engine.FLG_ICRS
    | engine.FLG_EQUATORIAL
    | engine.FLG_XYZ
    | engine.FLG_TRUEPOS
    | engine.FLG_NOABERR
    | engine.FLG_NOGDEFL
    | engine.FLG_SPEED
)


class SwissHeliocentricState(VectorFunction):
    """A Skyfield vector Sun -> asteroid whose state is Swiss Ephemeris's geometric heliocentric one."""

    center = 10  # the Sun in DE421
    ephemeris = None

    def __init__(self, name: str):
        self.target = name
        self.number = engine_number(name)

    @property
    def target_name(self):
        return self.target

    @property
    def vector_name(self):
        return f"Swiss Ephemeris {self.target}"

    def _at(self, t):
        jd_tt = float(t.tt)
        jd_ut1 = jd_tt - engine.delta_t_days(jd_tt)  # Delta T changes by < 1e-8 s/s: exact enough
        values = engine.calc_body(jd_ut1, self.number, HELIO_GEOMETRIC_ICRS).values
        return np.array(values[:3]), np.array(values[3:]), None, None


# Independent check of the apparent-place pipeline for asteroids: Swiss Ephemeris's own
# heliocentric orbit of the asteroid is placed at DE421's Sun, then Skyfield alone does the
# observing: DE421 Earth, light-time iteration, aberration, light deflection, frame of date. Only
# the reduction and the Earth/Sun ephemerides are compared (the orbit is the same), so the
# bound is the planets' reduction agreement: 0.05".
ASTEROID_REDUCTION_TOLERANCE_DEG = 0.05 * ARCSEC


@pytest.mark.parametrize("name", ["chiron", "pholus", "ceres", "pallas", "juno", "vesta"])
def test_asteroid_apparent_place_matches_skyfields_reduction_of_its_orbit(name):
    eph = de421()
    target = eph["sun"] + SwissHeliocentricState(name)
    for jd_ut1 in COMPARISON_JDS[::4]:
        moment = Moment.from_jd_ut1(jd_ut1)
        t = timescale().tt_jd(moment.jd_tt)
        lat, lon, _ = eph["earth"].at(t).observe(target).apparent().frame_latlon(ecliptic_frame)
        record = compute_positions(moment, [name], CalcFlags()).records[0]
        assert angle_diff_deg(record.longitude, lon.degrees) < ASTEROID_REDUCTION_TOLERANCE_DEG
        assert abs(record.latitude - lat.degrees) < ASTEROID_REDUCTION_TOLERANCE_DEG


# The orbit itself: heliocentric distances must stay between perihelion and aphelion of the
# osculating elements published by JPL's Small-Body Database (Ceres a = 2.77 AU, e = 0.079:
# q = 2.55, Q = 2.99; Chiron a = 13.7 AU, e = 0.38: q = 8.5, Q = 18.9), widened by the
# planetary perturbations of the elements over 150 years (0.05 AU and 0.5 AU).
ORBIT_BOUNDS_AU = {"ceres": (2.50, 3.04), "chiron": (8.0, 19.4)}


@pytest.mark.parametrize("name", sorted(ORBIT_BOUNDS_AU))
def test_asteroid_heliocentric_distance_stays_within_its_published_orbit(name):
    low, high = ORBIT_BOUNDS_AU[name]
    distances = [
        compute_positions(Moment.from_jd_ut1(jd), [name], CalcFlags(heliocentric=True)).records[0].distance
        for jd in COMPARISON_JDS
    ]
    assert low < min(distances) and max(distances) < high


def test_asteroid_before_the_files_is_out_of_range_about_the_moment():
    with pytest.raises(OutOfRange) as caught:
        compute_positions(Moment.from_iso("1100-01-01T00:00:00Z"), ["sun", "chiron"], CalcFlags())
    error = caught.value
    assert error.code == "out_of_range" and error.http_status == 400
    assert error.about == "moment" and error.param is None
    assert "chiron" in error.message and "1200" in error.message
    assert (
        "PATH" not in error.message and ".se1" not in error.message and "data/" not in error.message
    )  # no server paths
    with pytest.raises(OutOfRange) as caught_jd:
        compute_positions(Moment.from_jd_ut1(2100000.5), ["ceres"], CalcFlags())
    assert caught_jd.value.about == "moment"


def test_planets_and_moon_outside_the_files_fall_back_with_a_condition():
    moment = Moment.from_iso("1100-01-01T00:00:00Z")
    result = compute_positions(moment, ["sun", "moon", "mars", "mean_node"], CalcFlags())
    assert [r.body for r in result.records] == ["sun", "moon", "mars", "mean_node"]
    assert [c.kind for c in result.conditions] == [EPHEMERIS_FALLBACK]
    message = result.conditions[0].message
    assert "Moshier" in message and "sun, moon, mars" in message
    assert "mean_node" not in message  # an analytic point needs no files


def test_no_fallback_condition_inside_the_files():
    assert (
        compute_positions(Moment.from_jd_ut1(COMPARISON_JDS[0]), resolve_bodies(["all"]), CalcFlags()).conditions == []
    )


# --- the other flags -----------------------------------------------------------------------------

# Topocentric: Skyfield places the observer on the WGS84 ellipsoid with its own UT1, which may
# differ from ours by ~0.3 s; the lunar parallax (up to 1°) is reproduced to well under 1".
TOPOCENTRIC_TOLERANCE_DEG = 1.0 * ARCSEC
PARIS = Observer(latitude_deg=48.85, longitude_deg=2.35, altitude_m=35.0)


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::4], ids=lambda jd: f"jd{jd:.1f}")
def test_topocentric_moon_and_mars_match_skyfield(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    eph = de421()
    t = timescale().tt_jd(moment.jd_tt)
    place = eph["earth"] + wgs84.latlon(PARIS.latitude_deg, PARIS.longitude_deg, elevation_m=PARIS.altitude_m)
    records = compute_positions(moment, ["moon", "mars"], CalcFlags(topocentric=True), PARIS).records
    for record in records:
        lat, lon, _ = place.at(t).observe(eph[DE421_TARGETS[record.body]]).apparent().frame_latlon(ecliptic_frame)
        assert angle_diff_deg(record.longitude, lon.degrees) < TOPOCENTRIC_TOLERANCE_DEG
        assert abs(record.latitude - lat.degrees) < TOPOCENTRIC_TOLERANCE_DEG


# Heliocentric: the place seen from the Sun with light time (Skyfield: sun.observe(body),
# astrometric). Agreement ~0.1"; bound 0.5".
HELIOCENTRIC_TOLERANCE_DEG = 0.5 * ARCSEC


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::4], ids=lambda jd: f"jd{jd:.1f}")
def test_heliocentric_earth_and_planets_match_skyfield(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    eph = de421()
    t = timescale().tt_jd(moment.jd_tt)
    records = compute_positions(moment, ["earth", "mars", "jupiter"], CalcFlags(heliocentric=True)).records
    for record, target in zip(records, ["earth", "mars barycenter", "jupiter barycenter"]):
        lat, lon, _ = eph["sun"].at(t).observe(eph[target]).frame_latlon(ecliptic_frame)
        assert angle_diff_deg(record.longitude, lon.degrees) < HELIOCENTRIC_TOLERANCE_DEG
        assert abs(record.latitude - lat.degrees) < HELIOCENTRIC_TOLERANCE_DEG


def test_heliocentric_sun_and_topocentric_heliocentric_are_refused():
    # Names are resolved (and the sun refused) before the kernel computes; the pairing of
    # topocentric with heliocentric is refused by the request reader (test_wire.py) and
    # guarded here.
    moment = Moment.from_jd_ut1(COMPARISON_JDS[0])
    with pytest.raises(BodyNotEligible):
        resolve_bodies(["sun"], heliocentric=True)
    with pytest.raises(ValueError):
        compute_positions(moment, ["earth"], CalcFlags(heliocentric=True, topocentric=True), PARIS)


# j2000: ecliptic of J2000 (Skyfield's ecliptic_J2000_frame) and the ICRS/J2000 equator.
# no_nutation: mean ecliptic and equator of date (Skyfield: precession and frame bias only).
# Same reduction agreement as above, bound 0.1".
FRAME_FLAG_TOLERANCE_DEG = 0.1 * ARCSEC


def _unit_to_lon_lat(v) -> tuple[float, float]:
    x, y, z = v
    return math.degrees(math.atan2(y, x)) % 360.0, math.degrees(math.asin(z / math.sqrt(x * x + y * y + z * z)))


@pytest.mark.parametrize("jd_ut1", COMPARISON_JDS[::5], ids=lambda jd: f"jd{jd:.1f}")
def test_j2000_and_no_nutation_flags_use_their_frames_for_longitude_and_declination(jd_ut1):
    moment = Moment.from_jd_ut1(jd_ut1)
    names = ["sun", "moon", "jupiter"]
    j2000 = compute_positions(moment, names, CalcFlags(j2000=True)).records
    mean = compute_positions(moment, names, CalcFlags(no_nutation=True)).records
    t = timescale().tt_jd(moment.jd_tt)
    mean_eps = math.radians(mean_obliquity(moment.jd_tt) * ARCSEC)
    for rj, rm in zip(j2000, mean):
        apparent = skyfield_apparent(jd_ut1, DE421_TARGETS[rj.body])
        lat, lon, _ = apparent.frame_latlon(ecliptic_J2000_frame)
        assert angle_diff_deg(rj.longitude, lon.degrees) < FRAME_FLAG_TOLERANCE_DEG
        assert abs(rj.latitude - lat.degrees) < FRAME_FLAG_TOLERANCE_DEG
        _, dec_icrs, _ = apparent.radec()
        assert abs(rj.declination - dec_icrs.degrees) < FRAME_FLAG_TOLERANCE_DEG
        mean_equatorial = mxv(t.precession_matrix(), mxv(ICRS_to_J2000, apparent.position.au))
        lon_m, lat_m = _unit_to_lon_lat(mxv(rot_x(-mean_eps), mean_equatorial))
        _, dec_m = _unit_to_lon_lat(mean_equatorial)
        assert angle_diff_deg(rm.longitude, lon_m) < FRAME_FLAG_TOLERANCE_DEG
        assert abs(rm.latitude - lat_m) < FRAME_FLAG_TOLERANCE_DEG
        assert abs(rm.declination - dec_m) < FRAME_FLAG_TOLERANCE_DEG


def test_speed_false_leaves_speed_and_retrograde_null():
    moment = Moment.from_jd_ut1(COMPARISON_JDS[5])
    ecliptic = compute_positions(moment, ["sun", "mercury"], CalcFlags(speed=False)).records
    assert all(r.speed is None and r.retrograde is None for r in ecliptic)
    equatorial = compute_positions(moment, ["sun"], CalcFlags(speed=False, equatorial=True)).records
    assert equatorial[0].ra_speed is None and equatorial[0].dec_speed is None
    with_speed = compute_positions(moment, ["sun", "mercury"], CalcFlags()).records
    assert [r.longitude for r in ecliptic] == pytest.approx([r.longitude for r in with_speed], abs=1e-12)


def test_retrograde_is_negative_speed_and_mean_node_is_always_retrograde():
    for jd_ut1 in COMPARISON_JDS[::7]:
        for record in compute_positions(Moment.from_jd_ut1(jd_ut1), resolve_bodies(["planets"]), CalcFlags()).records:
            assert record.retrograde == (record.speed < 0)
            if record.body == "sun":
                assert record.speed == pytest.approx(0.9856, abs=0.035)  # 0.953..1.019 °/day over the year
            if record.body == "mean_node":
                assert record.retrograde is True


def test_record_shapes_follow_the_spec():
    moment = Moment.from_jd_ut1(COMPARISON_JDS[5])
    ecliptic = compute_positions(moment, ["venus"], CalcFlags()).records[0]
    equatorial = compute_positions(moment, ["venus"], CalcFlags(equatorial=True)).records[0]
    assert isinstance(ecliptic, EclipticPosition) and isinstance(equatorial, EquatorialPosition)
    assert list(ecliptic.as_dict()) == [
        "body",
        "longitude",
        "latitude",
        "distance",
        "speed",
        "sign",
        "sign_degree",
        "retrograde",
        "declination",
        "out_of_bounds",
    ]
    assert list(equatorial.as_dict()) == [
        "body",
        "right_ascension",
        "declination",
        "distance",
        "ra_speed",
        "dec_speed",
        "out_of_bounds",
    ]
    assert ecliptic.sign[0].isupper() and 0.0 <= ecliptic.sign_degree < 30.0


def test_a_natal_set_asks_the_engine_twice_a_body_and_once_for_the_obliquity(monkeypatch):
    # Each body's ecliptic position, then its declination; the obliquity once for the set
    # (out_of_bounds). An extra engine call per body would multiply the cost of every chart
    # (its time is a figure of bench/kernel_costs.py).
    moment = Moment.from_jd_ut1(COMPARISON_JDS[20])
    bodies = resolve_bodies(["planets"])
    calls = []
    calc_ut = engine.swe.calc_ut
    monkeypatch.setattr(engine.swe, "calc_ut", lambda *args: calls.append(args[1]) or calc_ut(*args))
    compute_positions(moment, bodies, CalcFlags())
    assert len(calls) == 2 * len(bodies) + 1
    assert calls.count(engine.swe.ECL_NUT) == 1
