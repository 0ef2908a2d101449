"""/v1/parans (issue 53, part 3; the rpc's comment), rule by rule."""

from __future__ import annotations

import json

import geojson
import pytest
from jsonschema import Draft202012Validator

from tests.api.test_conventions_api import assert_error, balance

PATH = "/v1/parans"
BIRTH = {"datetime": "1985-07-13T14:05:00Z", "lat": 51.5, "lon": -0.13}
SIDEREAL_DAY_S = 86164.0905


def answer(api, **params) -> dict:
    sent = {k: v for k, v in {**BIRTH, **params}.items() if v is not None}
    response = api.get(PATH, params=sent)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 5
    return response.json()["data"]


def test_the_day_scanned_is_one_sidereal_day_from_the_moment(api):
    day = answer(api)
    assert day["start"]["datetime"].startswith("1985-07-13T14:05:00")
    assert (day["end"]["jd"] - day["start"]["jd"]) * 86400 == pytest.approx(SIDEREAL_DAY_S, abs=1e-3)
    assert all(day["start"]["jd"] <= e["time"]["jd"] < day["end"]["jd"] for e in day["events"])


def test_the_default_points_are_the_planets_and_bradys_stars(api):
    points = {e["point"] for e in answer(api)["events"]}
    assert {"sun", "moon", "pluto", "mean_node", "Regulus", "Aldebaran", "Antares", "Fomalhaut"} <= points


def test_every_paran_pairs_two_points_within_the_default_orb_of_4_minutes(api):
    day = answer(api)
    assert day["orb_minutes"] == 4 and day["parans"]
    for paran in day["parans"]:
        first, second = paran["first"], paran["second"]
        assert first["point"] != second["point"]
        gap = (second["time"]["jd"] - first["time"]["jd"]) * 86400
        assert 0 <= gap <= 240 and paran["separation_seconds"] == pytest.approx(gap, abs=1e-3)


def test_a_wider_orb_finds_more_parans(api):
    narrow = answer(api, orb_minutes=1)["parans"]
    wide = answer(api, orb_minutes=30)["parans"]
    assert len(wide) > len(narrow)


def test_the_pairs_depend_on_the_latitude_not_the_longitude(api):
    def pairs(**place):
        day = answer(api, bodies="sun,venus,mars,jupiter", **place)
        return {
            (p["first"]["point"], p["first"]["angle"], p["second"]["point"], p["second"]["angle"])
            for p in day["parans"]
        }

    assert pairs(lat=51.5, lon=-0.13) != pairs(lat=20.0, lon=-0.13)
    # Another longitude sees each event at the same local sidereal time.
    east = answer(api, bodies="sun", stars="none", lon=30.0)["events"]
    west = answer(api, bodies="sun", stars="none", lon=-0.13)["events"]
    assert {e["angle"] for e in east} == {e["angle"] for e in west}
    assert {e["angle"]: round(e["lst_degrees"], 1) for e in east} == pytest.approx(
        {e["angle"]: round(e["lst_degrees"], 1) for e in west}, abs=0.2
    )


def test_named_stars_replace_the_default_and_none_leaves_them_out(api):
    points = {e["point"] for e in answer(api, bodies="sun", stars="Spica,alLeo")["events"]}
    assert points == {"sun", "Spica", "Regulus"}
    assert {e["point"] for e in answer(api, bodies="sun", stars="none")["events"]} == {"sun"}


def test_a_place_id_stands_for_lat_and_lon(api):
    day = answer(api, lat=None, lon=None, place="2988507", bodies="sun", stars="none")
    assert day["latitude"] == pytest.approx(48.85, abs=0.05)


def test_the_latitude_view_is_geojson_lines_of_constant_latitude(api):
    data = answer(api, format="geojson", pair="Regulus:dsc,Aldebaran:asc")
    read = geojson.loads(json.dumps(data))
    assert read.is_valid, read.errors()
    assert data["type"] == "FeatureCollection" and data["features"]
    for feature in data["features"]:
        latitude = feature["properties"]["latitude"]
        coordinates = feature["geometry"]["coordinates"]
        assert feature["geometry"]["type"] == "LineString"
        assert {c[1] for c in coordinates} == {latitude} and coordinates[0][0] == -180 and coordinates[-1][0] == 180
        assert feature["properties"]["first"] == {"point": "Regulus", "angle": "descendant"}


def test_the_latitude_view_agrees_with_the_day_at_that_latitude(api):
    data = answer(api, format="geojson", pair="Regulus:dsc,Aldebaran:asc")
    latitude = data["features"][0]["properties"]["latitude"]
    day = answer(api, lat=latitude, bodies="sun", stars="Regulus,Aldebaran", orb_minutes=0.5)
    assert any(
        {(p["first"]["point"], p["first"]["angle"]), (p["second"]["point"], p["second"]["angle"])}
        == {("Regulus", "descendant"), ("Aldebaran", "ascendant")}
        for p in day["parans"]
    )


def test_two_meridian_angles_have_no_paran_latitude(api):
    assert answer(api, format="geojson", pair="sun:mc,moon:ic")["features"] == []


def test_a_pole_is_refused_but_a_latitude_short_of_it_has_its_meridian_events(api):
    """At a pole every meridian meets: refused (REFUSALS). At 89.9 degrees the meridian is
    one: the Sun culminates and anti-culminates, and in July, its declination 22 degrees
    north, it neither rises nor sets."""
    angles = {e["angle"] for e in answer(api, lat=89.9, bodies="sun", stars="none")["events"]}
    assert angles == {"midheaven", "imum_coeli"}
    angles = {e["angle"] for e in answer(api, lat=-89.9, bodies="sun", stars="none")["events"]}
    assert angles == {"midheaven", "imum_coeli"}


def test_the_latitude_view_reads_no_place_so_a_pole_sent_with_it_is_not_refused(api):
    assert answer(api, lat=90, format="geojson", pair="Regulus:dsc,Aldebaran:asc")["features"]


REFUSALS = [
    ({"lat": None, "lon": None}, "missing_parameter", "lat"),
    ({"lat": 95}, "invalid_parameter", "lat"),
    ({"lat": 90}, "invalid_parameter", "lat"),
    ({"lat": -90}, "invalid_parameter", "lat"),
    ({"orb_minutes": 0.1}, "invalid_parameter", "orb_minutes"),
    ({"orb_minutes": 31}, "invalid_parameter", "orb_minutes"),
    ({"stars": "Vulcanis"}, "body_not_found", "stars"),
    ({"bodies": "vulcan"}, "body_not_found", "bodies"),
    ({"format": "kml"}, "invalid_parameter", "format"),
    ({"pair": "sun:asc,moon:mc"}, "invalid_parameter", "pair"),
    ({"format": "geojson"}, "invalid_parameter", "pair"),
    ({"format": "geojson", "pair": "sun:asc"}, "invalid_parameter", "pair"),
    ({"format": "geojson", "pair": "sun:asc,moon"}, "invalid_parameter", "pair"),
    ({"format": "geojson", "pair": "sun:asc,moon:vertex"}, "invalid_parameter", "pair"),
    ({"format": "geojson", "pair": "sun:asc,vulcan:mc"}, "body_not_found", "pair"),
    ({"format": "geojson", "pair": "sun:asc,planets:mc"}, "invalid_parameter", "pair"),
]


@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{'-'.join(p)}" for p, c, _ in REFUSALS])
def test_each_refusal_is_a_400_with_a_suggestion_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    sent = {k: v for k, v in {**BIRTH, **params}.items() if v is not None}
    with stack.client(key) as client:
        assert_error(client.get(PATH, params=sent), 400, code, param)
    assert balance(stack, name) == 10


@pytest.mark.parametrize("form", ["json", "geojson"])
def test_each_format_is_valid_against_the_documents_schema_and_only_its_own_member(api, form):
    document = api.get("/v1/openapi.json").json()
    params = {**BIRTH, "bodies": "sun,venus", "stars": "Regulus"}
    if form == "geojson":
        params.update(format="geojson", pair="venus:asc,Regulus:mc")
    answer_json = api.get(PATH, params=params).json()
    schema = document["paths"][PATH]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "components": document["components"]}).validate(answer_json)
    members = [m["$ref"].rsplit("/", 1)[-1] for m in document["components"]["schemas"]["ParansData"]["oneOf"]]
    fits = [
        name
        for name in members
        if Draft202012Validator(
            {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        ).is_valid(answer_json["data"])
    ]
    assert fits == ["ParansDay" if form == "json" else "ParanLatitudeCollection"]
