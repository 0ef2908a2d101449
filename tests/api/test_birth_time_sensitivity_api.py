"""/v1/natal-chart/sensitivity (issue 52, part 3; docs/sensitivity.md), rule by rule through the API."""

from __future__ import annotations

import pytest

from kernel.zodiac import SIGN_KEYS as SIGNS
from tests.api.test_conventions_api import assert_error, balance

PATH = "/v1/natal-chart/sensitivity"
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": 48.85, "lon": 2.35}
# "planets": the ten and the mean node, as /v1/natal-chart counts them.
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node"]


def answer(api, **params) -> dict:
    response = api.get(PATH, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_it_costs_3_credits(api):
    assert answer(api, **BIRTH)["meta"]["credits_used"] == 3


def test_each_fact_is_named_from_the_documented_vocabulary_in_order(api):
    facts = [f["fact"] for f in answer(api, **BIRTH, at="2026-01-01T00:00:00Z")["data"]["facts"]]
    per_body = [f"{b}_{kind}" for b in PLANETS for kind in ("sign", "house", "aspect_asc", "aspect_mc")]
    assert facts == [
        "asc_sign",
        "mc_sign",
        *per_body,
        "moon_nakshatra",
        "moon_pada",
        "vimshottari_lord",
        "profection_lord",
    ]


def test_the_facts_are_the_natal_charts_for_the_same_birth(api):
    facts = {f["fact"]: f["value"] for f in answer(api, **BIRTH)["data"]["facts"]}
    chart = api.get("/v1/natal-chart", params=BIRTH).json()["data"]
    assert facts["asc_sign"] == SIGNS[int(chart["houses"]["ascendant"] // 30)]
    assert facts["mc_sign"] == SIGNS[int(chart["houses"]["midheaven"] // 30)]
    for position in chart["positions"]:
        assert facts[f"{position['body']}_sign"] == position["sign"]
        assert facts[f"{position['body']}_house"] == str(position["house"])


def test_each_fact_holds_over_an_interval_around_the_birth_its_ends_null_past_the_window(api):
    data = answer(api, **BIRTH)["data"]
    assert data["birth"]["datetime"] == "1985-07-13T12:05:00.000Z"
    assert (data["start"]["datetime"], data["end"]["datetime"]) == (
        "1985-07-13T10:05:00.000Z",
        "1985-07-13T14:05:00.000Z",
    )
    for fact in data["facts"]:
        assert set(fact) == {"fact", "value", "holds_from", "holds_until"}
        if fact["holds_from"] is not None:
            assert data["start"]["jd"] < fact["holds_from"]["jd"] <= data["birth"]["jd"]
        if fact["holds_until"] is not None:
            assert data["birth"]["jd"] < fact["holds_until"]["jd"] < data["end"]["jd"]
    sun_sign = next(f for f in data["facts"] if f["fact"] == "sun_sign")
    assert sun_sign["holds_from"] is None and sun_sign["holds_until"] is None


def test_the_changes_are_in_time_order_each_with_the_facts_that_change(api):
    data = answer(api, **BIRTH)["data"]
    instants = [c["instant"]["jd"] for c in data["changes"]]
    assert instants == sorted(instants) and len(instants) > 10
    ends = {f["holds_until"]["jd"]: f["fact"] for f in data["facts"] if f["holds_until"] is not None}
    for change in data["changes"]:
        assert change["facts"] and all(c["before"] != c["after"] for c in change["facts"])
        if change["instant"]["jd"] in ends:
            assert ends[change["instant"]["jd"]] in {c["fact"] for c in change["facts"]}


def test_a_wider_window_sees_at_least_the_changes_of_a_narrower_one(api):
    narrow = answer(api, **BIRTH, window_hours=1)["data"]["changes"]
    wide = answer(api, **BIRTH, window_hours=12)["data"]["changes"]
    assert {c["instant"]["datetime"] for c in narrow} <= {c["instant"]["datetime"] for c in wide}


def test_sidereal_adds_the_angles_nakshatras_and_reads_the_moons_in_its_ayanamsha(api):
    data = answer(api, **BIRTH, sidereal="fagan_bradley")["data"]
    facts = [f["fact"] for f in data["facts"]]
    assert facts[:4] == ["asc_sign", "mc_sign", "asc_nakshatra", "mc_nakshatra"]
    assert data["ayanamsha"] == "fagan_bradley"
    assert answer(api, **BIRTH)["data"]["ayanamsha"] == "lahiri"


def test_no_aspect_to_an_angle_is_a_null_value(api):
    values = [f["value"] for f in answer(api, **BIRTH)["data"]["facts"] if "_aspect_" in f["fact"]]
    assert None in values and any(v is not None for v in values)


REFUSALS = [
    ({**BIRTH, "window_hours": 13}, "invalid_parameter", "window_hours"),
    ({**BIRTH, "window_hours": 0}, "invalid_parameter", "window_hours"),
    ({**BIRTH, "lat": 91}, "invalid_parameter", "lat"),
    ({"lat": 48.85, "lon": 2.35}, "missing_parameter", "datetime"),
    ({**BIRTH, "datetime": "1985-13-40T14:05:00"}, "invalid_datetime", "datetime"),
    ({**BIRTH, "system": "gauquelin"}, "invalid_parameter", "system"),
    ({**BIRTH, "at": "1985-07-13T13:00:00Z"}, "before_birth", "at"),
]


@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{p}" for _, c, p in REFUSALS])
def test_each_refusal_is_a_400_with_a_suggestion_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(PATH, params=params), 400, code, param)
    assert balance(stack, name) == 10


def test_inside_the_polar_circle_the_houses_are_porphyrius_for_the_whole_window_with_a_warning(api):
    body = answer(api, **{**BIRTH, "lat": 69.65, "lon": 18.96, "tz": "Europe/Oslo"})
    assert any("Porphyrius" in w for w in body["warnings"])
    assert "warnings" not in answer(api, **BIRTH)


def test_a_post_with_a_json_body_answers_as_the_get(api):
    posted = api.post(PATH, json={**BIRTH, "window_hours": 1})
    assert posted.status_code == 200, posted.text
    assert posted.json()["data"] == answer(api, **BIRTH, window_hours=1)["data"]
