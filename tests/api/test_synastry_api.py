"""/v1/synastry's house overlays and compatibility score (docs/synastry.md).

References: the overlays by hand, from chart B's own cusps as /v1/natal-chart gives them
(zodiacal mode), and from Swiss Ephemeris's house-position function called here directly
(swe.house_pos, mundane mode); the score's method against kerykeion in
tests/unit/kernel/test_compatibility_score.py.
"""

from __future__ import annotations

import swisseph as swe

from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_derived_charts_api import PAIR, SWAPPED, A, B, data


def _span_holding(longitude: float, cusps: list[float]) -> int:
    """The house (1-12) whose span, from its cusp forward to the next, holds ``longitude``."""
    return next(h + 1 for h in range(12) if (longitude - cusps[h]) % 360 < (cusps[(h + 1) % 12] - cusps[h]) % 360)


def test_overlays_put_each_body_of_a_in_the_house_of_b_whose_cusps_hold_its_longitude(api):
    synastry = data(api, "/v1/synastry", **PAIR)
    natal_a, natal_b = data(api, "/v1/natal-chart", **A), data(api, "/v1/natal-chart", **B)
    for guest, host, overlays in ((natal_a, natal_b, "a_in_b"), (natal_b, natal_a, "b_in_a")):
        cusps = host["houses"]["cusps"][1:13]
        expected = [{"body": p["body"], "house": _span_holding(p["longitude"], cusps)} for p in guest["positions"]]
        assert synastry["overlays"][overlays] == expected
    # Not the body's own house: at least one body changes house from one chart to the other.
    assert [o["house"] for o in synastry["overlays"]["a_in_b"]] != [p["house"] for p in natal_a["positions"]]


def test_mundane_overlays_are_the_house_position_of_a_bodys_longitude_and_latitude_in_the_other_chart(api):
    # B at Reykjavik: far from the equator, house positions and cusp spans part more often.
    pair = {**PAIR, "lat_b": 64.15, "lon_b": -21.94}
    synastry = data(api, "/v1/synastry", **pair, house_position_mode="mundane")
    chart_a, chart_b = synastry["chart_a"], synastry["chart_b"]
    jd = chart_b["metadata"]["datetime"]
    armc = swe.houses_ex(jd, pair["lat_b"], pair["lon_b"], b"P")[1][2]
    obliquity = swe.calc_ut(jd, swe.ECL_NUT)[0][0]
    expected = [
        {
            "body": p["body"],
            "house": int(swe.house_pos(armc, pair["lat_b"], obliquity, (p["longitude"], p["latitude"]), b"P")),
        }
        for p in chart_a["positions"]
    ]
    assert synastry["overlays"]["a_in_b"] == expected
    zodiacal = data(api, "/v1/synastry", **pair)["overlays"]["a_in_b"]
    assert zodiacal != expected  # the modes differ for this pair, so the mode is what was read


def test_swapping_the_births_swaps_the_overlays(api):
    forward, backward = data(api, "/v1/synastry", **PAIR), data(api, "/v1/synastry", **SWAPPED)
    assert forward["overlays"]["a_in_b"] == backward["overlays"]["b_in_a"]
    assert forward["overlays"]["b_in_a"] == backward["overlays"]["a_in_b"]


def test_the_score_is_left_out_unless_asked_for(api):
    assert "compatibility" not in data(api, "/v1/synastry", **PAIR)


def test_score_true_gives_discepolos_score_whose_parts_sum_to_it_and_name_their_points(api):
    synastry = data(api, "/v1/synastry", **PAIR, score="true")
    compatibility = synastry["compatibility"]
    assert compatibility["method"] == "discepolo"
    assert compatibility["parts"] and sum(p["points"] for p in compatibility["parts"]) == compatibility["score"]
    suns = (
        {p["body"]: p["longitude"] for p in synastry["chart_a"]["positions"]}["sun"],
        {p["body"]: p["longitude"] for p in synastry["chart_b"]["positions"]}["sun"],
    )
    # Aquarius (fixed) and Scorpio (fixed): the destiny sign, the first part.
    assert [int(s // 30) % 3 for s in suns] == [1, 1]
    assert compatibility["parts"][0] == {"rule": "destiny_sign", "points": 5, "body_a": "sun", "body_b": "sun"}
    for part in compatibility["parts"][1:]:
        assert {part["body_a"], part["body_b"]} <= {"sun", "moon", "venus", "mars", "ascendant"}
        assert part["aspect"] in {"conjunction", "opposition", "trine", "square", "sextile"} and part["orb"] >= 0
    bands = {"minimal": 5, "medium": 10, "important": 15, "very_important": 20, "exceptional": 30}
    assert compatibility["score"] < bands.get(compatibility["category"], float("inf"))


def test_the_score_costs_no_extra_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert client.get("/v1/synastry", params={**PAIR, "score": "true"}).json()["meta"]["credits_used"] == 3
    assert balance(stack, name) == 7


def test_score_must_be_a_boolean(api):
    assert_error(api.get("/v1/synastry", params={**PAIR, "score": "maybe"}), 400, "invalid_parameter", param="score")
