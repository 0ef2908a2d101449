"""Astrocartography lines against Skyfield (DE421) and against Swiss Ephemeris's own houses
cast at points on the lines (interface.md, /v1/astrocartography and its result)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from skyfield.framelib import ecliptic_frame
from skyfield.nutationlib import iau2000a, mean_obliquity

from shared.errors import InvalidParameter
from shared.kernel import engine
from shared.kernel.astrocartography import (
    ANTIMERIDIAN,
    CIRCUMPOLAR,
    CUSP_LINE_SOLVERS,
    DISCONTINUITY,
    HOUSE_SYSTEM_UNDEFINED,
    LATITUDE_LIMIT,
    MUNDANE,
    NO_SOLUTION,
    ZODIACAL,
    Sky,
    check_cusp_line_system,
    check_cusp_value,
    latitude_rows,
    line_longitudes,
    line_segments,
    parse_angle,
    segments,
)
from shared.kernel.earth_rotation import sidereal_time
from shared.kernel.houses import parse_house_system
from shared.kernel.positions import CalcFlags, compute_positions, obliquity_deg
from shared.kernel.timescale import Moment
from tests.unit.skyfield_reference import DE421_TARGETS, de421, timescale

MOMENTS = [Moment.from_iso(t) for t in ("1955-07-04T03:20:00Z", "1990-06-15T14:30:00Z", "2024-03-20T12:00:00Z", "2040-11-30T22:05:00Z")]
BODIES = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "pluto"]
ROWS = latitude_rows(1.0, 89.0)
SAMPLED = [-66.0, -45.0, -20.0, 0.0, 15.0, 40.0, 51.0, 60.0, 66.0]


def angle_diff(a, b):
    return np.abs((np.asarray(a) - np.asarray(b) + 180.0) % 360.0 - 180.0)


def sky_of(moment: Moment) -> Sky:
    return Sky(sidereal_time(moment).gast_degrees, obliquity_deg(moment))


def skyfield_place(moment: Moment, body: str):
    """Skyfield's apparent (RA, Dec) of date and ecliptic (lon, lat) of date, degrees, and GAST in degrees."""
    t = timescale().tt_jd(moment.jd_tt)
    ephemeris = de421()
    apparent = ephemeris["earth"].at(t).observe(ephemeris[DE421_TARGETS[body]]).apparent()
    ra, dec, _ = apparent.radec(epoch="date")
    lat, lon, _ = apparent.frame_latlon(ecliptic_frame)
    return ra._degrees, dec.degrees, lon.degrees, lat.degrees, timescale().ut1_jd(moment.jd_ut1).gast * 15.0


def skyfield_true_obliquity(moment: Moment) -> float:
    _, d_eps = iau2000a(moment.jd_tt)
    return math.degrees(mean_obliquity(moment.jd_tt) / 3600.0 * math.pi / 180.0) + d_eps / 1e7 / 3600.0


def our_body(moment: Moment, body: str) -> tuple[float, float]:
    (record,) = compute_positions(moment, [body], CalcFlags()).records
    return record.longitude, record.latitude


# MC and IC: a meridian at the body's right ascension minus sidereal time. Our positions and
# Skyfield's (DE421) agree to 1-2"; the bound 0.01° is the issue's.
MERIDIAN_TOLERANCE_DEG = 0.01


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: m.instant()["datetime"][:10])
@pytest.mark.parametrize("body", BODIES)
def test_mundane_midheaven_and_imum_coeli_lines_are_the_apparent_right_ascension_minus_sidereal_time(moment, body):
    ra, _, _, _, gast = skyfield_place(moment, body)
    longitude, latitude = our_body(moment, body)
    for angle, offset in (("midheaven", 0.0), ("imum_coeli", 180.0)):
        found, _ = line_longitudes(sky_of(moment), ROWS, longitude, latitude, angle=angle, mode=MUNDANE)
        assert np.all(angle_diff(found, ra + offset - gast) < MERIDIAN_TOLERANCE_DEG)


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: m.instant()["datetime"][:10])
@pytest.mark.parametrize("body", ["moon", "pluto", "venus"])
def test_zodiacal_midheaven_lines_put_the_bodys_ecliptic_longitude_on_the_mc(moment, body):
    # Independently: the right ascension of the ecliptic point at Skyfield's longitude.
    _, _, lon, _, gast = skyfield_place(moment, body)
    eps = math.radians(skyfield_true_obliquity(moment))
    ra_flat = math.degrees(math.atan2(math.sin(math.radians(lon)) * math.cos(eps), math.cos(math.radians(lon))))
    longitude, latitude = our_body(moment, body)
    found, _ = line_longitudes(sky_of(moment), ROWS, longitude, latitude, angle="midheaven", mode=ZODIACAL)
    assert np.all(angle_diff(found, ra_flat - gast) < MERIDIAN_TOLERANCE_DEG)


# ASC and DSC: the hour-angle formula cos H = -tan(latitude) tan(declination) with Skyfield's
# right ascension and declination. Near the circumpolar latitude H changes fast with the
# declination, so the rows compared stop 3° short of it; the bound is the 0.02°.
HORIZON_TOLERANCE_DEG = 0.02


@pytest.mark.parametrize("moment", MOMENTS, ids=lambda m: m.instant()["datetime"][:10])
@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("mode", [ZODIACAL, MUNDANE])
def test_ascendant_and_descendant_lines_follow_the_hour_angle_formula(moment, body, mode):
    ra, dec, lon, _, gast = skyfield_place(moment, body)
    if mode == ZODIACAL:
        eps = math.radians(skyfield_true_obliquity(moment))
        lam = math.radians(lon)
        ra = math.degrees(math.atan2(math.sin(lam) * math.cos(eps), math.cos(lam)))
        dec = math.degrees(math.asin(math.sin(lam) * math.sin(eps)))
    longitude, latitude = our_body(moment, body)
    rows = np.array([phi for phi in SAMPLED if abs(phi) < 87.0 - abs(dec)])
    hour_angle = np.degrees(np.arccos(-np.tan(np.radians(rows)) * math.tan(math.radians(dec))))
    for angle, sign in (("ascendant", -1.0), ("descendant", 1.0)):
        found, _ = line_longitudes(sky_of(moment), rows, longitude, latitude, angle=angle, mode=mode)
        assert np.all(angle_diff(found, ra + sign * hour_angle - gast) < HORIZON_TOLERANCE_DEG)


def test_the_modes_differ_for_a_body_off_the_ecliptic_and_agree_on_it():
    moment = MOMENTS[1]
    sky, (lon, lat) = sky_of(moment), our_body(moment, "moon")
    zodiacal, _ = line_longitudes(sky, ROWS, lon, lat, angle="ascendant", mode=ZODIACAL)
    mundane, _ = line_longitudes(sky, ROWS, lon, lat, angle="ascendant", mode=MUNDANE)
    assert abs(lat) > 1.0 and np.nanmax(angle_diff(zodiacal, mundane)) > 1.0
    on_ecliptic, _ = line_longitudes(sky, ROWS, lon, 0.0, angle="ascendant", mode=MUNDANE)
    assert np.allclose(on_ecliptic, zodiacal, equal_nan=True)


# Cusp lines, checked by casting houses with Swiss Ephemeris at points on them: in zodiacal
# mode the cusp's longitude equals the body's, in mundane mode the body's house position
# (swe.house_pos, true latitude) equals the cusp value. Both to 0.01° (0.01 house in
# mundane mode, a third of a degree of hour angle at most); they agree to microdegrees.
CUSP_TOLERANCE_DEG = 0.01


@pytest.mark.parametrize("system", list(CUSP_LINE_SOLVERS))
@pytest.mark.parametrize("mode", [ZODIACAL, MUNDANE])
def test_cusp_lines_put_the_body_on_the_cusp_in_houses_cast_by_swiss_ephemeris(system, mode):
    generator = random.Random(f"{system}-{mode}")
    letter = parse_house_system(system).letter
    moment = MOMENTS[2]
    sky = sky_of(moment)
    checked = 0
    for body in ("moon", "mars", "pluto"):
        longitude, latitude = our_body(moment, body)
        for cusp in (1.0, 2.0, 5.0, 9.0, 11.0, 12.0, round(generator.uniform(1.0, 12.99), 2)):
            rows = np.array(SAMPLED)
            found, _ = line_longitudes(sky, rows, longitude, latitude, cusp=cusp, system=system, mode=mode)
            for phi, east in zip(rows, found):
                if not np.isfinite(east) or (system == "placidus" and abs(phi) >= 90.0 - sky.obliquity_deg):
                    continue
                armc = (sky.gast_deg + east) % 360.0
                if mode == ZODIACAL and cusp == int(cusp):
                    cusps = engine.houses(moment.jd_ut1, phi, east, letter).cusps
                    assert angle_diff(cusps[int(cusp) - 1], longitude) < CUSP_TOLERANCE_DEG
                position = engine.house_position(armc, phi, sky.obliquity_deg, letter, longitude, 0.0 if mode == ZODIACAL else latitude)
                assert abs((position - cusp + 6.0) % 12.0 - 6.0) < CUSP_TOLERANCE_DEG
                checked += 1
    assert checked > 50


def test_every_house_system_draws_cusp_lines_or_is_refused_naming_the_reason():
    for system in ("placidus", "regiomontanus", "campanus", "meridian", "equal", "vehlow_equal", "equal_mc"):
        assert check_cusp_line_system(system) == system
    for system, reason in (("whole_sign", "sign boundaries"), ("koch", "closed-form")):
        with pytest.raises(InvalidParameter) as refused:
            check_cusp_line_system(system)
        assert reason in refused.value.message and refused.value.param == "system"


def test_cusp_values_lie_in_one_to_thirteen_and_angles_have_short_names():
    assert check_cusp_value(1.0) == 1.0 and check_cusp_value(12.99) == 12.99
    for bad in (0.99, 13.0, -1.0):
        with pytest.raises(InvalidParameter):
            check_cusp_value(bad)
    assert [parse_angle(a) for a in ("asc", "DSC", "mc", "ic")] == ["ascendant", "descendant", "midheaven", "imum_coeli"]
    with pytest.raises(InvalidParameter):
        parse_angle("vertex")


def test_latitude_rows_run_south_to_north_within_max_latitude():
    assert list(latitude_rows(10.0, 45.0)) == [-45.0, -35.0, -25.0, -15.0, -5.0, 5.0, 15.0, 25.0, 35.0, 45.0]
    assert latitude_rows(0.5, 89.0)[-1] == 89.0 and len(latitude_rows(0.5, 89.0)) == 357
    assert latitude_rows(7.0, 20.0)[-1] <= 20.0


def each_segment(segments_found):
    for segment in segments_found:
        assert list(segment.latitudes) == sorted(segment.latitudes)
        assert all(-180.0 < lon <= 180.0 for lon in segment.longitudes)
        assert all(abs(b - a) <= 180.0 for a, b in zip(segment.longitudes, segment.longitudes[1:]))
        yield segment


def test_segments_run_south_to_north_in_range_without_a_jump_wider_than_180():
    moment = MOMENTS[0]
    sky = sky_of(moment)
    for body in BODIES:
        lon, lat = our_body(moment, body)
        for angle in ("ascendant", "descendant", "midheaven", "imum_coeli"):
            for mode in (ZODIACAL, MUNDANE):
                assert list(each_segment(line_segments(sky, ROWS, lon, lat, angle=angle, mode=mode)))


def ends(**kwargs) -> list[str]:
    moment = MOMENTS[2]
    lon, lat = our_body(moment, kwargs.pop("body", "moon"))
    return [s.end for s in each_segment(line_segments(sky_of(moment), kwargs.pop("rows", ROWS), lon, lat, **kwargs))]


def test_a_meridian_line_reaches_the_latitude_limit_in_one_segment():
    assert ends(angle="midheaven", body="saturn", rows=latitude_rows(1.0, 60.0)) in ([LATITUDE_LIMIT], [ANTIMERIDIAN, LATITUDE_LIMIT])


def test_an_ascendant_line_ends_where_the_body_turns_circumpolar():
    # The Moon at about +19° declination never sets north of about 71°.
    found = ends(angle="ascendant", body="moon")
    assert found[-1] == CIRCUMPOLAR


def test_a_line_crossing_180_degrees_splits_there():
    moment = MOMENTS[2]
    sky = sky_of(moment)
    for body in BODIES:  # some body's ascendant or descendant line crosses the antimeridian
        lon, lat = our_body(moment, body)
        for angle in ("ascendant", "descendant"):
            found = list(each_segment(line_segments(sky, ROWS, lon, lat, angle=angle)))
            for segment, following in zip(found, found[1:]):
                if segment.end == ANTIMERIDIAN:
                    assert abs(segment.longitudes[-1] - following.longitudes[0]) > 180.0
                    assert following.latitudes[0] - segment.latitudes[-1] == pytest.approx(1.0)
                    return
    pytest.fail("no line of this moment crosses the antimeridian")


def test_placidus_cusp_lines_stop_at_the_polar_circle_as_house_system_undefined():
    found = ends(cusp=11.0, system="placidus", body="sun")
    assert HOUSE_SYSTEM_UNDEFINED in found
    assert LATITUDE_LIMIT not in found  # nothing beyond the polar circle


def test_a_cusp_that_never_reaches_the_body_on_a_row_ends_as_no_solution():
    # An equal-house cusp is the ascendant of a point some signs behind the body; where that
    # point never rises the cusp never reaches the body.
    assert NO_SOLUTION in ends(cusp=4.0, system="equal", body="sun")


def test_a_jump_wider_than_90_degrees_between_rows_is_a_discontinuity():
    # The closed-form lines vary smoothly with latitude (a random search of 20,000 lines of
    # every kind found no such jump); the split guards any row where they would not.
    found = segments(np.array([0.0, 1.0, 2.0, 3.0]), np.array([10.0, 12.0, 130.0, 131.0]), CIRCUMPOLAR)
    assert [(s.latitudes, s.end) for s in found] == [((0.0, 1.0), DISCONTINUITY), ((2.0, 3.0), LATITUDE_LIMIT)]
