"""Each rule across a request's parameters that the document states in a body's schema
(gateway/reference/request_constraints.py) is the gateway's: a body the schema refuses for it
is refused by the gateway with that rule's error, and the same body made to keep the rule is
valid and served."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from gateway.reference.operation_text import PASTES

DOCUMENT = build_openapi(discover_endpoints(), version="test")
J2000 = 2451545.0
CHART = "chart_" + "0" * 21

#: (rule, path, a body breaking it, the code the gateway answers, the body keeping it).
CASES = [
    (
        "one of",
        "/v1/aspects",
        {"datetime": "2024-03-20T12:00:00Z", "jd": J2000},
        "conflicting_parameters",
        {"jd": J2000},
    ),
    (
        "required one of",
        "/v1/aspects",
        {"bodies": "sun,moon"},
        "missing_parameter",
        {"bodies": "sun,moon", "jd": J2000},
    ),
    ("sent with", "/v1/chart", {"jd": J2000, "lat": 51.5}, "missing_parameter", {"jd": J2000, "lat": 51.5, "lon": 0.1}),
    (
        "instead of",
        "/v1/natal-chart",
        {"datetime": "1985-07-13T14:05", "place": "2988507", "lat": 48.8},
        "conflicting_parameters",
        {"datetime": "1985-07-13T14:05", "place": "2988507"},
    ),
    (
        "required unless a town",
        "/v1/natal-chart",
        {"datetime": "1985-07-13T14:05:00Z"},
        "missing_parameter",
        {"datetime": "1985-07-13T14:05:00Z", "lat": 48.8, "lon": 2.3},
    ),
    (
        "no zone for a Julian Day",
        "/v1/aspects",
        {"jd": J2000, "tz": "Europe/Paris"},
        "conflicting_parameters",
        {"jd": J2000},
    ),
    (
        "excludes",
        "/v1/positions",
        {"jd": J2000, "topocentric": True, "heliocentric": True, "lat": 51.5, "lon": 0.1},
        "invalid_parameter",
        {"jd": J2000, "topocentric": True, "lat": 51.5, "lon": 0.1},
    ),
    (
        "required with",
        "/v1/positions",
        {"jd": J2000, "topocentric": True},
        "missing_parameter",
        {"jd": J2000, "topocentric": True, "lat": 51.5, "lon": 0.1},
    ),
    (
        "a stored chart gives the birth",
        "/v1/natal-chart",
        {"chart": CHART, "datetime": "1985-07-13T14:05:00Z"},
        "conflicting_parameters",
        {"datetime": "1985-07-13T14:05:00Z", "lat": 48.8, "lon": 2.3},
    ),
    ("a Julian Day's span", "/v1/aspects", {"jd": 0.0}, "invalid_parameter", {"jd": J2000}),
    ("no empty text", "/v1/aspects", {"datetime": ""}, "invalid_datetime", {"datetime": "2024-03-20T12:00:00Z"}),
]


def body_schema(path: str) -> Draft202012Validator:
    schema = DOCUMENT["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": DOCUMENT["components"]})


@pytest.mark.parametrize(("rule", "path", "broken", "code", "kept"), CASES, ids=[case[0] for case in CASES])
def test_a_body_the_schema_refuses_for_a_rule_across_parameters_is_refused_and_one_keeping_it_served(
    api, rule, path, broken, code, kept
):
    validator = body_schema(path)
    assert not validator.is_valid(broken), rule
    answer = api.post(path, json=broken)
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == code, answer.text
    assert validator.is_valid(kept), list(validator.iter_errors(kept))
    assert api.post(path, json=kept).status_code == 200


def test_a_computations_get_carries_its_posts_rules_over_its_query_parameters():
    offered = [path for path in PASTES if {"get", "post"} <= set(DOCUMENT["paths"].get(path, {}))]
    assert any("x-query-constraints" in DOCUMENT["paths"][path]["get"] for path in offered)
    for path in offered:
        item = DOCUMENT["paths"][path]
        body = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert item["get"].get("x-query-constraints", {}).get("allOf") == body.get("allOf"), path
