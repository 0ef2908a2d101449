"""gateway/reference/openapi_schemas.py: every answer's schema is named components, one per
reply message, short names, ``required`` exactly what the wire always emits, and ``Meta``
describing everything ``meta`` holds (issue 38 part 3).

References: shared/runtime/reply_rendering.py (what the wire emits, which these schemas must declare);
kernel/civil_time.py (``meta.moment``'s readings); the recorded answers in
gateway/reference/docs_assets/examples (real calls, not produced by these schemas).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from google.protobuf import symbol_database
from jsonschema import Draft202012Validator

from celestial.v1 import common_pb2, ephemeris_service_pb2, search_service_pb2
from gateway.endpoints import discover_endpoints
from gateway.reference.examples import load_examples
from gateway.reference.openapi import build_openapi
from gateway.reference.openapi_schemas import (
    REF_PREFIX,
    Components,
    component_name,
    response_schema,
    strict,
)
from kernel.civil_time import LocalReading, ZoneFound
from shared.runtime.reply_rendering import render_message

ENDPOINTS = discover_endpoints()
DOCUMENT = build_openapi(ENDPOINTS, version="test")
SCHEMAS = DOCUMENT["components"]["schemas"]
# The messages whose JSON is no object of their own: a union, columns, plain JSON.
MESSAGE_COMPONENTS = Components({})
for endpoint in ENDPOINTS:
    MESSAGE_COMPONENTS.envelope(endpoint)


ENVELOPES = {endpoint.response_cls.DESCRIPTOR.name for endpoint in ENDPOINTS}


def message_components() -> dict[str, object]:
    """Return each message inside an answer that is a component, by component name, as its
    message class (the envelopes, named after the reply messages, are not their messages)."""
    pool = symbol_database.Default()
    return {
        name: pool.GetSymbol(owner)
        for name, owner in MESSAGE_COMPONENTS._owners.items()
        if owner and name not in ENVELOPES
    }


def validator(schema: dict) -> Draft202012Validator:
    """Return a validator of ``schema``, strict (no undeclared member), its references resolved."""
    return Draft202012Validator(strict({**schema, "components": DOCUMENT["components"]}))


def test_a_component_is_named_after_its_message_without_package_or_trailing_record():
    assert component_name(ephemeris_service_pb2.PositionRecord.DESCRIPTOR) == "Position"
    assert component_name(common_pb2.AspectRecord.DESCRIPTOR) == "Aspect"
    assert component_name(common_pb2.Instant.DESCRIPTOR) == "Instant"
    assert component_name(search_service_pb2.TransitEvent.DESCRIPTOR) == "TransitEvent"


def test_the_shared_types_are_components():
    assert {
        "Position",
        "Aspect",
        "Instant",
        "HouseSet",
        "Chart",
        "TransitEvent",
        "Meta",
        "LocalTime",
        "Version",
    } <= set(SCHEMAS)


def test_every_answer_is_a_reference_to_its_reply_messages_envelope_shared_by_get_and_post():
    for endpoint in ENDPOINTS:
        for operation in DOCUMENT["paths"][endpoint.path].values():
            schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": REF_PREFIX + endpoint.response_cls.DESCRIPTOR.name}


def test_every_envelope_refers_to_meta():
    for endpoint in ENDPOINTS:
        meta = SCHEMAS[endpoint.response_cls.DESCRIPTOR.name]["properties"]["meta"]
        if "conventions" in endpoint.response_cls.DESCRIPTOR.fields_by_name:
            # Meta with the reply's conventions named (the Vedic endpoints: gateway/envelope.py).
            assert {name: schema for name, schema in meta["properties"].items() if name != "conventions"} == SCHEMAS[
                "Meta"
            ]["properties"]
            assert "conventions" in meta["required"] and meta["properties"]["conventions"]["$ref"].endswith(
                "VedicConventions"
            )
            continue
        assert meta == {"$ref": REF_PREFIX + "Meta"}
    for name in ("BatchResponse", "UsageResponse", "AccountResponse"):
        assert SCHEMAS[name]["properties"]["meta"] == {"$ref": REF_PREFIX + "Meta"}


def inline_objects(schema: dict):
    """Yield every object schema with members written inside ``schema`` (its members' schemas,
    their items, their alternatives), not through a reference."""
    nested = [*schema.get("properties", {}).values(), *schema.get("oneOf", ()), *schema.get("anyOf", ())]
    nested += [schema[key] for key in ("items", "additionalProperties") if isinstance(schema.get(key), dict)]
    for inner in nested:
        if "properties" in inner:
            yield inner
        yield from inline_objects(inner)


def test_a_message_inside_an_answer_is_a_reference_to_its_one_component_never_a_copy():
    # The only objects written inline: a columns message's records (no message of their
    # own) and the GeoJSON geometries (RFC 7946's, which no proto message states).
    for name in message_components():
        for inline in inline_objects(SCHEMAS[name]):
            assert set(inline["properties"]) in ({"latitude", "longitude"}, {"type", "coordinates"}), name


def test_no_component_name_is_longer_than_its_reply_messages_name():
    longest = max(len(endpoint.response_cls.DESCRIPTOR.name) for endpoint in ENDPOINTS)
    assert max(map(len, SCHEMAS)) == longest <= 32
    assert not [name for name in SCHEMAS if "." in name or name.startswith(("Celestial", "V1"))]


def test_two_messages_taking_one_name_is_an_error_not_a_suffix():
    components = Components({})
    components.value(common_pb2.Instant.DESCRIPTOR)
    with pytest.raises(ValueError, match="Instant"):
        components._claim("Instant", "other.v1.Instant")


@pytest.mark.parametrize("name", sorted(message_components()))
def test_required_is_exactly_what_the_wire_emits_for_an_empty_message(name):
    schema = SCHEMAS[name]
    if "properties" not in schema:  # a union, a GeoJSON geometry: no members of its own
        return
    rendered = render_message(message_components()[name]())
    assert set(rendered) == set(schema.get("required", ())), name


def test_meta_moment_holds_a_local_time_reading_per_parameter_with_every_member_described():
    found = ZoneFound("Etc/GMT+10", "auto", 0.0, -150.0, note="At sea: the nautical zone.").as_dict()
    reading = LocalReading(
        datetime(2024, 1, 1, 12),
        "Etc/GMT+10",
        "-10",
        -36000,
        datetime(2024, 1, 1, 22, tzinfo=UTC),
        found=found,
        note="A second look.",
    )
    meta = {
        "request_id": "r",
        "credits_used": 1,
        "credits_remaining": 9,
        "computation_ms": 1.0,
        "version": {"api": "v1", "build": "0.1.0", "engine": "Swiss Ephemeris 2.10.03", "tz": "2026f"},
        "moment": {"datetime": reading.as_dict()},
    }
    assert validator({"$ref": REF_PREFIX + "Meta"}).is_valid(meta)
    for name in ("Meta", "LocalTime", "ZoneFound", "Version"):
        assert all(member.get("description") or "$ref" in member for member in SCHEMAS[name]["properties"].values()), (
            name
        )
    assert not validator({"$ref": REF_PREFIX + "Meta"}).is_valid(
        {**meta, "moment": {"datetime": {"local": "2024-01-01T12:00:00"}}}
    )


def test_meta_mode_is_test_only_and_optional():
    mode = SCHEMAS["Meta"]["properties"]["mode"]
    assert mode["enum"] == ["test"] and "svc_test_" in mode["description"]
    assert "mode" not in SCHEMAS["Meta"]["required"]


def test_every_recorded_answer_has_every_required_member_and_no_undeclared_one():
    checked = 0
    for example in load_examples().values():
        for call in example.every:
            if call.response is None:
                continue  # a document (SVG, PNG, iCalendar), not JSON
            schema = response_schema(DOCUMENT, call.operation, call.method.lower(), str(call.status))
            errors = [error.message for error in validator(schema).iter_errors(call.response)]
            assert errors == [], (call.operation, call.name, errors[:3])
            checked += 1
    assert checked >= 38


def test_strict_refuses_a_member_the_schema_does_not_declare():
    schema = response_schema(DOCUMENT, "/v1/positions", "get")
    example = load_examples()["/v1/positions"].response
    assert validator(schema).is_valid(example)
    assert not validator(schema).is_valid({**example, "data": [{**example["data"][0], "undeclared": 1}]})


def test_a_json_answer_is_typed_as_its_json_member_never_as_the_document_it_may_answer_instead():
    # Issue 49: a forecast's and a calendar's data were "events or string" to a typed client,
    # though the iCalendar text is answered as text/calendar, never inside the JSON envelope.
    for envelope, member in (
        ("FindForecastResponse", "ForecastEvents"),
        ("FindCalendarEventsResponse", "CalendarEvents"),
        ("DrawChartWheelResponse", "ChartWheel"),
    ):
        assert SCHEMAS[envelope]["properties"]["data"] == {"$ref": REF_PREFIX + member}, envelope
    for union in ("ForecastData", "CalendarData", "ChartWheelData"):
        assert union not in SCHEMAS
    # A union of JSON shapes stays one (positions: ecliptic or equatorial).
    assert [member["$ref"] for member in SCHEMAS["Position"]["oneOf"]] == [
        REF_PREFIX + "EclipticPosition",
        REF_PREFIX + "EquatorialPosition",
    ]


def test_no_schema_of_a_json_answer_admits_a_bare_string_where_a_document_member_was():
    documents_left = [
        name
        for name, schema in SCHEMAS.items()
        if any(member.get("type") == "string" for member in schema.get("oneOf", ()))
    ]
    assert documents_left == []


def test_strict_leaves_a_requests_rules_across_parameters_as_they_are():
    # {"properties": {"lat": false}} says "no lat"; tightened, it would refuse every other member.
    rule = {"dependentSchemas": {"place": {"properties": {"lat": False}}}}
    body = {"type": "object", "properties": {"place": {"type": "string"}}, "allOf": [rule]}
    assert strict({"schema": body})["schema"] == {**body, "additionalProperties": False}
