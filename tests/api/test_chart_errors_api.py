"""The spec's Errors table, row by row, on every chart endpoint a row names (interface.md,
Errors): each refusal is a 400 with its code, a message, a suggestion and the parameter it
blames, and costs the caller nothing."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
MOMENT = {"datetime": BIRTH["datetime"]}
PAIR = {
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": 51.5,
    "lon_a": -0.13,
    "datetime_b": "1985-01-02T03:00:00Z",
    "lat_b": 40.7,
    "lon_b": -74.0,
}
CHART_ENDPOINTS = {
    "/v1/natal-chart": BIRTH,
    "/v1/draconic": BIRTH,
    "/v1/progressed": {**BIRTH, "target_datetime": "2020-01-01T00:00:00Z"},
    "/v1/synastry": PAIR,
    "/v1/davison": PAIR,
}

REFUSALS = [
    # (endpoint, parameters, code, blamed parameter)
    ("/v1/patterns", {**MOMENT, "patterns": "boomerang"}, "invalid_parameter", "patterns"),
    ("/v1/patterns", {**MOMENT, "patterns": "t_square,boomerang"}, "invalid_parameter", "patterns"),
    ("/v1/patterns", {**MOMENT, "stellium_min": 1}, "invalid_parameter", "stellium_min"),
    ("/v1/patterns", {**MOMENT, "stellium_min": 11}, "invalid_parameter", "stellium_min"),
    ("/v1/patterns", {**MOMENT, "stellium_scope": "galaxy"}, "invalid_parameter", "stellium_scope"),
    ("/v1/patterns", {**MOMENT, "stellium_scope": "house"}, "missing_parameter", "lat"),
    ("/v1/patterns", {**MOMENT, "stellium_scope": "house", "lon": 0}, "missing_parameter", "lat"),
    ("/v1/midpoints", {**MOMENT, "resolution": "middle"}, "invalid_parameter", "resolution"),
    ("/v1/midpoints", {**MOMENT, "trees": "true", "modulus": 0}, "invalid_parameter", "modulus"),
    ("/v1/midpoints", {**MOMENT, "trees": "true", "modulus": -45}, "invalid_parameter", "modulus"),
    ("/v1/midpoints", {**MOMENT, "trees": "true", "modulus": 360.5}, "invalid_parameter", "modulus"),
    ("/v1/midpoints", {**MOMENT, "trees": "true", "tree_orb": -0.5}, "invalid_parameter", "tree_orb"),
    ("/v1/midpoints", {**MOMENT, "trees": "true", "tree_orb": 15.01}, "invalid_parameter", "tree_orb"),
    ("/v1/midpoints", {**BIRTH, "lots": "basis"}, "invalid_parameter", "lots"),
    ("/v1/midpoints", {**MOMENT, "lots": "default"}, "missing_parameter", "lat"),
    ("/v1/lots", {**BIRTH, "lots": "basis"}, "invalid_parameter", "lots"),
    ("/v1/lots", MOMENT, "missing_parameter", "lat"),
    ("/v1/dignities", {**MOMENT, "rulership": "esoteric"}, "invalid_parameter", "rulership"),
    ("/v1/draconic", {**BIRTH, "house_position_mode": "mundane"}, "invalid_parameter", "house_position_mode"),
    ("/v1/draconic", {**BIRTH, "dignities": "true"}, "invalid_parameter", "dignities"),
    ("/v1/draconic", {**BIRTH, "heliocentric": "true"}, "invalid_parameter", "heliocentric"),
    ("/v1/draconic", {**BIRTH, "bodies": "sun,moon", "node": "mean_node"}, "no_north_node", "bodies"),
    ("/v1/progressed", {**BIRTH, "target_datetime": "1980-01-01T00:00:00Z"}, "invalid_progression", "target_datetime"),
]


@pytest.fixture(scope="module")
def account(stack):
    return stack.new_key(credits=1_000)


@pytest.mark.parametrize(
    ("path", "params", "code", "param"),
    REFUSALS,
    ids=[f"{p}-{'-'.join(map(str, q.values()))}"[:80] for p, q, _, _ in REFUSALS],
)
def test_each_errors_table_refusal_is_a_400_naming_its_parameter_and_costs_nothing(
    stack, account, path, params, code, param
):
    name, key = account
    before = balance(stack, name)
    with stack.client(key) as client:
        assert_error(client.get(path, params=params), 400, code, param)
    assert balance(stack, name) == before


@pytest.mark.parametrize("path", list(CHART_ENDPOINTS))
@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"patterns": "true", "pattern_types": "boomerang"}, "pattern_types"),
        ({"patterns": "true", "stellium_min": 11}, "stellium_min"),
        ({"patterns": "true", "stellium_scope": "galaxy"}, "stellium_scope"),
        ({"derived_points": "true", "lots": "basis"}, "lots"),
        ({"derived_points": "true", "resolution": "middle"}, "resolution"),
        ({"speed": "false"}, "speed"),
    ],
    ids=["pattern-type", "stellium-min", "stellium-scope", "lot", "resolution", "speed-flag"],
)
def test_every_chart_endpoint_refuses_the_chart_options_errors_alike(api, path, params, param):
    assert_error(api.get(path, params={**CHART_ENDPOINTS[path], **params}), 400, "invalid_parameter", param)


ONE_MOMENT_ENDPOINTS = {"/v1/dignities": MOMENT, "/v1/patterns": MOMENT, "/v1/lots": BIRTH, "/v1/midpoints": BIRTH}


@pytest.mark.parametrize("path", list(ONE_MOMENT_ENDPOINTS))
@pytest.mark.parametrize("flag", ["equatorial", "no_nutation", "j2000", "topocentric", "heliocentric"])
def test_a_calculation_flag_the_endpoint_does_not_implement_is_refused(api, path, flag):
    error = assert_error(
        api.get(path, params={**ONE_MOMENT_ENDPOINTS[path], flag: "true"}), 400, "invalid_parameter", flag
    )
    assert "sidereal" in error["message"] or flag in error["message"]


@pytest.mark.parametrize("path", list(ONE_MOMENT_ENDPOINTS))
def test_sidereal_is_a_flag_these_endpoints_implement(api, path):
    assert api.get(path, params={**ONE_MOMENT_ENDPOINTS[path], "sidereal": "lahiri"}).status_code == 200


def test_lots_default_names_the_seven_lots_on_midpoints(api):
    response = api.get("/v1/midpoints", params={**BIRTH, "lots": "default", "midpoints": "false", "antiscia": "false"})
    assert response.status_code == 200, response.text
    assert [p["kind"] for p in response.json()["data"]["derived_points"]] == ["lot"] * 7


POLAR = {"lat": 75.0, "lat_a": 75.0, "lat_b": 78.0}


@pytest.mark.parametrize("path", [*CHART_ENDPOINTS, "/v1/composite"])
def test_every_chart_inside_the_polar_circle_falls_back_to_porphyrius_with_the_high_latitude_warning(api, path):
    base = CHART_ENDPOINTS.get(path, PAIR)
    response = api.get(path, params={**base, **{k: v for k, v in POLAR.items() if k in base}})
    assert response.status_code == 200, response.text
    body = response.json()
    charts = [body["data"]["chart_a"], body["data"]["chart_b"]] if path == "/v1/synastry" else [body["data"]]
    for chart in charts:
        assert chart["metadata"]["house_system"] == "porphyrius"
        assert "high_latitude" in [w["kind"] for w in chart["warnings"]]
    assert body["warnings"], "the prose twin of the typed warning"


@pytest.mark.parametrize(
    ("path", "params"),
    [("/v1/lots", {}), ("/v1/midpoints", {}), ("/v1/patterns", {"stellium_scope": "house", "stellium_min": 2})],
)
def test_house_using_endpoints_inside_the_polar_circle_warn_of_the_fallback(api, path, params):
    response = api.get(path, params={**BIRTH, "lat": 80.0, **params})
    assert response.status_code == 200, response.text
    assert any("orphyr" in warning for warning in response.json()["warnings"])
