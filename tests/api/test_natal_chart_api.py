"""/v1/natal-chart (interface.md, Chart object and GET/POST /v1/natal-chart), rule by rule."""

from __future__ import annotations

import math

import pytest

from tests.api.test_conventions_api import assert_error, balance

NATAL = "/v1/natal-chart"
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
CHART_FIELDS = {"chart_type", "positions", "houses", "aspects", "parallels", "patterns", "derived_points", "metadata"}
POSITION_FIELDS = {
    "body",
    "longitude",
    "latitude",
    "distance_au",
    "speed",
    "retrograde",
    "sign",
    "sign_degree",
    "house",
    "declination",
    "out_of_bounds",
}


def natal(api, **params) -> dict:
    response = api.get(NATAL, params={**BIRTH, **params})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_natal_chart_has_the_chart_object_fields_and_costs_2_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        body = natal(client)
    chart = body["data"]
    assert set(chart) == CHART_FIELDS  # no dignities unless asked; no warnings when there are none
    assert chart["chart_type"] == "natal" and chart["metadata"]["source"] == {"type": "natal"}
    assert (chart["patterns"], chart["derived_points"]) == ([], [])
    assert body["meta"]["credits_used"] == 2 and balance(stack, name) == 8


def test_positions_carry_lowercase_signs_houses_and_speeds(api):
    for position in natal(api)["data"]["positions"]:
        assert set(position) == POSITION_FIELDS
        assert position["sign"] == position["sign"].lower() and 1 <= position["house"] <= 12
        assert position["retrograde"] is (position["speed"] < 0)


def test_the_houses_object_has_a_placeholder_then_twelve_cusps(api):
    houses = natal(api)["data"]["houses"]
    assert len(houses["cusps"]) == 13 and houses["cusps"][1] == houses["ascendant"]


def test_mundane_mode_adds_house_position_and_house_is_its_floor(api):
    for position in natal(api, house_position_mode="mundane")["data"]["positions"]:
        assert 1 <= position["house_position"] < 13 and position["house"] == math.floor(position["house_position"])


def test_chart_aspects_carry_max_orb_and_the_actual_separation(api):
    chart = natal(api)["data"]
    longitude = {p["body"]: p["longitude"] for p in chart["positions"]}
    for aspect in chart["aspects"]:
        separation = abs(longitude[aspect["body_a"]] - longitude[aspect["body_b"]]) % 360
        assert aspect["angle"] == pytest.approx(min(separation, 360 - separation), abs=1e-9)
        assert aspect["orb"] <= aspect["max_orb"]


def test_applying_false_renders_applying_as_null(api):
    assert all(a["applying"] is None for a in natal(api, applying="false")["data"]["aspects"])


def test_patterns_true_fills_patterns_with_their_forming_aspects(api):
    chart = natal(api, patterns="true", pattern_types="stellium,t_square,grand_trine", stellium_min=2)["data"]
    assert chart["patterns"], "this chart has a two-body stellium at least"
    for pattern in chart["patterns"]:
        assert pattern["pattern"] in ("stellium", "t_square", "grand_trine")


def test_a_pattern_type_whose_aspects_were_not_asked_for_is_named_in_warnings(api):
    body = natal(api, patterns="true", pattern_types="yod", aspects="conjunction,sextile")
    assert any("quincunx" in warning for warning in body["warnings"])


def test_derived_points_fill_midpoints_antiscia_and_lots_with_houses(api):
    points = natal(api, derived_points="true", lots="fortune")["data"]["derived_points"]
    kinds = {p["kind"] for p in points}
    assert kinds == {"midpoint", "antiscion", "contra_antiscion", "lot"}
    lot = next(p for p in points if p["kind"] == "lot")
    assert lot["name"] == "Part of Fortune" and lot["constituents"][2] == "ascendant" and 1 <= lot["house"] <= 12
    assert lot["sign"] == lot["sign"].capitalize()
    midpoints_only = natal(api, derived_points="true", antiscia="false")["data"]["derived_points"]
    assert {p["kind"] for p in midpoints_only} == {"midpoint"} and len(midpoints_only) == 55  # 11 bodies, 55 pairs


def test_dignities_true_attaches_one_record_per_body_assessed_for_the_chart_s_sect(api):
    chart = natal(api, dignities="true")["data"]
    assert [d["body"] for d in chart["dignities"]] == [p["body"] for p in chart["positions"]]
    sun = chart["dignities"][0]
    assert sun["sign"] == "gemini" and sun["triplicity_ruler"] == "saturn"  # air by day: the Sun is up at 14:30
    night = natal(api, dignities="true", day_chart="false")["data"]["dignities"][0]
    assert night["triplicity_ruler"] == "mercury"


def test_inside_the_polar_circle_the_chart_says_porphyrius_in_metadata_and_warnings(api):
    body = api.get(NATAL, params={**BIRTH, "lat": 75.0}).json()
    assert body["data"]["metadata"]["house_system"] == "porphyrius"
    assert [w["kind"] for w in body["data"]["warnings"]] == ["high_latitude"] and body["warnings"]


def test_sidereal_reduces_every_longitude_and_is_named_in_metadata(api):
    tropical, sidereal = natal(api)["data"], natal(api, sidereal="lahiri")["data"]
    assert sidereal["metadata"]["sidereal"] == "lahiri"
    shifts = {
        round((t["longitude"] - s["longitude"]) % 360, 6) for t, s in zip(tropical["positions"], sidereal["positions"])
    }
    assert len(shifts) == 1 and 23 < shifts.pop() < 25


def test_equatorial_adds_right_ascension(api):
    assert all(0 <= p["right_ascension"] < 360 for p in natal(api, equatorial="true")["data"]["positions"])


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"speed": "false"}, "speed"),
        ({"patterns": "true", "pattern_types": "boomerang"}, "pattern_types"),
        ({"stellium_min": 11}, "stellium_min"),
        ({"stellium_scope": "galaxy"}, "stellium_scope"),
        ({"resolution": "middle"}, "resolution"),
        ({"derived_points": "true", "lots": "basis"}, "lots"),
        ({"house_position_mode": "mundane", "heliocentric": "true"}, "house_position_mode"),
    ],
    ids=["speed-flag", "pattern-type", "stellium-min", "stellium-scope", "resolution", "lot", "mundane-heliocentric"],
)
def test_refused_options_are_invalid_parameter_naming_them(api, params, param):
    assert_error(api.get(NATAL, params={**BIRTH, **params}), 400, "invalid_parameter", param)


def test_lat_and_lon_are_required(api):
    assert_error(api.get(NATAL, params={"datetime": BIRTH["datetime"], "lon": 0}), 400, "missing_parameter", "lat")
