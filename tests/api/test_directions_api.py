"""/v1/directions: solar-arc directions of a birth at a target date (issue 53).

The proof is a hand derivation from our own charts: the true solar arc is /v1/progressed's Sun
minus /v1/natal-chart's Sun, and every directed longitude is the natal one plus that arc.
kerykeion (the installed 5.x) computes no directions or progressions, so no library reference
is compared. Tolerance 1e-9°: the same ephemeris computes both sides; only sums differ.
"""

from __future__ import annotations

import pytest

from kernel.directions import NAIBOD_DEG_PER_YEAR
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1984-02-11T09:20:00Z", "lat": 48.85, "lon": 2.35}
TARGET = {"target_datetime": "2020-01-01T00:00:00Z"}
SAME_DEGREES = 1e-9


def data(api, path, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def longitudes(chart: dict) -> dict[str, float]:
    return {p["body"]: p["longitude"] for p in chart["positions"]}


def test_directions_cost_two_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get("/v1/directions", params={**BIRTH, **TARGET}).json()["meta"]["credits_used"] == 2
    assert balance(stack, name) == 8


def test_the_true_solar_arc_is_the_progressed_sun_minus_the_natal_sun(api):
    directions = data(api, "/v1/directions", **BIRTH, **TARGET)
    natal_sun = longitudes(data(api, "/v1/natal-chart", **BIRTH))["sun"]
    progressed_sun = longitudes(data(api, "/v1/progressed", **BIRTH, **TARGET))["sun"]
    assert directions["key"] == "true_solar_arc"
    assert directions["arc"] == pytest.approx((progressed_sun - natal_sun) % 360, abs=SAME_DEGREES)


def test_each_directed_longitude_is_the_natal_chart_longitude_plus_the_arc(api):
    directions = data(api, "/v1/directions", **BIRTH, **TARGET)
    natal = data(api, "/v1/natal-chart", **BIRTH)
    natal_of = {
        **longitudes(natal),
        "ascendant": natal["houses"]["ascendant"],
        "midheaven": natal["houses"]["midheaven"],
        "vertex": natal["houses"]["vertex"],
        "descendant": (natal["houses"]["ascendant"] + 180) % 360,
        "imum_coeli": (natal["houses"]["midheaven"] + 180) % 360,
        **{f"cusp_{n}": natal["houses"]["cusps"][n] for n in range(1, 13)},
    }
    for point in directions["points"]:
        assert point["natal_longitude"] == pytest.approx(natal_of[point["point"]], abs=SAME_DEGREES)
        expected = (natal_of[point["point"]] + directions["arc"]) % 360
        assert abs((point["longitude"] - expected + 180) % 360 - 180) < SAME_DEGREES, point


def test_under_the_true_solar_arc_the_directed_sun_is_the_progressed_sun(api):
    directed = {p["point"]: p for p in data(api, "/v1/directions", **BIRTH, **TARGET)["points"]}
    progressed_sun = longitudes(data(api, "/v1/progressed", **BIRTH, **TARGET))["sun"]
    assert directed["sun"]["longitude"] == pytest.approx(progressed_sun, abs=SAME_DEGREES)


def test_the_naibod_arc_is_0_59_08_33_for_each_year_lived(api):
    directions = data(api, "/v1/directions", **BIRTH, **TARGET, key="naibod")
    years = (directions["target_jd"] - directions["natal_jd"]) / 365.2422
    assert directions["years"] == pytest.approx(years, abs=1e-12)
    assert directions["arc"] == pytest.approx(NAIBOD_DEG_PER_YEAR * years, abs=SAME_DEGREES)


def test_the_ptolemy_arc_is_one_degree_for_each_year_lived(api):
    directions = data(api, "/v1/directions", **BIRTH, **TARGET, key="ptolemy", year_days="365.25")
    assert directions["arc"] == pytest.approx((directions["target_jd"] - directions["natal_jd"]) / 365.25)


def test_the_points_are_the_bodies_in_the_order_asked_then_the_angles_then_the_cusps(api):
    points = data(api, "/v1/directions", **BIRTH, **TARGET, bodies="moon,sun", system="whole_sign")["points"]
    assert [p["point"] for p in points] == [
        "moon",
        "sun",
        "ascendant",
        "midheaven",
        "descendant",
        "imum_coeli",
        "vertex",
        *(f"cusp_{n}" for n in range(1, 13)),
    ]
    assert [p["kind"] for p in points] == ["body"] * 2 + ["angle"] * 5 + ["cusp"] * 12


def test_the_directed_sign_and_degree_are_of_the_directed_longitude(api):
    for point in data(api, "/v1/directions", **BIRTH, **TARGET)["points"]:
        signs = ["aries", "taurus", "gemini", "cancer", "leo", "virgo"]
        signs += ["libra", "scorpio", "sagittarius", "capricorn", "aquarius", "pisces"]
        assert point["sign"] == signs[int(point["longitude"] // 30)]
        assert point["sign_degree"] == pytest.approx(point["longitude"] % 30, abs=SAME_DEGREES)


def test_a_directions_target_before_birth_is_invalid_progression(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        response = client.get("/v1/directions", params={**BIRTH, "target_datetime": "1980-01-01T00:00:00Z"})
    assert_error(response, 400, "invalid_progression", "target_datetime")
    assert balance(stack, name) == 10


def test_an_unknown_direction_key_is_invalid_parameter(api):
    assert_error(
        api.get("/v1/directions", params={**BIRTH, **TARGET, "key": "placidus"}), 400, "invalid_parameter", "key"
    )


def test_the_arc_does_not_depend_on_the_sun_being_asked(api):
    with_sun = data(api, "/v1/directions", **BIRTH, **TARGET)
    without_sun = data(api, "/v1/directions", **BIRTH, **TARGET, bodies="moon")
    assert without_sun["arc"] == with_sun["arc"]
