"""House systems: parsing, hand-checked cusps and angles, and the polar-circle fallback."""

from __future__ import annotations

import math

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.conditions import HIGH_LATITUDE
from kernel.errors import UnreadableValue
from kernel.houses import (
    HOUSE_SYSTEMS,
    POLAR_UNDEFINED_LETTERS,
    HouseSystem,
    compute_houses,
    parse_house_system,
)
from kernel.positions import CalcFlags, ayanamsha_value, compute_positions, obliquity_deg
from kernel.timescale import Moment
from tests.unit.kernel.skyfield_reference import timescale

# The hand formulas below are exact spherical trigonometry; the only error left is float
# rounding inside Swiss Ephemeris, far below a micro-arcsecond. 1e-6 arcsec in degrees:
FORMULA_TOLERANCE_DEG = 1e-6 / 3600.0
# ARMC = Greenwich apparent sidereal time + east longitude. Skyfield computes GAST with IAU 2006
# precession and IAU 2000A nutation, Swiss Ephemeris with IAU 2006 / 2000B; they differ by a few
# milliarcseconds. 0.01 arcsec:
ARMC_TOLERANCE_DEG = 0.01 / 3600.0

MOMENTS = [Moment.from_iso(text) for text in ("1987-06-14T08:30:00Z", "2024-03-20T03:06:00Z", "2049-11-02T19:45:00Z")]
PLACES = [(51.5, -0.13), (-33.87, 151.21), (10.0, -75.0), (64.1, -21.9)]


def angle_diff_deg(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


# --- parsing ----------------------------------------------------------------------------------


def test_there_are_24_systems_with_unique_names_and_letters():
    assert len(HOUSE_SYSTEMS) == 24
    assert len({s.name for s in HOUSE_SYSTEMS}) == 24
    assert len({s.letter for s in HOUSE_SYSTEMS}) == 24


def test_equal_aries_and_apc_are_swiss_ephemeris_n_and_y():
    assert parse_house_system("equal_aries") == parse_house_system("N") == HouseSystem("equal_aries", "N")
    assert parse_house_system("APC") == parse_house_system("Y") == HouseSystem("apc", "Y")


@pytest.mark.parametrize(
    "name, engine_name",
    [
        ("pullen_sd", "Pullen SD"),
        ("pullen_sr", "Pullen SR"),
        ("sripati", "Sripati"),
        ("equal_aries", "equal/1=Aries"),
        ("apc", "APC houses"),
    ],
)
def test_a_system_name_is_the_system_swiss_ephemeris_names_by_its_letter(name, engine_name):
    import swisseph  # the reference: the engine's own name for each letter

    assert swisseph.house_name(parse_house_system(name).letter.encode()) == engine_name


@pytest.mark.parametrize("text", ["placidus", "PLACIDUS", " Placidus ", "P"])
def test_names_are_case_insensitive_and_letters_exact(text):
    assert parse_house_system(text) == HouseSystem("placidus", "P")


def test_sunshine_letters_differ_by_case():
    assert parse_house_system("i").name == "sunshine"
    assert parse_house_system("I").name == "sunshine_treindl"


def test_aliases_porphyry_and_topocentric():
    assert parse_house_system("porphyry") == HouseSystem("porphyrius", "O")
    assert parse_house_system("Topocentric") == HouseSystem("polich_page", "T")


@pytest.mark.parametrize("text", ["p", "k", "w", "", "placid", "Z", None])
def test_unknown_system_is_invalid_parameter_listing_the_systems(text):
    with pytest.raises(UnreadableValue) as caught:
        parse_house_system(text)
    assert "placidus" in caught.value.message and "carter" in caught.value.message


# --- hand-checked cusps -----------------------------------------------------------------------


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_midheaven_and_ascendant_follow_the_textbook_formulas(moment, lat, lon):
    houses = compute_houses(moment, lat, lon, parse_house_system("placidus"))
    eps = math.radians(obliquity_deg(moment))
    armc = math.radians(houses.armc_deg)
    phi = math.radians(lat)
    # tan MC = tan ARMC / cos eps, MC in the quadrant of ARMC.
    mc = math.degrees(math.atan2(math.sin(armc), math.cos(armc) * math.cos(eps))) % 360.0
    # tan ASC = cos ARMC / -(sin ARMC cos eps + tan phi sin eps), on the eastern horizon.
    asc = (
        math.degrees(math.atan2(math.cos(armc), -(math.sin(armc) * math.cos(eps) + math.tan(phi) * math.sin(eps))))
        % 360.0
    )
    assert angle_diff_deg(houses.midheaven_deg, mc) < FORMULA_TOLERANCE_DEG
    assert angle_diff_deg(houses.ascendant_deg, asc) < FORMULA_TOLERANCE_DEG


#: The systems whose Midheaven Swiss Ephemeris may turn into the IC inside the polar circles
#: (found empirically; its documentation on polar houses says why: these systems keep their
#: houses in order there by taking the meridian's point below the horizon).
MIDHEAVEN_TURNING_LETTERS = frozenset({"R", "C", "T", "I", "Y"})
POLAR_PLACES = [(70.0, 25.0), (-80.0, 0.0), (89.9, 10.0), (-70.0, 25.0)]


@pytest.mark.parametrize("system", HOUSE_SYSTEMS, ids=lambda s: s.name)
def test_the_angles_are_the_same_in_every_system_but_five_may_take_the_ic_for_the_midheaven_in_the_polar_circles(
    system,
):
    # Why a chart read only for its angles is cast in Porphyrius (kernel/natal_points.py):
    # outside the polar circles every system's angles are the textbook formulas' (as above) and
    # exactly Porphyrius's; inside them the Ascendant still is, and the Midheaven is too but
    # for five systems, where it may be the IC, 180 degrees away.
    porphyrius = parse_house_system("porphyrius")
    turned = 0
    for moment in MOMENTS:
        eps = math.radians(obliquity_deg(moment))
        for lat, lon in PLACES + POLAR_PLACES:
            houses, reference = compute_houses(moment, lat, lon, system), compute_houses(moment, lat, lon, porphyrius)
            assert houses.ascendant_deg == reference.ascendant_deg, (system.name, lat)
            if (lat, lon) in PLACES:
                armc, phi = math.radians(houses.armc_deg), math.radians(lat)
                mc = math.degrees(math.atan2(math.sin(armc), math.cos(armc) * math.cos(eps))) % 360.0
                asc = (
                    math.degrees(
                        math.atan2(math.cos(armc), -(math.sin(armc) * math.cos(eps) + math.tan(phi) * math.sin(eps)))
                    )
                    % 360.0
                )
                assert angle_diff_deg(houses.midheaven_deg, mc) < FORMULA_TOLERANCE_DEG, (system.name, lat)
                assert angle_diff_deg(houses.ascendant_deg, asc) < FORMULA_TOLERANCE_DEG, (system.name, lat)
            if houses.midheaven_deg != reference.midheaven_deg:
                assert system.letter in MIDHEAVEN_TURNING_LETTERS and (lat, lon) in POLAR_PLACES, (system.name, lat)
                assert angle_diff_deg(houses.midheaven_deg, reference.midheaven_deg + 180.0) < FORMULA_TOLERANCE_DEG
                turned += 1
    assert (turned > 0) == (system.letter in MIDHEAVEN_TURNING_LETTERS)


def test_placidus_angles_are_porphyrius_angles_at_every_latitude():
    # The natal chart's default system, and so the natal chart the time-lords and transit
    # targets must agree with, has Porphyrius's angles inside the polar circles too.
    placidus, porphyrius = parse_house_system("placidus"), parse_house_system("porphyrius")
    for moment in MOMENTS:
        for lat, lon in PLACES + POLAR_PLACES:
            a, b = compute_houses(moment, lat, lon, placidus), compute_houses(moment, lat, lon, porphyrius)
            assert (a.ascendant_deg, a.midheaven_deg) == (b.ascendant_deg, b.midheaven_deg), (moment.iso_utc(), lat)


@pytest.mark.parametrize("moment", MOMENTS)
def test_armc_is_apparent_sidereal_time_plus_east_longitude(moment):
    t = timescale().ut1_jd(moment.jd_ut1)
    for lat, lon in PLACES:
        houses = compute_houses(moment, lat, lon, parse_house_system("equal"))
        assert angle_diff_deg(houses.armc_deg, t.gast * 15.0 + lon) < ARMC_TOLERANCE_DEG


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_equal_cusps_are_ascendant_plus_30_degrees_each(moment, lat, lon):
    houses = compute_houses(moment, lat, lon, parse_house_system("equal"))
    for k, cusp in enumerate(houses.cusps_deg):
        assert angle_diff_deg(cusp, houses.ascendant_deg + 30.0 * k) < FORMULA_TOLERANCE_DEG


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_whole_sign_cusps_start_at_the_ascendants_sign(moment, lat, lon):
    houses = compute_houses(moment, lat, lon, parse_house_system("whole_sign"))
    first = 30.0 * math.floor(houses.ascendant_deg / 30.0)
    assert houses.cusps_deg == pytest.approx([(first + 30.0 * k) % 360.0 for k in range(12)], abs=FORMULA_TOLERANCE_DEG)


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_porphyrius_trisects_each_quadrant(moment, lat, lon):
    houses = compute_houses(moment, lat, lon, parse_house_system("porphyrius"))
    cusps = houses.cusps_deg
    angles = [
        houses.ascendant_deg,
        (houses.midheaven_deg + 180.0) % 360.0,
        (houses.ascendant_deg + 180.0) % 360.0,
        houses.midheaven_deg,
    ]
    for quadrant in range(4):
        start = angles[quadrant]
        arc = (angles[(quadrant + 1) % 4] - start) % 360.0
        for step in range(3):
            expected = start + arc * step / 3.0
            assert angle_diff_deg(cusps[3 * quadrant + step], expected) < FORMULA_TOLERANCE_DEG


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_equal_aries_cusp_k_is_exactly_30_times_k_minus_1(moment, lat, lon):
    houses = compute_houses(moment, lat, lon, parse_house_system("equal_aries"))
    assert houses.cusps_deg == [30.0 * k for k in range(12)]
    assert houses.system == "equal_aries" and houses.warnings == []


def _equatorial(longitude_deg: float, obliquity: float) -> tuple[float, float]:
    lam, eps = math.radians(longitude_deg), math.radians(obliquity)
    ra = math.degrees(math.atan2(math.sin(lam) * math.cos(eps), math.cos(lam)))
    return ra, math.degrees(math.asin(math.sin(lam) * math.sin(eps)))


def _local(hour_angle_deg: float, declination_deg: float) -> tuple[float, float, float]:
    """Unit vector: x toward the meridian's equator point, y east, z the north pole."""
    h, d = math.radians(hour_angle_deg), math.radians(declination_deg)
    return (math.cos(d) * math.cos(h), -math.cos(d) * math.sin(h), math.sin(d))


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize(("lat", "lon"), PLACES)
def test_apc_cusps_lie_on_circles_through_the_north_point_trisecting_the_ascendants_semi_arcs(moment, lat, lon):
    # APC (Knegt): the intermediate house circles pass through the north and south points of
    # the horizon and through the points dividing the diurnal and nocturnal semi-arcs of the
    # ascendant's declination circle in three. Cusp k must lie on its circle: the sine of its
    # distance from the circle's plane is 0 up to float rounding.
    houses = compute_houses(moment, lat, lon, parse_house_system("apc"))
    eps = obliquity_deg(moment)
    _, asc_declination = _equatorial(houses.ascendant_deg, eps)
    day = math.degrees(math.acos(-math.tan(math.radians(lat)) * math.tan(math.radians(asc_declination))))
    night = 180.0 - day
    hour_angles = {
        2: -day - night / 3,
        3: -day - 2 * night / 3,
        5: 180 - night / 3,
        6: 180 - 2 * night / 3,
        8: 2 * day / 3,
        9: day / 3,
        11: -day / 3,
        12: -2 * day / 3,
    }
    phi = math.radians(lat)
    north = (-math.sin(phi), 0.0, math.cos(phi))
    for cusp, hour_angle in hour_angles.items():
        divider = _local(hour_angle, asc_declination)
        normal = (
            north[1] * divider[2] - north[2] * divider[1],
            north[2] * divider[0] - north[0] * divider[2],
            north[0] * divider[1] - north[1] * divider[0],
        )
        size = math.sqrt(sum(c * c for c in normal))
        ra, dec = _equatorial(houses.cusps_deg[cusp - 1], eps)
        point = _local(houses.armc_deg - ra, dec)
        off_circle = math.degrees(math.asin(abs(sum(n * p for n, p in zip(normal, point))) / size))
        assert off_circle < FORMULA_TOLERANCE_DEG, cusp


def test_quadrant_systems_put_the_angles_on_cusps_1_4_7_10():
    moment = MOMENTS[1]
    for name in ("placidus", "koch", "regiomontanus", "campanus", "porphyrius", "alcabitius", "polich_page", "apc"):
        houses = compute_houses(moment, 51.5, -0.13, parse_house_system(name))
        assert angle_diff_deg(houses.cusps_deg[0], houses.ascendant_deg) < FORMULA_TOLERANCE_DEG
        assert angle_diff_deg(houses.cusps_deg[9], houses.midheaven_deg) < FORMULA_TOLERANCE_DEG
        assert angle_diff_deg(houses.cusps_deg[3], houses.midheaven_deg + 180.0) < FORMULA_TOLERANCE_DEG
        assert angle_diff_deg(houses.cusps_deg[6], houses.ascendant_deg + 180.0) < FORMULA_TOLERANCE_DEG


# --- every system, the polar fallback ---------------------------------------------------------


@pytest.mark.parametrize("system", HOUSE_SYSTEMS, ids=lambda s: s.name)
def test_every_system_computes_at_latitude_51_5(system):
    houses = compute_houses(MOMENTS[1], 51.5, -0.13, system)
    assert houses.system == system.name == houses.requested_system
    assert len(houses.cusps_deg) == (36 if system.name == "gauquelin" else 12)
    assert all(0.0 <= c < 360.0 for c in houses.cusps_deg)
    assert houses.warnings == []


@pytest.mark.parametrize(("lat", "lon"), [(70.0, 25.0), (-75.0, 0.0)])
def test_placidus_inside_the_polar_circle_falls_back_to_porphyrius_with_a_warning(lat, lon):
    moment = MOMENTS[1]
    houses = compute_houses(moment, lat, lon, parse_house_system("placidus"))
    assert houses.system == "porphyrius"
    assert houses.requested_system == "placidus"
    assert [w.kind for w in houses.warnings] == [HIGH_LATITUDE]
    message = houses.warnings[0].message
    assert "Placidus" in message and f"{lat:.2f}" in message and "Porphyrius" in message
    porphyrius = compute_houses(moment, lat, lon, parse_house_system("porphyrius"))
    assert houses.cusps_deg == porphyrius.cusps_deg


SOLSTICE_AND_MAY = [
    Moment.from_iso(text) for text in ("2024-06-21T12:00:00Z", "2024-05-01T00:00:00Z", "1987-12-22T00:00:00Z")
]
# Stay this far from a boundary so the check does not hinge on float rounding at the edge.
BOUNDARY_MARGIN_DEG = 0.05


@pytest.mark.parametrize("system", HOUSE_SYSTEMS, ids=lambda s: s.name)
def test_only_placidus_koch_gauquelin_and_sunshine_ever_fall_back(system):
    # Found empirically with Swiss Ephemeris: every other system gives cusps up to the pole.
    for moment in MOMENTS + SOLSTICE_AND_MAY:
        for lat in (66.7, 70.0, 80.0, -75.0, -80.0, 89.9):
            houses = compute_houses(moment, lat, 10.0, system)
            if system.letter not in POLAR_UNDEFINED_LETTERS:
                assert houses.system == system.name, (system.name, lat)


@pytest.mark.parametrize("name", ["placidus", "koch", "gauquelin"])
def test_placidus_koch_and_gauquelin_fall_back_exactly_beyond_the_polar_circles(name):
    system = parse_house_system(name)
    for moment in MOMENTS + SOLSTICE_AND_MAY:
        polar_circle = 90.0 - obliquity_deg(moment)
        for lat in (0.0, 51.5, 66.0, 66.4, 66.7, 70.0, 80.0, 89.9):
            for signed in (lat, -lat):
                if abs(abs(signed) - polar_circle) < BOUNDARY_MARGIN_DEG:
                    continue
                fell_back = compute_houses(moment, signed, 10.0, system).system == "porphyrius"
                assert fell_back == (abs(signed) > polar_circle), (name, moment.iso_utc(), signed)


def test_sunshine_falls_back_where_the_sun_neither_rises_nor_sets():
    system = parse_house_system("sunshine")
    for moment in MOMENTS + SOLSTICE_AND_MAY:
        sun = compute_positions(moment, ["sun"], CalcFlags(equatorial=True)).records[0]
        limit = 90.0 - abs(sun.declination)
        for lat in (51.5, 66.7, 70.0, 75.0, 80.0, 89.9):
            for signed in (lat, -lat):
                if abs(abs(signed) - limit) < BOUNDARY_MARGIN_DEG:
                    continue
                houses = compute_houses(moment, signed, 10.0, system)
                fell_back = houses.system == "porphyrius"
                assert fell_back == (abs(signed) > limit), (moment.iso_utc(), signed)
                if fell_back:
                    assert "Sun neither rises nor sets" in houses.warnings[0].message


def test_no_fallback_outside_the_polar_circle():
    houses = compute_houses(MOMENTS[1], 60.0, 10.0, parse_house_system("koch"))
    assert houses.system == "koch" and houses.warnings == []


# --- flags and validation ---------------------------------------------------------------------


def test_sidereal_houses_are_the_tropical_ones_less_the_ayanamsha():
    moment = MOMENTS[0]
    lahiri = parse_ayanamsha("lahiri")
    tropical = compute_houses(moment, 51.5, -0.13, parse_house_system("placidus"))
    sidereal = compute_houses(moment, 51.5, -0.13, parse_house_system("placidus"), sidereal=lahiri)
    ayanamsha = ayanamsha_value(moment, lahiri)
    assert angle_diff_deg(sidereal.ascendant_deg, tropical.ascendant_deg - ayanamsha) < 1e-9
    assert angle_diff_deg(sidereal.midheaven_deg, tropical.midheaven_deg - ayanamsha) < 1e-9
    for s, t in zip(sidereal.cusps_deg, tropical.cusps_deg):
        assert angle_diff_deg(s, t - ayanamsha) < 1e-9
    assert sidereal.armc_deg == tropical.armc_deg


def test_no_nutation_moves_the_angles_by_less_than_a_minute_of_arc():
    moment = MOMENTS[0]
    with_nutation = compute_houses(moment, 51.5, -0.13, parse_house_system("placidus"))
    without = compute_houses(moment, 51.5, -0.13, parse_house_system("placidus"), no_nutation=True)
    # Nutation is at most ~17" in longitude and ~9" in obliquity; at 51.5° the ascendant
    # amplifies it a few times. Different, but by less than an arcminute.
    assert 0.0 < angle_diff_deg(with_nutation.ascendant_deg, without.ascendant_deg) < 1.0 / 60.0


@pytest.mark.parametrize(("lat", "lon"), [(91.0, 0.0), (float("nan"), 0.0), (0.0, 181.0)])
def test_coordinates_out_of_range_are_the_callers_error(lat, lon):
    # Requests are refused before the kernel (the proto's lat/lon ranges); the kernel only guards.
    with pytest.raises(ValueError):
        compute_houses(MOMENTS[0], lat, lon, parse_house_system("placidus"))
