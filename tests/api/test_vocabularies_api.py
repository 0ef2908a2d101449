"""decisions.md, settled after the conformance audit: vocabularies are case-insensitive
everywhere (body names, groups, signs, house system names, ayanamshas, aspect, pattern and
lot names, angles, modes, events); the one-letter Swiss Ephemeris house codes stay
case-sensitive. A value in another case answers exactly what the canonical spelling does,
and costs the same."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.1}
MOMENT = {"datetime": "2024-03-20T12:00:00Z"}

# (path, the canonical parameters, the same parameters in another case)
CASES = [
    ("/v1/positions", {**MOMENT, "bodies": "sun,moon,planets"}, {**MOMENT, "bodies": "SUN,Moon,PLANETS"}),
    ("/v1/positions", {**MOMENT, "sidereal": "lahiri"}, {**MOMENT, "sidereal": "LAHIRI"}),
    ("/v1/houses", {**BIRTH, "system": "koch"}, {**BIRTH, "system": "Koch"}),
    ("/v1/aspects", {**MOMENT, "aspects": "trine,square"}, {**MOMENT, "aspects": "TRINE,Square"}),
    (
        "/v1/natal-chart",
        {**BIRTH, "patterns": "true", "pattern_types": "t_square,stellium", "stellium_scope": "sign"},
        {**BIRTH, "patterns": "true", "pattern_types": "T_SQUARE,Stellium", "stellium_scope": "SIGN"},
    ),
    (
        "/v1/natal-chart",
        {**BIRTH, "derived_points": "true", "lots": "fortune", "resolution": "higher"},
        {**BIRTH, "derived_points": "true", "lots": "FORTUNE", "resolution": "Higher"},
    ),
    (
        "/v1/natal-chart",
        {**BIRTH, "dignities": "true", "rulership": "modern", "house_position_mode": "mundane"},
        {**BIRTH, "dignities": "true", "rulership": "MODERN", "house_position_mode": "Mundane"},
    ),
    (
        "/v1/draconic",
        {**BIRTH, "node": "true_node", "bodies": "sun,true_node"},
        {**BIRTH, "node": "TRUE_NODE", "bodies": "sun,True_Node"},
    ),
    ("/v1/ingresses", {**MOMENT, "body": "sun", "sign": "aries"}, {**MOMENT, "body": "SUN", "sign": "Aries"}),
    (
        "/v1/heliacal",
        {**BIRTH, "body": "venus", "event": "morning_first"},
        {**BIRTH, "body": "Venus", "event": "MORNING_FIRST"},
    ),
    (
        "/v1/astrocartography",
        {**MOMENT, "angles": "asc,mc", "mode": "mundane", "bodies": "sun"},
        {**MOMENT, "angles": "ASC,Mc", "mode": "MUNDANE", "bodies": "Sun"},
    ),
    (
        "/v1/transits",
        {"start": "2024-01-01", "end": "2024-02-01", "targets": "mutual", "moon": "exclude"},
        {"start": "2024-01-01", "end": "2024-02-01", "targets": "MUTUAL", "moon": "Exclude"},
    ),
    (
        "/v1/firdaria",
        {**BIRTH, "at": "2000-01-01", "day_chart": "auto", "night_order": "nodes_after_mars"},
        {**BIRTH, "at": "2000-01-01", "day_chart": "AUTO", "night_order": "Nodes_After_Mars"},
    ),
    ("/v1/stars", {**MOMENT, "star": "aldebaran"}, {**MOMENT, "star": "ALDEBARAN"}),
]


@pytest.mark.parametrize(
    "path, canonical, other_case",
    CASES,
    ids=[f"{c[0]}-{'-'.join(sorted(set(c[2]) - {'datetime', 'lat', 'lon'}))}" for c in CASES],
)
def test_a_vocabulary_value_in_any_case_answers_as_its_canonical_spelling(api, path, canonical, other_case):
    expected = api.get(path, params=canonical)
    got = api.get(path, params=other_case)
    assert expected.status_code == 200, expected.text
    assert got.status_code == 200, got.text
    assert got.json()["data"] == expected.json()["data"]


def test_star_all_in_any_case_costs_what_star_all_costs(stack):
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        reply = client.get("/v1/stars", params={**MOMENT, "star": "ALL"})
    assert reply.status_code == 200 and reply.json()["meta"]["credits_used"] == 5
    assert balance(stack, name) == 95


def test_house_system_letters_stay_case_sensitive(api):
    sunshine = api.get("/v1/houses", params={**BIRTH, "system": "i"}).json()["data"]
    treindl = api.get("/v1/houses", params={**BIRTH, "system": "I"}).json()["data"]
    assert (sunshine["system"], treindl["system"]) == ("sunshine", "sunshine_treindl")


def test_an_unknown_value_still_names_the_choices(api):
    error = assert_error(
        api.get("/v1/astrocartography", params={**MOMENT, "mode": "sideways"}), 400, "invalid_parameter", "mode"
    )
    assert "zodiacal" in error["suggestion"]
