"""/v1/dignities, /v1/patterns, /v1/lots and /v1/midpoints (interface.md), rule by rule."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error

MOMENT = {"datetime": "1990-06-15T14:30:00Z"}
PLACE = {"lat": 51.5, "lon": -0.13}
SEVEN = [
    "part_of_fortune",
    "part_of_spirit",
    "part_of_eros",
    "part_of_necessity",
    "part_of_courage",
    "part_of_victory",
    "part_of_nemesis",
]


def data(api, path, **params) -> dict:
    response = api.get(path, params={**MOMENT, **params})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 1
    return response.json()["data"]


def test_dignities_give_one_record_per_body_without_triplicity_unless_day_chart_is_given(api):
    records = data(api, "/v1/dignities")["dignities"]
    assert [r["body"] for r in records][:3] == ["sun", "moon", "mercury"]
    assert all(r["triplicity_ruler"] is None and r["in_triplicity"] is False for r in records)
    assert (
        data(api, "/v1/dignities", day_chart="false")["dignities"][0]["triplicity_ruler"] == "mercury"
    )  # Gemini by night


def test_dispositors_give_a_chain_per_body_with_its_ending(api):
    found = data(api, "/v1/dignities", dispositors="true", bodies="sun,mercury,moon,jupiter")["dispositors"]
    assert [chain[0]["body"] for chain in found["chains"]] == ["sun", "mercury", "moon", "jupiter"]
    for chain in found["chains"]:
        assert all(set(link) == {"body", "sign", "dispositor"} for link in chain)
    assert "dispositors" not in data(api, "/v1/dignities") or not data(api, "/v1/dignities")["dispositors"]["chains"]


def test_patterns_answer_the_aspects_they_were_built_from(api):
    found = data(api, "/v1/patterns", patterns="stellium,t_square", stellium_min=2)
    pairs = {(a["body_a"], a["body_b"], a["aspect"]) for a in found["aspects"]}
    for pattern in found["patterns"]:
        assert all((a["body_a"], a["body_b"], a["aspect"]) in pairs for a in pattern["aspects"])


def test_a_stellium_by_house_needs_lat_and_lon(api):
    assert_error(api.get("/v1/patterns", params={**MOMENT, "stellium_scope": "house"}), 400, "missing_parameter", "lat")
    assert data(api, "/v1/patterns", stellium_scope="house", **PLACE)


def test_lots_are_the_seven_in_evaluation_order_with_the_sect(api):
    found = data(api, "/v1/lots", **PLACE)
    assert found["is_day_chart"] is True  # the Sun is up in London at 14:30 UTC in June
    assert [lot["id"] for lot in found["lots"]] == SEVEN
    eros = found["lots"][2]
    assert eros["formula"]["body_b"] == "part_of_spirit" and eros["formula"]["reversed"] is False


def test_lots_eros_brings_spirit_along(api):
    assert [lot["id"] for lot in data(api, "/v1/lots", lots="eros", **PLACE)["lots"]] == [
        "part_of_spirit",
        "part_of_eros",
    ]


def test_a_sidereal_lot_is_the_tropical_lot_minus_the_ayanamsha_in_the_same_house(api):
    tropical = data(api, "/v1/lots", **PLACE)["lots"]
    sidereal = data(api, "/v1/lots", sidereal="lahiri", **PLACE)["lots"]
    shifts = {round((t["longitude"] - s["longitude"]) % 360, 6) for t, s in zip(tropical, sidereal)}
    assert len(shifts) == 1 and 23 < shifts.pop() < 25
    assert [t["house"] for t in tropical] == [s["house"] for s in sidereal]


def test_an_unknown_lot_is_invalid_parameter(api):
    assert_error(api.get("/v1/lots", params={**MOMENT, **PLACE, "lots": "basis"}), 400, "invalid_parameter", "lots")


def test_midpoints_list_every_pair_then_the_antiscia_and_houses_only_with_a_place(api):
    points = data(api, "/v1/midpoints", bodies="sun,moon,mars")["derived_points"]
    assert [p["name"] for p in points] == [
        "sun/moon",
        "sun/mars",
        "moon/mars",
        "sun",
        "sun",
        "moon",
        "moon",
        "mars",
        "mars",
    ]
    assert all("house" not in p for p in points)
    assert all(
        1 <= p["house"] <= 12 for p in data(api, "/v1/midpoints", bodies="sun,moon,mars", **PLACE)["derived_points"]
    )


def test_midpoint_lots_need_lat_and_lon(api):
    assert_error(api.get("/v1/midpoints", params={**MOMENT, "lots": "fortune"}), 400, "missing_parameter", "lat")
    lots = [p for p in data(api, "/v1/midpoints", lots="default", **PLACE)["derived_points"] if p["kind"] == "lot"]
    assert len(lots) == 7 and lots[0]["constituents"][2] == "ascendant"


def test_trees_give_one_tree_per_body_with_hits_tightest_first(api):
    found = data(api, "/v1/midpoints", trees="true", modulus=45, tree_orb=2)
    assert [tree["body"] for tree in found["trees"]][:2] == ["sun", "moon"]
    for tree in found["trees"]:
        assert tree["modulus"] == 45 and [h["orb"] for h in tree["hits"]] == sorted(h["orb"] for h in tree["hits"])
        assert all(tree["body"] not in h["constituents"] for h in tree["hits"])


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"modulus": 0}, "modulus"),
        ({"modulus": 361}, "modulus"),
        ({"tree_orb": 15.5}, "tree_orb"),
        ({"resolution": "middle"}, "resolution"),
    ],
)
def test_midpoint_limits_are_invalid_parameter(api, params, param):
    assert_error(api.get("/v1/midpoints", params={**MOMENT, **params}), 400, "invalid_parameter", param)
