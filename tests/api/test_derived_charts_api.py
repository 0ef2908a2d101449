"""/v1/synastry, /v1/draconic, /v1/davison and /v1/progressed (interface.md; decisions.md, Charts)."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.api.test_conventions_api import assert_error, balance

PAIR = {
    "datetime_a": "1984-02-11T09:20:00Z",
    "lat_a": 48.85,
    "lon_a": 2.35,
    "datetime_b": "1986-10-30T22:05:00Z",
    "lat_b": -23.55,
    "lon_b": -46.63,
}
A = {"datetime": "1984-02-11T09:20:00Z", "lat": 48.85, "lon": 2.35}
B = {"datetime": "1986-10-30T22:05:00Z", "lat": -23.55, "lon": -46.63}
SWAPPED = {
    "datetime_a": B["datetime"],
    "lat_a": B["lat"],
    "lon_a": B["lon"],
    "datetime_b": A["datetime"],
    "lat_b": A["lat"],
    "lon_b": A["lon"],
}


def data(api, path, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


@pytest.mark.parametrize(
    ("path", "params", "credits"),
    [
        ("/v1/synastry", PAIR, 3),
        ("/v1/davison", PAIR, 3),
        ("/v1/composite", PAIR, 3),
        ("/v1/draconic", A, 2),
        ("/v1/progressed", {**A, "target_datetime": "2020-01-01T00:00:00Z"}, 2),
    ],
)
def test_each_derived_chart_costs_its_credits(stack, path, params, credits):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get(path, params=params).json()["meta"]["credits_used"] == credits
    assert balance(stack, name) == 10 - credits


def test_synastry_charts_are_exactly_the_natal_charts(api):
    synastry = data(api, "/v1/synastry", **PAIR, patterns="true", dignities="true")
    assert synastry["chart_a"] == data(api, "/v1/natal-chart", **A, patterns="true", dignities="true")
    assert synastry["chart_b"] == data(api, "/v1/natal-chart", **B, patterns="true", dignities="true")


def test_synastry_body_a_is_from_chart_a_and_swapping_the_births_mirrors_everything(api):
    forward, backward = data(api, "/v1/synastry", **PAIR), data(api, "/v1/synastry", **SWAPPED)
    assert forward["chart_a"] == backward["chart_b"] and forward["chart_b"] == backward["chart_a"]

    # Orbs rounded to 1e-9 degree: A-B and B-A subtract the same longitudes the other way round.
    def mirror(items, keys):
        return sorted(tuple(round(item[k], 9) if k == "orb" else item[k] for k in keys) for item in items)

    assert mirror(forward["inter_aspects"], ("body_a", "body_b", "aspect", "orb")) == mirror(
        backward["inter_aspects"], ("body_b", "body_a", "aspect", "orb")
    )
    assert mirror(forward["inter_parallels"], ("body_a", "body_b", "orb")) == mirror(
        backward["inter_parallels"], ("body_b", "body_a", "orb")
    )
    assert forward["inter_aspects"]


def test_draconic_puts_the_node_at_zero_and_names_the_turn(api):
    chart = data(api, "/v1/draconic", **A, node="true_node", bodies="planets,true_node")
    node = next(p for p in chart["positions"] if p["body"] == "true_node")
    assert (node["longitude"], chart["chart_type"]) == (0.0, "draconic")
    assert chart["metadata"]["source"]["type"] == "draconic" and chart["metadata"]["source"]["node_body"] == "true_node"


@pytest.mark.parametrize(
    ("params", "param"),
    [({"house_position_mode": "mundane"}, "house_position_mode"), ({"dignities": "true"}, "dignities")],
)
def test_draconic_refuses_mundane_houses_and_dignities(api, params, param):
    assert_error(api.get("/v1/draconic", params={**A, **params}), 400, "invalid_parameter", param)


def test_draconic_without_the_node_is_no_north_node(api):
    assert_error(api.get("/v1/draconic", params={**A, "bodies": "sun,moon"}), 400, "no_north_node", "bodies")


def test_davison_positions_are_those_of_the_halved_utc_interval_at_the_midpoint_place(api):
    davison = data(api, "/v1/davison", **PAIR)
    a, b = (datetime.fromisoformat(text.replace("Z", "+00:00")) for text in (A["datetime"], B["datetime"]))
    halfway = (a + (b - a) / 2).isoformat()
    place = davison["metadata"]["location"]
    chart = data(api, "/v1/chart", datetime=halfway, lat=place["latitude"], lon=place["longitude"])
    assert [p["longitude"] for p in davison["positions"]] == [p["longitude"] for p in chart["positions"]]
    assert davison["chart_type"] == "davison" and davison["metadata"]["source"]["lat_b"] == PAIR["lat_b"]


def test_progressed_is_the_natal_chart_a_day_later_for_each_year(api):
    natal_jd = data(api, "/v1/natal-chart", **A)["metadata"]["datetime"]
    progressed = data(api, "/v1/progressed", **A, target_jd=natal_jd + 30 * 365.2422)
    assert progressed["metadata"]["datetime"] == pytest.approx(natal_jd + 30, abs=1e-6)
    assert (
        progressed["positions"]
        == data(api, "/v1/natal-chart", jd=natal_jd + 30, lat=A["lat"], lon=A["lon"])["positions"]
    )
    assert progressed["metadata"]["source"]["year_days"] == 365.2422


def test_a_progression_target_before_birth_is_invalid_progression(api):
    assert_error(
        api.get("/v1/progressed", params={**A, "target_datetime": "1980-01-01T00:00:00Z"}),
        400,
        "invalid_progression",
        "target_datetime",
    )


def test_composite_positions_carry_midpoint_longitude_and_the_typed_source(api):
    chart = data(api, "/v1/composite", **PAIR, resolution="far")
    assert chart["chart_type"] == "composite" and chart["metadata"]["source"] == {
        "type": "composite",
        "resolution": "far",
    }
    assert all(p["midpoint_longitude"] == p["longitude"] for p in chart["positions"])


def test_a_composite_refuses_mundane_house_positions(api):
    assert_error(
        api.get("/v1/composite", params={**PAIR, "house_position_mode": "mundane"}),
        400,
        "invalid_parameter",
        "house_position_mode",
    )


def test_composite_lots_compute_their_own_operands(api):
    # Courage is Asc + Fortune - Mars by day: Mars is computed though bodies leave it out.
    few = data(api, "/v1/composite", **PAIR, bodies="sun,moon", derived_points="true", lots="courage")
    every = data(api, "/v1/composite", **PAIR, derived_points="true", lots="courage")
    lots = lambda chart: [(p["name"], p["longitude"]) for p in chart["derived_points"] if p["kind"] == "lot"]  # noqa: E731
    assert lots(few) == lots(every) and len(lots(few)) == 2
