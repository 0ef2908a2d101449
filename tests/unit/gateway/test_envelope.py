"""The spec's JSON envelope of a reply (gateway/envelope.py) and the reference's description
of what the renderer emits."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from gateway.endpoints import discover_endpoints
from gateway.envelope import success_body
from gateway.reference.openapi import build_openapi


def sun(**fields) -> pb.EclipticPosition:
    return pb.EclipticPosition(body="sun", longitude=0.37, latitude=0.0, distance=0.996, sign="Aries", **fields)


def test_success_body_holds_data_and_meta_and_warnings_only_when_there_are_some():
    reply = pb.ComputePositionsResponse(data=[pb.PositionRecord(ecliptic=sun(speed=1.0))])
    body = success_body(reply, {"request_id": "r"})
    assert list(body) == ["data", "meta"] and body["data"][0]["body"] == "sun"
    reply.warnings.append("ephemeris_fallback")
    assert success_body(reply, {})["warnings"] == ["ephemeris_fallback"]


def test_the_openapi_document_lists_a_text_members_media_type_beside_json():
    document = build_openapi(discover_endpoints(), version="test")
    calendar = document["paths"]["/v1/calendar"]["get"]["responses"]["200"]["content"]
    assert set(calendar) == {"application/json", "text/calendar"}
    assert calendar["text/calendar"]["schema"] == {"type": "string"}
    assert set(document["paths"]["/v1/positions"]["get"]["responses"]["200"]["content"]) == {"application/json"}


def test_the_reference_describes_a_columns_message_as_an_array_of_records():
    from gateway.endpoints import discover_endpoints
    from gateway.reference.openapi import build_openapi

    document = build_openapi(discover_endpoints(), version="test")
    text = str(document["components"]["schemas"]["AstroSegment"])
    assert "'points': {'type': 'array', 'items': {'type': 'object', 'properties': {'latitude'" in text
