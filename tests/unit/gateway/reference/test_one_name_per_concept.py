"""Issue 49, part 1: one name per concept. Every response schema of /v1/openapi.json and every
recorded example names each concept one way and spells each value one way (docs/conventions.md,
"Names in answers"), the spec's exceptions aside; and the drift test can fail: a document with a
synonym, a capitalized sign, a time stamp to the second or a 13-slot house array is caught."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from gateway.endpoints import discover_endpoints
from gateway.reference.examples import load_examples, with_examples
from gateway.reference.openapi import build_openapi
from tests.answer_names import SPEC_EXCEPTIONS, drift, schema_drift, value_drift

CONVENTIONS = Path(__file__).resolve().parents[4] / "docs" / "conventions.md"


@pytest.fixture(scope="module")
def document() -> dict:
    return with_examples(build_openapi(discover_endpoints(), version="test"), load_examples())


def test_every_response_schema_and_recorded_example_names_each_concept_one_way(document):
    assert [str(found) for found in drift(document)] == []


def test_the_spec_exceptions_are_the_rows_docs_conventions_lists():
    section = CONVENTIONS.read_text(encoding="utf-8").split("## Names in answers", 1)[1]
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| [^|]+ \| ([^|]+?) \|$", section, re.MULTILINE)
    assert sorted(rows) == sorted((e.schema, e.member, e.source) for e in SPEC_EXCEPTIONS)


def test_every_spec_exception_names_a_member_the_document_has(document):
    schemas = document["components"]["schemas"]

    def members(name: str) -> set[str]:
        return set(schemas[name].get("properties") or {})

    assert [(e.schema, e.member) for e in SPEC_EXCEPTIONS if e.member not in members(e.schema)] == []


# The drift test can fail: each synonym or spelling below, put in a document, is caught.


def _document(schemas: dict, example: dict | None = None, answer: str = "Thing") -> dict:
    content: dict = {"schema": {"$ref": f"#/components/schemas/{answer}"}}
    if example is not None:
        content["example"] = example
    return {
        "paths": {"/v1/thing": {"get": {"responses": {"200": {"content": {"application/json": content}}}}}},
        "components": {"schemas": schemas},
    }


def _object(**members: dict) -> dict:
    return {"type": "object", "properties": members}


STRING, NUMBER = {"type": "string"}, {"type": "number"}


@pytest.mark.parametrize(
    ("member", "schema"),
    [("distance", NUMBER), ("degree", NUMBER), ("house_cusps", {"type": "array"}), ("timestamp", STRING)],
)
def test_a_synonym_as_a_member_name_is_drift(member, schema):
    found = schema_drift(_document({"Thing": _object(**{member: schema})}))
    assert [(d.schema, d.member) for d in found] == [("Thing", member)]


def test_a_body_under_name_is_drift_and_a_place_under_name_is_not():
    schemas = {"Thing": _object(name=STRING)}
    assert [d.member for d in schema_drift(_document(schemas, {"name": "moon"}))] == ["name"]
    assert schema_drift(_document(schemas, {"name": "Paris"})) == []


def test_an_instant_split_into_members_is_drift():
    found = schema_drift(_document({"Thing": _object(event_jd=NUMBER, event_datetime=STRING)}))
    assert [(d.schema, d.member) for d in found] == [("Thing", "event_datetime")]


def test_an_enumerated_value_not_in_lowercase_snake_case_is_drift_unless_a_standard_spells_it():
    schemas = {"Thing": _object(kind={"type": "string", "enum": ["new_moon", "FullMoon"]})}
    assert [(d.schema, d.member) for d in schema_drift(_document(schemas))] == [("Thing", "kind")]
    geojson = {"GeoJsonFeature": _object(type={"type": "string", "const": "Feature"})}
    assert schema_drift(_document(geojson, answer="GeoJsonFeature")) == []


def test_a_time_stamp_named_as_an_instant_is_elsewhere_is_drift():
    instant = {"$ref": "#/components/schemas/Instant"}
    schemas = {"Period": _object(at=instant), "Thing": _object(at={"type": "string", "format": "date-time"})}
    assert [(d.schema, d.member) for d in schema_drift(_document(schemas))] == [("Thing", "at")]
    schemas["Thing"] = _object(sent_at={"type": "string", "format": "date-time"})
    assert schema_drift(_document(schemas)) == []
    schemas["Thing"] = _object(when={"type": "string", "format": "date-time"})
    assert [(d.schema, d.member) for d in schema_drift(_document(schemas))] == [("Thing", "when")]


def test_the_spec_exception_allows_distance_only_where_the_spec_names_it():
    positions = _document({"EclipticPosition": _object(distance=NUMBER)}, answer="EclipticPosition")
    assert schema_drift(positions) == []
    chart = _document({"ChartPosition": _object(distance=NUMBER)}, answer="ChartPosition")
    assert [d.schema for d in schema_drift(chart)] == ["ChartPosition"]


def test_an_events_uid_and_start_are_drift():
    schemas = {"TimelineEvent": _object(uid=STRING, start={"$ref": "#/components/schemas/Instant"})}
    found = schema_drift(_document(schemas, answer="TimelineEvent"))
    assert sorted(d.member for d in found) == ["start", "uid"]


def test_a_capitalized_sign_is_drift_outside_the_specs_positions_record():
    schemas = {"Thing": _object(sign=STRING, next_sign=STRING)}
    found = value_drift(_document(schemas, {"sign": "Aries", "next_sign": "Taurus"}))
    assert sorted(d.member for d in found) == ["next_sign", "sign"]
    assert value_drift(_document(schemas, {"sign": "aries", "next_sign": "taurus"})) == []
    positions = _document({"EclipticPosition": _object(sign=STRING)}, {"sign": "Aries"}, answer="EclipticPosition")
    assert value_drift(positions) == []


def test_a_body_or_an_aspect_not_as_its_lowercase_id_is_drift():
    schemas = {"Thing": _object(lord=STRING, aspect=STRING)}
    found = value_drift(_document(schemas, {"lord": "Saturn", "aspect": "Trine"}))
    assert sorted(d.member for d in found) == ["aspect", "lord"]
    assert value_drift(_document(schemas, {"lord": "saturn", "aspect": "trine"})) == []


@pytest.mark.parametrize("stamp", ["2026-11-27T21:02:11Z", "2026-11-27T21:02:11+00:00", "2026-11-27T21:02:11.5Z"])
def test_a_time_stamp_not_to_the_millisecond_with_z_is_drift(stamp):
    schemas = {"Thing": _object(created_at=STRING)}
    assert [d.member for d in value_drift(_document(schemas, {"created_at": stamp}))] == ["created_at"]
    assert value_drift(_document(schemas, {"created_at": "2026-11-27T21:02:11.000Z"})) == []


def test_a_local_clock_time_is_no_time_stamp():
    schemas = {"Thing": _object(local=STRING)}
    assert value_drift(_document(schemas, {"local": "1944-06-06T08:00:00"})) == []


def test_a_house_array_of_13_slots_is_drift_outside_the_chart_objects_houses():
    cusps = [0.0] + [30.0 * i for i in range(12)]
    houses = _document({"HouseSet": _object(cusps={"type": "array"})}, {"cusps": cusps}, answer="HouseSet")
    assert [d.schema for d in value_drift(houses)] == ["HouseSet"]
    chart = _document({"ChartHouses": _object(cusps={"type": "array"})}, {"cusps": cusps}, answer="ChartHouses")
    assert value_drift(chart) == []


def test_a_batch_results_data_is_read_with_its_own_endpoints_schema(document):
    mutated = copy.deepcopy(document)
    batch = mutated["paths"]["/v1/batch"]["post"]["responses"]["200"]["content"]["application/json"]
    answer = next(iter(batch["examples"].values()))["value"] if "examples" in batch else batch["example"]
    first = answer["data"]["results"][0]["data"][0]
    assert first["sign"][0].isupper()  # a position: the spec's capitalized sign
    assert value_drift(mutated) == []
    mutated["components"]["schemas"]["EclipticPosition"]["properties"]["next_sign"] = STRING
    first["next_sign"] = "Leo"
    assert [(d.schema, d.member) for d in value_drift(mutated)] == [("EclipticPosition", "next_sign")]


def test_the_account_resources_recorded_examples_are_walked_too(document):
    # Issue 49, part 3: every account operation has its recorded example, so the walk above
    # reads their answers as it reads the computations'; a time stamp to the second in one is caught.
    mutated = copy.deepcopy(document)
    create = mutated["paths"]["/v1/webhooks"]["post"]["responses"]["200"]["content"]["application/json"]
    answer = create["examples"]["recorded"]["value"]
    assert value_drift(mutated) == []
    answer["data"]["created_at"] = answer["data"]["created_at"][:19] + "Z"  # to the second
    found = value_drift(mutated)
    assert [(d.schema, d.member) for d in found] == [("WebhookWithSecret", "created_at")], found
