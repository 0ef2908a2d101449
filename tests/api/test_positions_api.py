"""/v1/positions: the record shapes, the seven flags, and the declination rules."""

from __future__ import annotations

import math

import pytest

from tests.api.test_conventions_api import assert_error

J2000 = 2451545.0
DATE_2024 = "2024-03-20T12:00:00Z"
ECLIPTIC_FIELDS = {
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
}
EQUATORIAL_FIELDS = {"body", "right_ascension", "declination", "distance", "ra_speed", "dec_speed", "out_of_bounds"}
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node"]
SIGNS = [
    "Aries",
    "Taurus",
    "Gemini",
    "Cancer",
    "Leo",
    "Virgo",
    "Libra",
    "Scorpio",
    "Sagittarius",
    "Capricorn",
    "Aquarius",
    "Pisces",
]

# Nutation in obliquity never exceeds 9.3 arcseconds, so the mean obliquity (IAU 1980
# polynomial) stands in for the true one within this tolerance in hand-derived checks.
OBLIQUITY_TOLERANCE_DEG = 0.003


def positions(api, **params) -> list[dict]:
    response = api.get("/v1/positions", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def by_body(records: list[dict]) -> dict[str, dict]:
    return {r["body"]: r for r in records}


def mean_obliquity_deg(jd_ut: float) -> float:
    """Mean obliquity of the ecliptic, degrees (Meeus, Astronomical Algorithms, 22.2)."""
    t = (jd_ut - J2000) / 36525
    return 23.439291111 - 0.013004167 * t - 1.6389e-7 * t * t + 5.0361e-7 * t**3


def test_default_bodies_are_the_planets_group_in_order(api):
    assert [r["body"] for r in positions(api, jd=J2000)] == PLANETS


def test_ecliptic_record_has_exactly_the_spec_fields(api):
    for record in positions(api, jd=J2000):
        assert set(record) == ECLIPTIC_FIELDS
        assert 0 <= record["longitude"] < 360
        assert 0 <= record["sign_degree"] < 30
        assert record["sign"] == SIGNS[int(record["longitude"] // 30)]
        assert math.isclose(record["sign_degree"], record["longitude"] % 30, abs_tol=1e-9)
        assert record["retrograde"] is (record["speed"] < 0)


def test_equatorial_flag_returns_the_equatorial_shape(api):
    for record in positions(api, jd=J2000, equatorial="true"):
        assert set(record) == EQUATORIAL_FIELDS
        assert 0 <= record["right_ascension"] < 360
        assert -90 <= record["declination"] <= 90


def test_speed_false_renders_speed_and_retrograde_as_null(api):
    for record in positions(api, jd=J2000, speed="false"):
        assert record["speed"] is None and record["retrograde"] is None
    for record in positions(api, jd=J2000, speed="false", equatorial="true"):
        assert record["ra_speed"] is None and record["dec_speed"] is None


def test_declination_is_the_ecliptic_position_rotated_by_the_obliquity_of_date(api):
    for record in positions(api, datetime=DATE_2024, bodies="all"):
        lam, beta = math.radians(record["longitude"]), math.radians(record["latitude"])
        eps = math.radians(mean_obliquity_deg(2460390.0))
        expected = math.degrees(
            math.asin(math.sin(beta) * math.cos(eps) + math.cos(beta) * math.sin(eps) * math.sin(lam))
        )
        assert abs(record["declination"] - expected) < OBLIQUITY_TOLERANCE_DEG, record["body"]


def test_declination_differs_from_latitude(api):
    sun = by_body(positions(api, datetime="2024-06-21T00:00:00Z", bodies="sun"))["sun"]
    assert abs(sun["latitude"]) < 0.001
    assert sun["declination"] > 23.4


def test_ecliptic_and_equatorial_declinations_agree(api):
    ecl = by_body(positions(api, datetime=DATE_2024, bodies="all"))
    equ = by_body(positions(api, datetime=DATE_2024, bodies="all", equatorial="true"))
    for name in ecl:
        assert abs(ecl[name]["declination"] - equ[name]["declination"]) < 1e-9


def test_out_of_bounds_is_declination_beyond_the_obliquity_of_date(api):
    # The Moon near the 2024-2025 major standstill reaches about 28.5 degrees.
    seen = set()
    for day in range(0, 60, 2):
        jd = 2460400.5 + day
        moon = by_body(positions(api, jd=jd, bodies="moon,sun,venus"))
        eps = mean_obliquity_deg(jd)
        for record in moon.values():
            if abs(abs(record["declination"]) - eps) < OBLIQUITY_TOLERANCE_DEG:
                continue
            assert record["out_of_bounds"] is (abs(record["declination"]) > eps), (jd, record)
            seen.add(record["out_of_bounds"])
    assert seen == {True, False}


def test_sidereal_reduces_longitude_by_the_ayanamsha_but_not_declination(api):
    tropical = by_body(positions(api, datetime=DATE_2024))
    sidereal = by_body(positions(api, datetime=DATE_2024, sidereal="lahiri"))
    # Lahiri ayanamsha in March 2024 is 24 deg 11 min (Indian Astronomical Ephemeris: 24.19 deg);
    # the Swiss Ephemeris Lahiri is the same definition.
    for name in tropical:
        shift = (tropical[name]["longitude"] - sidereal[name]["longitude"]) % 360
        assert abs(shift - 24.19) < 0.02, name
        assert tropical[name]["declination"] == sidereal[name]["declination"]
        assert tropical[name]["out_of_bounds"] == sidereal[name]["out_of_bounds"]


def test_sidereal_accepts_ayanamsha_id(api):
    assert positions(api, jd=J2000, sidereal="3") == positions(api, jd=J2000, sidereal="raman")


def test_unknown_ayanamsha_is_invalid_parameter(api):
    assert_error(
        api.get("/v1/positions", params={"jd": J2000, "sidereal": "nonsense"}), 400, "invalid_parameter", "sidereal"
    )


def test_equatorial_coordinates_are_not_rotated_by_sidereal(api):
    plain = positions(api, jd=J2000, equatorial="true")
    sidereal = positions(api, jd=J2000, equatorial="true", sidereal="lahiri")
    assert plain == sidereal


def test_j2000_frame_differs_by_precession(api):
    of_date = by_body(positions(api, datetime=DATE_2024, bodies="sun"))["sun"]["longitude"]
    j2000 = by_body(positions(api, datetime=DATE_2024, bodies="sun", j2000="true"))["sun"]["longitude"]
    # General precession is 50.29 arcsec/year; 24.2 years after J2000 that is 0.338 deg.
    assert abs((of_date - j2000) - 0.338) < 0.01


def test_no_nutation_differs_by_nutation_in_longitude_only(api):
    true = by_body(positions(api, datetime=DATE_2024, bodies="sun"))["sun"]["longitude"]
    mean = by_body(positions(api, datetime=DATE_2024, bodies="sun", no_nutation="true"))["sun"]["longitude"]
    # Nutation in longitude is at most 17.2 arcsec and is never exactly zero for long.
    assert 0 < abs(true - mean) < 17.3 / 3600


def test_topocentric_requires_lat_and_lon(api):
    assert_error(api.get("/v1/positions", params={"jd": J2000, "topocentric": "true"}), 400, "missing_parameter")


def test_topocentric_moon_is_shifted_by_parallax(api):
    geo = by_body(positions(api, jd=J2000, bodies="moon"))["moon"]
    topo = by_body(positions(api, jd=J2000, bodies="moon", topocentric="true", lat=51.5, lon=0.0))["moon"]
    shift = math.hypot(geo["longitude"] - topo["longitude"], geo["latitude"] - topo["latitude"])
    # Horizontal parallax of the Moon is 54-61 arcmin; the shift is up to that.
    assert 0.05 < shift < 1.02


def test_heliocentric_substitutes_earth_and_drops_nodes(api):
    names = [r["body"] for r in positions(api, jd=J2000, heliocentric="true")]
    assert names[0] == "earth"
    assert "sun" not in names and "mean_node" not in names
    earth = positions(api, jd=J2000, heliocentric="true", bodies="earth")[0]
    sun = positions(api, jd=J2000, bodies="sun")[0]
    assert abs(((earth["longitude"] - sun["longitude"]) % 360) - 180) < 0.01


def test_heliocentric_sun_is_body_not_eligible(api):
    assert_error(
        api.get("/v1/positions", params={"jd": J2000, "heliocentric": "true", "bodies": "sun"}),
        400,
        "body_not_eligible",
    )


def test_all_group_lists_planets_true_node_asteroids_and_apogees(api):
    names = [r["body"] for r in positions(api, jd=J2000, bodies="all")]
    assert names == PLANETS + [
        "true_node",
        "chiron",
        "pholus",
        "ceres",
        "pallas",
        "juno",
        "vesta",
        "mean_apogee",
        "osc_apogee",
    ]


def test_names_and_groups_mix_and_duplicates_collapse(api):
    names = [r["body"] for r in positions(api, jd=J2000, bodies="moon,planets,chiron,moon")]
    assert names == ["moon"] + [p for p in PLANETS if p != "moon"] + ["chiron"]


def test_lilith_is_answered_under_the_name_asked_for(api):
    (lilith,) = positions(api, jd=J2000, bodies="lilith")
    (apogee,) = positions(api, jd=J2000, bodies="mean_apogee")
    assert lilith["body"] == "lilith" and apogee["body"] == "mean_apogee"
    assert lilith["longitude"] == apogee["longitude"]


def test_lilith_beside_mean_apogee_collapses_as_a_duplicate(api):
    records = positions(api, jd=J2000, bodies="lilith,mean_apogee")
    assert [r["body"] for r in records] == ["lilith"]


def test_unknown_body_is_body_not_found(api):
    assert_error(
        api.get("/v1/positions", params={"jd": J2000, "bodies": "sun,vulcan"}), 400, "body_not_found", "bodies"
    )


def test_asteroid_outside_its_files_is_out_of_range(api):
    assert_error(
        api.get("/v1/positions", params={"datetime": "1000-01-01T00:00:00Z", "bodies": "ceres"}), 400, "out_of_range"
    )


def test_chiron_before_675_is_out_of_range_without_the_engines_text(api):
    # Swiss Ephemeris restricts Chiron to 675-4650 CE with an error of its own; our files begin
    # in 1200, and the span guard answers before the engine is asked.
    error = assert_error(
        api.get("/v1/positions", params={"datetime": "0600-01-01T00:00:00Z", "bodies": "chiron"}),
        400,
        "out_of_range",
        "datetime",
    )
    assert (
        "1200-01-09" in error["message"] and "restricted" not in error["message"] and "swisseph" not in error["message"]
    )


def test_planets_outside_the_files_fall_back_with_a_warning(api):
    response = api.get("/v1/positions", params={"datetime": "1000-01-01T00:00:00Z", "bodies": "sun,moon"})
    assert response.status_code == 200, response.text
    assert any("moshier" in w.lower() or "fallback" in w.lower() for w in response.json()["warnings"])


@pytest.mark.parametrize("lat", ["91", "-90.5"])
def test_latitude_outside_range_is_invalid_parameter(api, lat):
    assert_error(
        api.get("/v1/positions", params={"jd": J2000, "topocentric": "true", "lat": lat, "lon": 0}),
        400,
        "invalid_parameter",
        "lat",
    )
