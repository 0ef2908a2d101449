"""Relocation (issue 53, part 2), rule by rule: relocate_lat and relocate_lon, or relocate=<town
id>, cast the same instant (the birth's, or a return's) for another place, on /v1/natal-chart,
/v1/returns, /v1/chart-wheel and /v1/forecast. The proof: a relocated chart EQUALS the chart cast
for the same UT instant at the new place, asked the ordinary way (every cusp, angle, house and
position identical, no tolerance: the same computation must give the same numbers)."""

from __future__ import annotations

import pytest

from kernel.places import town_from_parameter
from tests.api.in_process_stack import AppStack
from tests.api.test_answer_schemas_api import undeclared_or_missing
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
#: Tokyo, where the same instant rises another sign.
TOKYO = {"lat": 35.68, "lon": 139.69}
RELOCATED = {"relocate_lat": TOKYO["lat"], "relocate_lon": TOKYO["lon"]}
AT_TOKYO = {**BIRTH, **TOKYO}
#: Paris by its GeoNames id, and its coordinates as the gazetteer gives them.
PARIS_ID = "2988507"
RETURN = {"body": "sun", "search_start": "2026-01-01T00:00:00Z", "count": 2}
RANGE = {"start": "2026-01-01T00:00:00Z", "end": "2026-07-01T00:00:00Z"}
#: The forecast's events that a natal angle or house decides.
ANGLES = {"ascendant", "midheaven"}


def ok(api, path: str, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_relocated_natal_chart_equals_the_chart_cast_for_the_same_instant_at_the_new_place(api):
    relocated = ok(api, "/v1/natal-chart", **BIRTH, **RELOCATED)["data"]
    at_tokyo = ok(api, "/v1/natal-chart", **AT_TOKYO)["data"]
    born = ok(api, "/v1/natal-chart", **BIRTH)["data"]
    assert relocated == at_tokyo
    assert relocated["houses"] != born["houses"]  # the relocation moved the houses


def test_relocation_leaves_the_geocentric_positions_unchanged(api):
    relocated = ok(api, "/v1/natal-chart", **BIRTH, **RELOCATED)["data"]["positions"]
    born = ok(api, "/v1/natal-chart", **BIRTH)["data"]["positions"]
    strip = lambda positions: [{k: v for k, v in p.items() if k != "house"} for p in positions]  # noqa: E731
    assert strip(relocated) == strip(born)


def test_a_topocentric_relocated_chart_sees_the_bodies_from_the_new_place(api):
    relocated = ok(api, "/v1/natal-chart", **BIRTH, **RELOCATED, topocentric="true")["data"]
    assert relocated == ok(api, "/v1/natal-chart", **AT_TOKYO, topocentric="true")["data"]
    born = ok(api, "/v1/natal-chart", **BIRTH, topocentric="true")["data"]
    moon = lambda chart: next(p["longitude"] for p in chart["positions"] if p["body"] == "moon")  # noqa: E731
    assert moon(relocated) != moon(born)  # the Moon's parallax differs between London and Tokyo


def test_meta_relocated_names_the_place_the_chart_was_cast_for(api):
    assert ok(api, "/v1/natal-chart", **BIRTH, **RELOCATED)["meta"]["relocated"] == TOKYO
    assert "relocated" not in ok(api, "/v1/natal-chart", **BIRTH)["meta"]


@pytest.mark.parametrize("relocation", [RELOCATED, {"relocate": PARIS_ID}])
def test_meta_relocated_is_as_the_reference_declares_it(api, relocation):
    document = api.get("/v1/openapi.json").json()
    answer = api.get("/v1/natal-chart", params={**BIRTH, **relocation})
    assert undeclared_or_missing(document, "/v1/natal-chart", "get", answer) == []


def test_relocate_names_a_town_whose_coordinates_cast_the_chart(api):
    body = ok(api, "/v1/natal-chart", **BIRTH, relocate=PARIS_ID)
    town = town_from_parameter(PARIS_ID)
    assert body["meta"]["relocated"] == {
        "lat": town.lat,
        "lon": town.lon,
        "place": PARIS_ID,
        "name": "Paris",
        "country": "FR",
    }
    # The birth's instant, asked the ordinary way at Paris (place=, its datetime in UTC).
    assert body["data"] == ok(api, "/v1/natal-chart", datetime=BIRTH["datetime"], place=PARIS_ID)["data"]


def test_the_birth_time_is_read_in_the_birthplace_zone_not_the_relocated_towns(api):
    # 14:30 in Lyon (UTC+2 in summer) is 12:30 UTC, wherever the chart is relocated to.
    lyon = {"datetime": "1990-06-15T14:30:00", "place": "2996944"}
    body = ok(api, "/v1/natal-chart", **lyon, relocate="1850147")  # Tokyo, UTC+9
    assert body["meta"]["moment"]["datetime"]["tz"] == "Europe/Paris"
    assert body["data"]["metadata"]["datetime_iso"].startswith("1990-06-15T12:30:00")
    # Without a zone of its own the clock time is UTC, not the relocated town's.
    bare = ok(api, "/v1/natal-chart", datetime="1990-06-15T14:30:00", lat=51.5, lon=-0.13, relocate="1850147")
    assert "moment" not in bare["meta"]
    assert bare["data"]["metadata"]["datetime_iso"].startswith("1990-06-15T14:30:00")


def test_relocated_returns_equal_the_return_charts_cast_at_the_new_place(api):
    born = {"datetime": BIRTH["datetime"], "lat": BIRTH["lat"], "lon": BIRTH["lon"]}
    relocated = ok(api, "/v1/returns", **born, **RETURN, **RELOCATED)["data"]
    at_tokyo = ok(api, "/v1/returns", **{**born, **TOKYO}, **RETURN)["data"]
    assert relocated == at_tokyo
    for chart in relocated["charts"]:  # each return's instant cast at Tokyo, as /v1/natal-chart casts it
        natal = ok(api, "/v1/natal-chart", jd=chart["metadata"]["datetime"], **TOKYO)["data"]
        assert chart["houses"] == natal["houses"]


def test_a_relocated_wheel_draws_the_chart_cast_at_the_new_place(api):
    wheel = ok(api, "/v1/chart-wheel", **BIRTH, **RELOCATED, format="json")["data"]
    assert wheel["chart"] == ok(api, "/v1/natal-chart", **AT_TOKYO)["data"]


def test_a_relocated_transit_wheel_casts_both_rings_at_the_new_place(api):
    transit = {"kind": "transit", "transit_datetime": "2026-03-01T00:00:00Z", "format": "json"}
    relocated = ok(api, "/v1/chart-wheel", **BIRTH, **RELOCATED, **transit)["data"]
    at_tokyo = ok(api, "/v1/chart-wheel", **AT_TOKYO, **transit)["data"]
    assert (relocated["inner"], relocated["outer"]) == (at_tokyo["inner"], at_tokyo["outer"])


@pytest.mark.parametrize(
    ("lang", "born", "relocated"),
    [("en", "Birthplace: ", "Relocation: "), ("fr", "Lieu de naissance : ", "Relocalisation : ")],
)
def test_a_relocated_wheels_header_names_both_places_in_lang(api, lang, born, relocated):
    response = api.get("/v1/chart-wheel", params={**BIRTH, "relocate": PARIS_ID, "lang": lang})
    assert response.status_code == 200, response.text
    svg = response.text
    assert born in svg and "51°30′" in svg  # born in London
    assert relocated + "Paris, FR" in svg


def test_a_relocated_forecast_equals_the_forecast_cast_at_the_new_place(api):
    relocated = ok(api, "/v1/forecast", **BIRTH, **RANGE, **RELOCATED)["data"]["events"]
    at_tokyo = ok(api, "/v1/forecast", **AT_TOKYO, **RANGE)["data"]["events"]
    born = ok(api, "/v1/forecast", **BIRTH, **RANGE)["data"]["events"]
    assert relocated == at_tokyo
    angle_contacts = lambda events: [e for e in events if e["point"] in ANGLES]  # noqa: E731
    assert angle_contacts(relocated) and angle_contacts(relocated) != angle_contacts(born)


def test_a_relocated_forecast_keeps_the_events_no_natal_angle_decides(api):
    kinds = {"kinds": "station,ingress,void_of_course,return"}
    relocated = ok(api, "/v1/forecast", **BIRTH, **RANGE, **RELOCATED, **kinds)["data"]["events"]
    born = ok(api, "/v1/forecast", **BIRTH, **RANGE, **kinds)["data"]["events"]
    drop_ids = lambda events: [{k: v for k, v in e.items() if k != "id"} for e in events]  # noqa: E731
    assert drop_ids(relocated) == drop_ids(born)


def test_a_stored_chart_is_relocated_as_its_birth_would_be(stack: AppStack):
    _name, key = stack.new_key()
    with stack.client(key) as client:
        stored = client.post("/v1/charts", json={"name": "London", **BIRTH})
        assert stored.status_code == 200, stored.text
        chart = stored.json()["data"]["id"]
        relocated = ok(client, "/v1/natal-chart", chart=chart, **RELOCATED)["data"]
        assert relocated == ok(client, "/v1/natal-chart", **AT_TOKYO)["data"]


def test_a_stored_chart_keeps_no_relocation(stack: AppStack):
    _name, key = stack.new_key()
    with stack.client(key) as client:
        response = client.post("/v1/charts", json={"name": "London", **BIRTH, "relocate_lat": 35.68})
        assert_error(response, 400, "invalid_parameter", "relocate_lat")


def _refused_free(stack: AppStack, path: str, params: dict, code: str, param: str, saying: str = "") -> None:
    """Assert ``params`` on ``path`` are refused 400 with ``code`` naming ``param`` (its message
    holding ``saying``), and cost nothing."""
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        error = assert_error(client.get(path, params=params), 400, code, param)
    assert saying in error["message"]
    assert balance(stack, name) == 100


ENDPOINTS = [
    ("/v1/natal-chart", BIRTH),
    ("/v1/returns", {**BIRTH, **RETURN}),
    ("/v1/chart-wheel", BIRTH),
    ("/v1/forecast", {**BIRTH, **RANGE}),
]


@pytest.mark.parametrize(("path", "params"), ENDPOINTS)
def test_relocate_lat_without_relocate_lon_is_missing_parameter_and_free(stack, path, params):
    _refused_free(stack, path, {**params, "relocate_lat": 35.68}, "missing_parameter", "relocate_lon")


@pytest.mark.parametrize(("path", "params"), ENDPOINTS)
def test_a_relocation_out_of_range_is_invalid_and_free(stack, path, params):
    _refused_free(
        stack, path, {**params, **RELOCATED, "relocate_lat": 91}, "invalid_parameter", "relocate_lat", "[-90, 90]"
    )


@pytest.mark.parametrize(("path", "params"), ENDPOINTS)
def test_an_unknown_relocation_town_is_refused_and_free(stack, path, params):
    _refused_free(stack, path, {**params, "relocate": "999999999"}, "invalid_parameter", "relocate", "no place id")


@pytest.mark.parametrize(("path", "params"), ENDPOINTS)
def test_relocate_lat_with_relocate_conflicts_and_is_free(stack, path, params):
    sent = {**params, "relocate_lat": 35.68, "relocate_lon": 139.69, "relocate": PARIS_ID}
    _refused_free(stack, path, sent, "conflicting_parameters", "relocate")


def test_a_wheel_of_two_births_takes_no_relocation(stack):
    births = {
        "kind": "synastry",
        "datetime_a": BIRTH["datetime"],
        "lat_a": 51.5,
        "lon_a": -0.13,
        "datetime_b": "1992-01-01T00:00:00Z",
        "lat_b": 48.85,
        "lon_b": 2.35,
    }
    _refused_free(
        stack, "/v1/chart-wheel", {**births, **RELOCATED}, "invalid_parameter", "relocate_lat", "does not take it"
    )
