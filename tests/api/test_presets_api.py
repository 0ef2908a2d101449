"""preset= on /v1/natal-chart, /v1/vedic/chart, /v1/vedic/dasha and /v1/forecast (issue 52, part 2;
docs/presets.md), rule by rule through the API."""

from __future__ import annotations

import pytest

from tests.api.test_answer_schemas_api import undeclared_or_missing
from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
RANGE = {"start": "2026-03-01T00:00:00Z", "end": "2026-03-08T00:00:00Z", "kinds": "ingress,lunation"}
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]


@pytest.fixture(scope="module")
def funded(stack):
    return stack.new_key(credits=1000)


def answer(api, path: str, credits: int, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == credits
    return response.json()


@pytest.mark.parametrize(
    "preset, points",
    [
        ("astro_com", ["true_node", "chiron"]),
        ("kerykeion", ["true_node", "chiron", "mean_apogee"]),
        ("immanuel", ["true_node", "chiron", "osc_apogee"]),
    ],
)
def test_a_western_preset_casts_placidus_tropical_geocentric_with_the_programs_points(api, preset, points):
    chart = answer(api, "/v1/natal-chart", 2, **BIRTH, preset=preset)["data"]
    metadata = chart["metadata"]
    assert metadata["house_system"] == "placidus" and metadata["sidereal"] is None
    assert metadata["bodies"] == PLANETS + points
    assert [p["body"] for p in chart["positions"]] == PLANETS + points


def test_the_true_node_of_a_preset_is_the_true_node_not_the_mean_one(api):
    preset = answer(api, "/v1/natal-chart", 2, **BIRTH, preset="astro_com")["data"]
    plain = answer(api, "/v1/natal-chart", 2, **BIRTH, bodies="true_node")["data"]
    node = next(p for p in preset["positions"] if p["body"] == "true_node")
    assert node["longitude"] == plain["positions"][0]["longitude"]


def test_meta_preset_names_the_preset_and_each_parameter_it_set(api):
    meta = answer(api, "/v1/natal-chart", 2, **BIRTH, preset="kerykeion")["meta"]
    assert meta["preset"] == {
        "name": "kerykeion",
        "applied": {
            "system": "placidus",
            "bodies": [*PLANETS, "true_node", "chiron", "mean_apogee"],
            "topocentric": False,
        },
    }


def test_a_parameter_sent_beats_the_preset_and_is_not_listed_as_set_by_it(api):
    body = answer(
        api,
        "/v1/natal-chart",
        2,
        **BIRTH,
        preset="astro_com",
        system="koch",
        bodies="sun,mean_node",
        topocentric="true",
    )
    assert body["data"]["metadata"]["house_system"] == "koch"
    assert body["data"]["metadata"]["bodies"] == ["sun", "mean_node"]
    assert body["meta"]["preset"] == {"name": "astro_com", "applied": {}}


def test_a_sidereal_zodiac_sent_beats_a_tropical_preset(api):
    chart = answer(api, "/v1/natal-chart", 2, **BIRTH, preset="immanuel", sidereal="lahiri")["data"]
    assert chart["metadata"]["sidereal"] == "lahiri"


def test_a_preset_is_read_in_any_case_and_named_in_its_canonical_spelling(api):
    meta = answer(api, "/v1/natal-chart", 2, **BIRTH, preset="Astro_COM")["meta"]
    assert meta["preset"]["name"] == "astro_com"


def test_a_preset_in_a_json_body_is_applied_as_in_a_query_string(api):
    response = api.post("/v1/natal-chart", json={**BIRTH, "preset": "astro_com"})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["preset"]["name"] == "astro_com"
    assert "true_node" in response.json()["data"]["metadata"]["bodies"]


def test_an_answer_without_a_preset_has_no_meta_preset(api):
    assert "preset" not in answer(api, "/v1/natal-chart", 2, **BIRTH)["meta"]


def test_the_jhora_preset_casts_the_vedic_chart_with_true_pushya_the_true_node_and_whole_signs(api):
    body = answer(api, "/v1/vedic/chart", 2, **BIRTH, preset="jhora")
    conventions = body["meta"]["conventions"]
    assert (conventions["ayanamsha"], conventions["node"], conventions["houses"]) == (
        "true_pushya",
        "true",
        "whole_sign",
    )
    assert body["meta"]["preset"] == {
        "name": "jhora",
        "applied": {"ayanamsha": "true_pushya", "node": "true", "houses": "whole_sign"},
    }


def test_a_vedic_parameter_sent_beats_the_jhora_preset(api):
    body = answer(api, "/v1/vedic/chart", 2, **BIRTH, preset="jhora", ayanamsha="lahiri", node="mean")
    conventions = body["meta"]["conventions"]
    assert (conventions["ayanamsha"], conventions["node"]) == ("lahiri", "mean")
    assert body["meta"]["preset"]["applied"] == {"houses": "whole_sign"}


def test_the_jhora_preset_counts_the_dasha_from_the_true_pushya_moon_in_sidereal_years(api):
    response = api.get("/v1/vedic/dasha", params={**BIRTH, "at": "2024-01-01T00:00:00Z", "preset": "jhora"})
    assert response.status_code == 200, response.text
    conventions = response.json()["meta"]["conventions"]
    assert (conventions["ayanamsha"], conventions["year_length"]) == ("true_pushya", "sidereal")
    assert response.json()["meta"]["preset"]["applied"] == {"ayanamsha": "true_pushya", "year_length": "sidereal"}


def test_a_western_preset_on_the_forecast_sets_nothing_its_fixed_conventions_are_the_programs(api):
    plain = answer(api, "/v1/forecast", 10, **BIRTH, **RANGE)
    preset = answer(api, "/v1/forecast", 10, **BIRTH, **RANGE, preset="immanuel")
    assert preset["data"] == plain["data"]
    assert preset["meta"]["preset"] == {"name": "immanuel", "applied": {}}


def test_an_unknown_preset_is_refused_free_with_the_endpoints_presets_suggested(stack, funded):
    name, key = funded
    before = balance(stack, name)
    with stack.client(key) as api:
        error = assert_error(
            api.get("/v1/natal-chart", params={**BIRTH, "preset": "astrodienst"}), 400, "invalid_parameter", "preset"
        )
    assert "astro_com, kerykeion, immanuel" in error["suggestion"]
    assert balance(stack, name) == before


@pytest.mark.parametrize(
    "path, preset, suggested",
    [
        ("/v1/natal-chart", "jhora", "astro_com, kerykeion, immanuel"),
        ("/v1/vedic/chart", "kerykeion", "jhora"),
        ("/v1/vedic/dasha", "astro_com", "jhora"),
        ("/v1/forecast", "jhora", "astro_com, kerykeion, immanuel"),
    ],
)
def test_a_preset_of_another_endpoint_is_refused_free_naming_the_ones_that_apply(
    stack, funded, path, preset, suggested
):
    name, key = funded
    before = balance(stack, name)
    extra = {"/v1/forecast": RANGE, "/v1/vedic/dasha": {"at": "2024-01-01T00:00:00Z"}}.get(path, {})
    params = {**BIRTH, **extra, "preset": preset}
    with stack.client(key) as api:
        error = assert_error(api.get(path, params=params), 400, "invalid_parameter", "preset")
    assert "does not apply" in error["message"] and suggested in error["suggestion"]
    assert balance(stack, name) == before


def test_a_preset_costs_what_the_request_costs(stack, funded):
    name, key = funded
    with stack.client(key) as api:
        first = balance(stack, name)
        answer(api, "/v1/natal-chart", 2, **BIRTH)
        plain = first - balance(stack, name)
        second = balance(stack, name)
        answer(api, "/v1/natal-chart", 2, **BIRTH, preset="kerykeion")
        assert second - balance(stack, name) == plain == 2


@pytest.mark.parametrize(
    "path, params",
    [
        ("/v1/natal-chart", {**BIRTH, "preset": "astro_com"}),
        ("/v1/vedic/chart", {**BIRTH, "preset": "jhora"}),
        ("/v1/forecast", {**BIRTH, **RANGE, "preset": "kerykeion"}),
    ],
)
def test_meta_preset_is_what_the_answers_schema_declares(api, path, params):
    answer = api.get(path, params=params)
    assert answer.status_code == 200, answer.text
    assert undeclared_or_missing(api.get("/v1/openapi.json").json(), path, "get", answer) == []


def test_a_stored_charts_setting_counts_as_sent_and_beats_the_preset(stack, funded):
    _, key = funded
    with stack.client(key) as api:
        stored = api.post("/v1/charts", json={"name": "Ada", **BIRTH, "system": "whole_sign"})
        assert stored.status_code == 200, stored.text
        body = answer(api, "/v1/natal-chart", 2, chart=stored.json()["data"]["id"], preset="astro_com")
    assert body["data"]["metadata"]["house_system"] == "whole_sign"
    assert "system" not in body["meta"]["preset"]["applied"]


def test_a_stored_chart_may_keep_a_preset_among_its_settings(stack, funded):
    _, key = funded
    with stack.client(key) as api:
        stored = api.post("/v1/charts", json={"name": "Ada", **BIRTH, "preset": "kerykeion"})
        assert stored.status_code == 200, stored.text
        body = answer(api, "/v1/natal-chart", 2, chart=stored.json()["data"]["id"])
    assert body["meta"]["preset"]["name"] == "kerykeion"
    assert body["data"]["metadata"]["bodies"][-1] == "mean_apogee"


def test_a_stored_preset_is_left_out_where_the_endpoint_does_not_take_it(stack, funded):
    _, key = funded
    with stack.client(key) as api:
        stored = api.post("/v1/charts", json={"name": "Ada", **BIRTH, "preset": "astro_com"})
        assert stored.status_code == 200, stored.text
        chart = stored.json()["data"]["id"]
        vedic = answer(api, "/v1/vedic/chart", 2, chart=chart)
        forecast = answer(api, "/v1/forecast", 10, chart=chart, **RANGE)
    assert "preset" not in vedic["meta"] and vedic["meta"]["conventions"]["ayanamsha"] == "lahiri"
    assert forecast["meta"]["preset"]["name"] == "astro_com"


def test_a_stored_chart_cannot_keep_a_preset_the_natal_chart_does_not_take(stack, funded):
    _, key = funded
    with stack.client(key) as api:
        refused = api.post("/v1/charts", json={"name": "Ada", **BIRTH, "preset": "jhora"})
    assert_error(refused, 400, "invalid_parameter", "preset")
