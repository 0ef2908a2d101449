"""/v1/astrocartography (interface.md, its section and result; decisions.md, format=geojson), rule by rule."""

from __future__ import annotations

import json

import geojson
import pytest
from jsonschema import Draft202012Validator

from tests.api.test_conventions_api import assert_error, balance

PATH = "/v1/astrocartography"
MOMENT = {"datetime": "2024-03-20T12:00:00Z"}
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node"]


def data(api, **params) -> dict:
    response = api.get(PATH, params={**MOMENT, **params})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 5
    return response.json()["data"]


def test_the_default_request_draws_the_planets_on_the_four_angles_in_target_order(api):
    found = data(api)
    assert set(found) == {"sky", "lines"} and set(found["sky"]) == {"gast", "obliquity", "sun_declination"}
    assert [(line["body"], line["line"]["value"]) for line in found["lines"]] == [
        (body, angle) for body in PLANETS for angle in ("ascendant", "descendant", "midheaven", "imum_coeli")
    ]
    line = found["lines"][0]
    assert (
        line["line"] == {"kind": "angle", "value": "ascendant"}
        and line["mode"] == "zodiacal"
        and line["house_system"] == "placidus"
    )
    for segment in line["segments"]:
        assert set(segment) == {"points", "end"} and set(segment["points"][0]) == {"latitude", "longitude"}


def test_points_run_south_to_north_with_longitudes_in_range_and_no_jump_wider_than_180(api):
    for line in data(api, latitude_step=0.5)["lines"]:
        for segment in line["segments"]:
            points = segment["points"]
            assert [p["latitude"] for p in points] == sorted(p["latitude"] for p in points)
            assert all(-180 < p["longitude"] <= 180 for p in points)
            assert all(abs(b["longitude"] - a["longitude"]) <= 180 for a, b in zip(points, points[1:]))


def test_short_angle_names_and_a_subset_of_angles(api):
    found = data(api, bodies="moon,venus", angles="mc,asc")
    assert [(line["body"], line["line"]["value"]) for line in found["lines"]] == [
        ("moon", "midheaven"),
        ("moon", "ascendant"),
        ("venus", "midheaven"),
        ("venus", "ascendant"),
    ]


def test_latitude_step_and_max_latitude_set_the_rows(api):
    (line,) = data(api, bodies="sun", angles="mc", latitude_step=10, max_latitude=45)["lines"]
    (segment,) = line["segments"]
    assert [p["latitude"] for p in segment["points"]] == [-45, -35, -25, -15, -5, 5, 15, 25, 35, 45]
    assert segment["end"] == "latitude_limit"


def test_the_full_form_takes_targets_with_angles_and_cusps_in_a_post_body(api):
    body = {
        **MOMENT,
        "targets": [{"body": "venus", "angles": ["mc"], "cusps": [2, 5.5]}, {"body": "mars", "cusps": [11]}],
        "system": "regiomontanus",
    }
    response = api.post(PATH, json=body)
    assert response.status_code == 200, response.text
    lines = response.json()["data"]["lines"]
    assert [(line["body"], line["line"]) for line in lines] == [
        ("venus", {"kind": "angle", "value": "midheaven"}),
        ("venus", {"kind": "cusp", "value": 2}),
        ("venus", {"kind": "cusp", "value": 5.5}),
        ("mars", {"kind": "cusp", "value": 11}),
    ]
    assert all(line["house_system"] == "regiomontanus" for line in lines)


CUSP_LINE_SYSTEMS = [
    "placidus",
    "koch",
    "porphyrius",
    "regiomontanus",
    "campanus",
    "equal",
    "vehlow_equal",
    "meridian",
    "azimuthal",
    "polich_page",
    "alcabitius",
    "morinus",
    "krusinski",
    "equal_mc",
    "pullen_sd",
    "pullen_sr",
    "sripati",
    "gauquelin",
    "sunshine",
    "sunshine_treindl",
    "carter",
    "apc",
]


@pytest.mark.parametrize("system", CUSP_LINE_SYSTEMS)
def test_rule_4_every_house_system_with_cusps_that_move_draws_cusp_lines(api, system):
    # Koch was refused before issue 22; whole_sign and equal_aries, whose cusps are fixed on the
    # zodiac, are the only refusals left (REFUSALS below). Kernel tests check the points.
    body = {**MOMENT, "targets": [{"body": "mars", "cusps": [2, 5.5, 10]}], "system": system, "mode": "mundane"}
    response = api.post(PATH, json=body)
    assert response.status_code == 200, response.text
    lines = response.json()["data"]["lines"]
    assert [line["line"]["value"] for line in lines] == [2, 5.5, 10] and all(
        line["house_system"] == system for line in lines
    )
    for line in lines:
        points = [p for segment in line["segments"] for p in segment["points"]]
        assert len(points) > 100, line["line"]  # 179 rows, most of them on the line


def test_koch_cusp_lines_end_at_the_polar_circle_as_house_system_undefined(api):
    body = {**MOMENT, "targets": [{"body": "sun", "cusps": [11]}], "system": "koch"}
    (line,) = api.post(PATH, json=body).json()["data"]["lines"]
    assert "house_system_undefined" in [s["end"] for s in line["segments"]]
    assert max(abs(p["latitude"]) for s in line["segments"] for p in s["points"]) < 90 - 23.44


def test_targets_may_come_as_url_encoded_json_in_a_get(api):
    targets = [{"body": "moon", "angles": ["asc"], "cusps": [10.5]}]
    found = data(api, targets=json.dumps(targets))
    assert [(line["body"], line["line"]["kind"]) for line in found["lines"]] == [("moon", "angle"), ("moon", "cusp")]


def test_mundane_mode_keeps_the_moons_latitude_and_moves_its_rising_line(api):
    zodiacal = data(api, bodies="moon", angles="asc")["lines"][0]
    mundane = data(api, bodies="moon", angles="asc", mode="mundane")["lines"][0]
    assert mundane["mode"] == "mundane"
    z, m = zodiacal["segments"][0]["points"], mundane["segments"][0]["points"]
    assert z != m


@pytest.mark.parametrize("form", ["json", "geojson"])
def test_each_format_is_valid_against_the_documents_schema_and_only_its_own_member(api, form):
    # The union's members must tell the two formats apart, so a typed client parses each
    # answer into its own model (tests/e2e/test_sdks.py does so through both SDKs).
    document = api.get("/v1/openapi.json").json()
    components = document["components"]["schemas"]
    answer = api.get(
        PATH,
        params={**MOMENT, "format": form, "targets": json.dumps([{"body": "sun", "angles": ["mc"], "cusps": [2.5]}])},
    )
    schema = document["paths"][PATH]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "components": document["components"]}).validate(answer.json())
    members = [member["$ref"].rsplit("/", 1)[-1] for member in components["AstrocartographyData"]["oneOf"]]
    fits = [
        name
        for name in members
        if Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        ).is_valid(answer.json()["data"])
    ]
    assert fits == ["AstroMap" if form == "json" else "GeoJsonFeatureCollection"]


def test_geojson_is_a_feature_collection_of_one_linestring_per_segment_valid_for_any_reader(api):
    response = api.get(PATH, params={**MOMENT, "format": "geojson"})
    assert response.status_code == 200, response.text
    read = geojson.loads(json.dumps(response.json()["data"]))
    assert read.is_valid, read.errors()
    collection = response.json()["data"]  # as sent (the geojson reader rounds to 6 decimals)
    assert collection["type"] == "FeatureCollection"
    lines = data(api)["lines"]
    assert len(collection["features"]) == sum(len(line["segments"]) for line in lines)
    feature = collection["features"][0]
    assert set(feature["properties"]) == {"body", "line", "mode", "house_system", "end"}
    segment = lines[0]["segments"][0]
    assert feature["geometry"]["coordinates"] == [[p["longitude"], p["latitude"]] for p in segment["points"]]
    assert feature["properties"]["end"] == segment["end"]
    for feature in collection["features"]:
        if feature["geometry"]["type"] == "Point":  # a segment of a single row
            continue
        coordinates = feature["geometry"]["coordinates"]
        assert all(abs(b[0] - a[0]) <= 180 for a, b in zip(coordinates, coordinates[1:])), "split at the antimeridian"


REFUSALS = [
    ({"latitude_step": 0.4}, "invalid_parameter", "latitude_step"),
    ({"latitude_step": 10.5}, "invalid_parameter", "latitude_step"),
    ({"max_latitude": 0.5}, "invalid_parameter", "max_latitude"),
    ({"max_latitude": 89.5}, "invalid_parameter", "max_latitude"),
    ({"angles": "vertex"}, "invalid_parameter", "angles"),
    ({"mode": "topographic"}, "invalid_parameter", "mode"),
    ({"sidereal": "lahiri"}, "invalid_parameter", "sidereal"),
    ({"topocentric": "true"}, "invalid_parameter", "topocentric"),
    ({"heliocentric": "true"}, "invalid_parameter", "heliocentric"),
    ({"format": "kml"}, "invalid_parameter", "format"),
    ({"bodies": "vulcan"}, "body_not_found", "bodies"),
    ({"targets": json.dumps([{"body": "vulcan", "angles": ["mc"]}])}, "body_not_found", None),
    ({"targets": "[{"}, "invalid_parameter", "targets"),
    ({"targets": json.dumps([{"body": "sun", "cusps": [13]}])}, "invalid_parameter", None),
    ({"targets": json.dumps([{"body": "sun", "cusps": [0.5]}])}, "invalid_parameter", None),
    ({"targets": json.dumps([{"body": "sun", "cusps": [2]}]), "system": "equal_aries"}, "invalid_parameter", "system"),
    ({"targets": json.dumps([{"body": "sun", "cusps": [2]}]), "system": "whole_sign"}, "invalid_parameter", "system"),
    ({"targets": json.dumps([{"body": "sun", "angles": ["mc"]}] * 21)}, "invalid_parameter", "targets"),
    ({"targets": json.dumps([{"body": "sun", "cusps": list(range(1, 13)) + [12.5]}])}, "invalid_parameter", None),
    (
        {"targets": json.dumps([{"body": b, "cusps": list(range(1, 13))} for b in PLANETS[:7]])},
        "invalid_parameter",
        "targets",
    ),
    (
        {"targets": json.dumps([{"body": "sun", "angles": ["mc"]}]), "bodies": "moon"},
        "conflicting_parameters",
        "targets",
    ),
]


@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{'-'.join(p)}" for p, c, _ in REFUSALS])
def test_each_refusal_of_rule_5_is_a_400_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(PATH, params={**MOMENT, **params}), 400, code, param)
    assert balance(stack, name) == 10


def test_eighty_lines_are_drawn_and_eighty_one_refused(api):
    eighty = [{"body": b, "cusps": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]} for b in PLANETS[:8]]
    assert len(data(api, targets=json.dumps(eighty))["lines"]) == 80
    eighty[0]["angles"] = ["mc"]
    assert_error(api.get(PATH, params={**MOMENT, "targets": json.dumps(eighty)}), 400, "invalid_parameter", "targets")
