"""gateway/reference/charts_openapi.py: the chart parameters of the operations whose request
takes a birth; the stored charts' own operations, generated from account_service.proto."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2
from gateway.endpoints import discover_endpoints
from gateway.reference.charts_openapi import chart_parameters, stood_in_for, with_chart_members
from gateway.reference.openapi import build_openapi

NATAL = ephemeris_service_pb2.ComputeNatalChartRequest
POSITIONS = ephemeris_service_pb2.ComputePositionsRequest


def test_the_charts_paths_hold_list_create_read_change_and_delete_all_free():
    document = build_openapi(discover_endpoints(), version="x")
    paths = {path: item for path, item in document["paths"].items() if path.startswith("/v1/charts")}
    operations = {(path, verb): op for path, item in paths.items() for verb, op in item.items()}
    assert {op["operationId"] for op in operations.values()} == {
        "list_stored_charts",
        "create_stored_chart",
        "get_stored_chart",
        "update_stored_chart",
        "delete_stored_chart",
    }
    assert all(op["x-credits"] == 0 and op["x-resource"] for op in operations.values())
    assert all("404" in op["responses"] for (path, _), op in operations.items() if "{chart_id}" in path)


def test_a_birth_taking_request_has_a_chart_parameter_and_no_birth_parameter_required_by_it():
    assert set(chart_parameters(NATAL)) == {"chart"}
    assert {"datetime", "lat", "lon", "place", "tz"} <= stood_in_for(NATAL)
    schema = with_chart_members({"type": "object", "properties": {"lat": {}}, "required": ["lat", "bodies"]}, NATAL)
    assert schema["required"] == ["bodies"] and "chart" in schema["properties"]


def test_a_chart_parameter_takes_the_chart_id_pattern_the_stored_charts_declare():
    document = build_openapi(discover_endpoints(), version="x")
    declared = document["paths"]["/v1/charts/{chart_id}"]["get"]["parameters"][0]["schema"]["pattern"]
    assert chart_parameters(NATAL)["chart"]["pattern"] == declared


def test_a_request_without_a_birth_is_left_alone():
    schema = {"type": "object", "properties": {}, "required": ["datetime"]}
    assert chart_parameters(POSITIONS) == {} and with_chart_members(schema, POSITIONS) is schema


def test_every_operation_id_of_the_document_is_its_own():
    document = build_openapi(discover_endpoints(), version="x")
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))
