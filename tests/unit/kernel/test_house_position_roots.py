"""kernel/house_position_roots.py: the numeric solve of cusp lines against spherical trigonometry
done here by hand (Meeus, Astronomical Algorithms, 2nd ed., ch. 13: ecliptic to equatorial; the
rising of a point at hour angle -acos(-tan φ tan δ)): the MC line where the body's longitude (or,
in mundane mode, the body) culminates, the Ascendant line where it rises; and a point's place
among cusps and Gauquelin's sectors counted as houses, by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kernel.house_position_roots import as_house_value, cusp_line_armcs, cusp_line_crossings, position_among_cusps

OBLIQUITY = 23.44
LATITUDES = np.array([-60.0, -45.0, -20.0, 0.0, 15.0, 40.0, 60.0])
# The root is refined to 1e-10 house (3e-9° of house arc) or 1e-9° of ARMC; 1e-6° of ARMC
# leaves room for Swiss Ephemeris's rounding of cusps and house positions.
ARMC_TOLERANCE_DEG = 1e-6
QUADRANT_SYSTEMS = ["P", "K", "O", "R", "C"]  # Placidus, Koch, Porphyry, Regiomontanus, Campanus


def equatorial(longitude_deg: float, latitude_deg: float) -> tuple[float, float]:
    """Return (right ascension, declination) in degrees of an ecliptic point (Meeus 13.3, 13.4)."""
    lam, beta, eps = map(math.radians, (longitude_deg, latitude_deg, OBLIQUITY))
    alpha = math.atan2(math.sin(lam) * math.cos(eps) - math.tan(beta) * math.sin(eps), math.cos(lam))
    delta = math.asin(math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam))
    return math.degrees(alpha) % 360.0, math.degrees(delta)


def rising_armc(longitude_deg: float, latitude_deg: float, phi_deg: float) -> float:
    """Return the ARMC (degrees) at which the point rises at latitude ``phi_deg``: the sidereal
    time at which its hour angle is -acos(-tan φ tan δ)."""
    alpha, delta = equatorial(longitude_deg, latitude_deg)
    hour_angle = math.degrees(math.acos(-math.tan(math.radians(phi_deg)) * math.tan(math.radians(delta))))
    return (alpha - hour_angle) % 360.0


def angle_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs((np.asarray(a) - np.asarray(b) + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("letter", QUADRANT_SYSTEMS)
@pytest.mark.parametrize("longitude", [10.0, 75.0, 200.0, 301.5])
def test_the_zodiacal_mc_line_is_where_the_bodys_longitude_culminates_at_every_latitude(letter, longitude):
    # The MC is the culminating point of the ecliptic in every quadrant system: ARMC = its right ascension.
    expected, _ = equatorial(longitude, 0.0)
    found = cusp_line_armcs(letter, 10.0, LATITUDES, OBLIQUITY, longitude, None)
    assert np.all(angle_diff(found, expected) < ARMC_TOLERANCE_DEG), found


@pytest.mark.parametrize("letter", QUADRANT_SYSTEMS)
@pytest.mark.parametrize("longitude", [10.0, 75.0, 200.0, 301.5])
def test_the_zodiacal_ascendant_line_is_where_the_bodys_longitude_rises(letter, longitude):
    expected = [rising_armc(longitude, 0.0, phi) for phi in LATITUDES]
    found = cusp_line_armcs(letter, 1.0, LATITUDES, OBLIQUITY, longitude, None)
    assert np.all(angle_diff(found, expected) < ARMC_TOLERANCE_DEG), found


MUNDANE_BODIES = [(75.0, 3.0), (200.0, -4.5), (301.5, 1.2)]


# Regiomontanus and Campanus divide circles through the meridian's north and south points, so
# their tenth cusp is the meridian for a body off the ecliptic too. Koch's is not: Swiss
# Ephemeris's Koch house position of such a body jumps at the meridian (the module's note), and
# its line is where that position, the chart's, reaches 10.
@pytest.mark.parametrize("letter", ["R", "C"])
@pytest.mark.parametrize(("longitude", "latitude"), MUNDANE_BODIES)
def test_in_mundane_mode_the_mc_line_is_where_the_body_itself_culminates(letter, longitude, latitude):
    alpha, _ = equatorial(longitude, latitude)
    culminating = cusp_line_armcs(letter, 10.0, LATITUDES, OBLIQUITY, longitude, latitude)
    assert np.all(angle_diff(culminating, alpha) < ARMC_TOLERANCE_DEG), culminating


@pytest.mark.parametrize("letter", ["K", "R", "C"])
@pytest.mark.parametrize(("longitude", "latitude"), MUNDANE_BODIES)
def test_in_mundane_mode_the_ascendant_line_is_where_the_body_itself_rises(letter, longitude, latitude):
    rising = cusp_line_armcs(letter, 1.0, LATITUDES, OBLIQUITY, longitude, latitude)
    assert np.all(
        angle_diff(rising, [rising_armc(longitude, latitude, phi) for phi in LATITUDES]) < ARMC_TOLERANCE_DEG
    ), rising


@pytest.mark.parametrize("letter", ["K", "O"])
def test_a_point_passes_each_cusp_once_a_turn_falling_with_the_diurnal_motion_at_moderate_latitudes(letter):
    # The sky turns points through the houses in falling order (1, 12, 11, 10 ...), once a day.
    for cusp in (1.0, 4.0, 7.0, 10.0, 2.5, 11.75):
        for crossings in cusp_line_crossings(letter, cusp, LATITUDES[1:-1], OBLIQUITY, 75.0, None):
            assert len(crossings) == 1 and crossings[0].falling, (cusp, crossings)


def test_skipped_rows_have_no_line():
    skip = np.array([True, False, False, False, False, False, False])
    found = cusp_line_armcs("K", 10.0, LATITUDES, OBLIQUITY, 75.0, None, skip=skip)
    assert np.isnan(found[0]) and np.all(np.isfinite(found[1:]))


# Koch inside the polar circles has no cusps (kernel/houses.py), so its rows stop at 65°.
@pytest.mark.parametrize(
    ("letter", "rows"), [("K", [-65.0, 65.0]), ("R", [-70.0, -65.0, 65.0, 70.0]), ("C", [-70.0, -65.0, 65.0, 70.0])]
)
def test_where_the_body_never_rises_or_never_sets_it_draws_no_mundane_ascendant_line(letter, rows):
    # A body at declination +27° never sets north of latitude 63° nor rises south of -63°.
    longitude, latitude = 90.0, 3.56
    assert equatorial(longitude, latitude)[1] == pytest.approx(27.0, abs=1e-9)
    assert np.all(np.isnan(cusp_line_armcs(letter, 1.0, np.array(rows), OBLIQUITY, longitude, latitude)))


def test_a_point_among_equal_cusps_is_its_house_plus_the_fraction_of_the_house_crossed():
    equal = np.array([[30.0 * k for k in range(12)]])
    for longitude, expected in [(0.0, 1.0), (45.0, 2.5), (359.0, 12.0 + 29.0 / 30.0), (180.0, 7.0)]:
        assert position_among_cusps(longitude, equal)[0] == pytest.approx(expected, abs=1e-12)


def test_a_point_among_unequal_cusps_counts_the_fraction_of_its_own_house_and_a_row_without_cusps_stays_empty():
    # House 1 from 350° to 20° (30°), house 2 from 20° to 60° (40°), the rest 27° 20' each.
    cusps = [350.0, 20.0] + [60.0 + 290.0 / 10.0 * k for k in range(10)]
    table = np.array([cusps, [np.nan] * 12])
    found = position_among_cusps(5.0, table)
    assert found[0] == pytest.approx(1.5, abs=1e-12) and np.isnan(found[1])
    assert position_among_cusps(50.0, table[:1])[0] == pytest.approx(2.75, abs=1e-12)


def test_cusps_running_against_the_zodiac_are_counted_the_way_they_run():
    # Thirty-six sectors of 10° each running backward from 100°, as Gauquelin's do.
    sectors = np.array([[(100.0 - 10.0 * k) % 360.0 for k in range(36)]])
    assert position_among_cusps(95.0, sectors)[0] == pytest.approx(1.5, abs=1e-12)
    assert position_among_cusps(105.0, sectors)[0] == pytest.approx(36.5, abs=1e-12)


@pytest.mark.parametrize(
    ("sector", "house"), [(1.0, 1.0), (10.0, 10.0), (19.0, 7.0), (28.0, 4.0), (2.5, 12.5), (36.5, 1.0 + 1.0 / 6.0)]
)
def test_gauquelin_sectors_count_as_houses_rising_culminating_setting_and_lower_meridian(sector, house):
    # Gauquelin's sector 1 begins at the rising, 10 at culmination, 19 at setting, 28 at the
    # lower meridian, three sectors to a house and running the other way from the houses:
    # half of sector 36, the last before the rising, is a sixth of a house above it.
    assert float(as_house_value(sector, "G")) == pytest.approx(house, abs=1e-12)


def test_other_systems_house_positions_are_already_house_values():
    assert float(as_house_value(7.25, "P")) == 7.25
