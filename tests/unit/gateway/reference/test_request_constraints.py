"""The rules across a request's parameters as JSON Schema, and the list of refusals beyond it."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from celestial.v1 import account_service_pb2, ephemeris_service_pb2
from gateway.reference.request_constraints import (
    BEYOND_THE_SCHEMA,
    MAX_DEPENDENT_SCHEMAS,
    beyond_the_schema,
    refused_beyond_the_schema,
    request_constraints,
    with_constraints,
)

NATAL = ephemeris_service_pb2.ComputeNatalChartRequest.DESCRIPTOR


def valid(constraints, value) -> bool:
    return Draft202012Validator({"allOf": constraints}).is_valid(value)


def test_a_required_one_of_takes_exactly_one_member():
    rules = request_constraints(NATAL, charts=False)
    assert not valid(rules, {"lat": 1, "lon": 2})
    assert valid(rules, {"jd": 2451545.0, "lat": 1, "lon": 2})
    assert not valid(rules, {"jd": 2451545.0, "datetime": "2000-01-01T12:00:00Z", "lat": 1, "lon": 2})


def test_a_stored_chart_stands_in_for_the_birth_and_allows_none_of_its_parameters():
    rules = request_constraints(NATAL)
    assert valid(rules, {"chart": "chart_x"})
    assert not valid(rules, {"chart": "chart_x", "lat": 1, "lon": 2})
    # Without its stored charts the request needs its birth.
    assert not valid(request_constraints(NATAL, charts=False), {"chart": "chart_x"})


def test_a_births_required_place_is_required_unless_a_stored_chart_gives_it():
    rules = request_constraints(ephemeris_service_pb2.ComputeLotsRequest.DESCRIPTOR)
    assert not valid(rules, {"jd": 2451545.0})
    assert valid(rules, {"jd": 2451545.0, "lat": 1, "lon": 2})
    assert valid(rules, {"chart": "chart_x"})


def test_a_time_lord_takes_at_or_start_and_end_exactly_one_of_them():
    from celestial.v1 import timelords_service_pb2

    rules = request_constraints(timelords_service_pb2.ComputeFirdariaRequest.DESCRIPTOR)
    assert valid(rules, {"chart": "chart_x", "at": "2020-01-01T00:00:00Z"})
    assert valid(rules, {"chart": "chart_x", "start_jd": 2451545.0, "end": "2030-01-01T00:00:00Z"})
    assert not valid(rules, {"chart": "chart_x"})
    assert not valid(rules, {"chart": "chart_x", "start": "2020-01-01T00:00:00Z"})
    assert not valid(rules, {"chart": "chart_x", "at_jd": 2451545.0, "end_jd": 2460000.0})


def test_a_place_required_on_a_condition_is_required_then_unless_a_stored_chart_gives_it():
    midpoints = request_constraints(ephemeris_service_pb2.ComputeMidpointsRequest.DESCRIPTOR)
    assert not valid(midpoints, {"jd": 2451545.0, "lots": ["fortune"]})
    assert valid(midpoints, {"jd": 2451545.0, "lots": ["fortune"], "lat": 1, "lon": 2})
    assert valid(midpoints, {"jd": 2451545.0})
    patterns = request_constraints(ephemeris_service_pb2.FindPatternsRequest.DESCRIPTOR)
    assert not valid(patterns, {"jd": 2451545.0, "stellium_scope": "house"})
    assert valid(patterns, {"jd": 2451545.0, "stellium_scope": "sign"})
    assert valid(patterns, {"chart": "chart_x", "stellium_scope": "house"})


def test_a_town_gives_the_coordinates_so_it_is_sent_without_them():
    rules = request_constraints(NATAL, charts=False)
    assert valid(rules, {"jd": 2451545.0, "place": "2988507"})
    assert not valid(rules, {"jd": 2451545.0, "place": "2988507", "lat": 1})
    assert not valid(rules, {"jd": 2451545.0, "lat": 1})


def test_a_julian_day_takes_no_zone():
    rules = request_constraints(NATAL, charts=False)
    assert valid(rules, {"datetime": "2024-10-27T02:30:00", "tz": "Europe/Paris", "lat": 1, "lon": 2})
    assert not valid(rules, {"jd": 2451545.0, "tz": "Europe/Paris", "lat": 1, "lon": 2})


def test_a_request_without_rules_across_its_parameters_keeps_its_schema():
    schema = {"type": "object"}
    assert with_constraints(schema, []) is schema
    assert with_constraints(schema, [{"required": ["a"]}]) == {"type": "object", "allOf": [{"required": ["a"]}]}
    assert request_constraints(account_service_pb2.GetAccountRequest.DESCRIPTOR) == []


def test_a_refusal_beyond_the_schema_is_named_and_a_rule_the_schema_states_is_not():
    assert beyond_the_schema("body_not_eligible") == "eligibility"
    assert beyond_the_schema("missing_parameter", "tz_a") == "zone"
    assert beyond_the_schema("conflicting_parameters", "tz") == "combination"
    assert beyond_the_schema("conflicting_parameters", "jd") is None
    assert beyond_the_schema("missing_parameter", "datetime", "/v1/natal-chart") is None
    assert beyond_the_schema("missing_parameter", "datetime", "/v1/chart-wheel") == "combination"
    assert set(refused_beyond_the_schema()) == set(BEYOND_THE_SCHEMA)


def test_a_polar_day_and_a_stored_charts_patch_leaving_its_birth_incomplete_are_beyond_the_schema():
    assert beyond_the_schema("polar_day_or_night", "lat", "/v1/planetary-hours") == "polar"
    assert beyond_the_schema("missing_parameter", "lon", "/v1/charts/{chart_id}") == "stored_birth"
    assert beyond_the_schema("missing_parameter", "lon", "/v1/charts") is None


def test_only_chart_wheels_rules_pass_the_bound_and_it_is_listed_beyond_the_schema(monkeypatch):
    from gateway.endpoints import discover_endpoints
    from gateway.reference import request_constraints as module

    def dependent(descriptor) -> int:
        rules = request_constraints(descriptor)
        return sum(len(rule.get("dependentSchemas", {})) for rule in rules)

    endpoints = discover_endpoints()
    assert max(dependent(e.request_cls.DESCRIPTOR) for e in endpoints) == MAX_DEPENDENT_SCHEMAS
    monkeypatch.setattr(module, "MAX_DEPENDENT_SCHEMAS", 10**6)
    over = {e.path for e in endpoints if dependent(e.request_cls.DESCRIPTOR) > MAX_DEPENDENT_SCHEMAS}
    assert over == {"/v1/chart-wheel"}
    assert beyond_the_schema("conflicting_parameters", "jd", "/v1/chart-wheel") == "combination"
