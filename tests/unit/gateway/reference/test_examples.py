"""gateway/reference/examples.py: one recorded call per operation, kept as
``docs_assets/examples/<operation name>.json``, merged into the OpenAPI document (OpenAPI 3.1
§4.8.12/§4.8.14: a parameter's ``example``, a media type's named ``examples``) so that each
example is valid against the schema it illustrates; a POST body typed as its schema types it."""

from __future__ import annotations

import jsonschema
import pytest

from gateway.endpoints import discover_endpoints
from gateway.operation_names import operation_name
from gateway.reference.examples import (
    EXAMPLE_NAME,
    EXAMPLES_DIR,
    Example,
    example_path,
    example_record,
    load_examples,
    typed_body,
    typed_value,
    with_examples,
    without_examples,
)
from gateway.reference.openapi import build_openapi

DOCUMENT = build_openapi(discover_endpoints(), version="test")
EXAMPLES = load_examples()
MERGED = with_examples(DOCUMENT, EXAMPLES)


def test_each_example_file_is_named_after_its_operation_and_every_endpoint_has_one():
    for path in EXAMPLES:
        assert example_path(path) == EXAMPLES_DIR / f"{operation_name(path)}.json" and example_path(path).exists()
    assert {e.path for e in discover_endpoints()} <= set(EXAMPLES)


def test_a_record_written_reads_back_the_same(tmp_path):
    example = Example("/v1/positions", "GET", {"datetime": "2024-03-20T12:00:00Z"}, 200, {"data": {"ä": 1}})
    (tmp_path / "positions.json").write_bytes(example_record(example))
    assert load_examples(tmp_path) == {"/v1/positions": example}
    assert example_record(example).endswith(b"}\n")


@pytest.mark.parametrize(("text", "schema", "value"), [
    ("2.5", {"type": "number"}, 2.5),
    ("7", {"type": "integer"}, 7),
    ("true", {"type": "boolean"}, True),
    ("1", {"type": "boolean"}, True),
    ("false", {"type": "boolean"}, False),
    ("sun,moon", {"type": "string"}, "sun,moon"),
    ("x", {}, "x"),
])
def test_a_query_value_is_typed_as_its_schema_types_it(text, schema, value):
    assert typed_value(text, schema) == value and type(typed_value(text, schema)) is type(value)


def test_a_get_example_becomes_a_post_body_valid_against_the_body_schema():
    positions = MERGED["paths"]["/v1/positions"]
    body = positions["post"]["requestBody"]["content"]["application/json"]
    sent = body["examples"][EXAMPLE_NAME]["value"]
    assert sent == typed_body(EXAMPLES["/v1/positions"].request, body["schema"])
    jsonschema.Draft202012Validator(body["schema"]).validate(sent)


def test_every_get_parameter_example_is_valid_against_its_schema():
    for operations in MERGED["paths"].values():
        for parameter in operations.get("get", {}).get("parameters", ()):
            if "example" in parameter:
                jsonschema.Draft202012Validator(parameter["schema"]).validate(parameter["example"])


def test_the_recorded_answer_is_the_named_example_of_its_status():
    for path, example in EXAMPLES.items():
        for operation in MERGED["paths"][path].values():
            content = operation["responses"][str(example.status)]["content"]["application/json"]
            assert content["examples"][EXAMPLE_NAME] == {"summary": example.summary, "value": example.response}


def test_an_example_of_an_unknown_operation_is_ignored_and_the_document_is_not_changed_in_place():
    stray = Example("/v1/gone", "GET", {}, 200, {"data": {}})
    before = repr(DOCUMENT)
    assert with_examples(DOCUMENT, {"/v1/gone": stray})["paths"] == DOCUMENT["paths"]
    with_examples(DOCUMENT, EXAMPLES)
    assert repr(DOCUMENT) == before


def test_without_examples_strips_every_example_and_nothing_else():
    assert without_examples(MERGED) == without_examples(DOCUMENT)
    pending, keys = [without_examples(MERGED)], set()
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            keys |= set(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    assert EXAMPLE_NAME not in keys and "example" not in keys


def test_a_summary_is_the_call_as_it_was_made():
    assert Example("/v1/x", "GET", {"a": "1", "b": "c"}, 200, {}).summary == "GET /v1/x?a=1&b=c"
    assert Example("/v1/batch", "POST", {"requests": []}, 200, {}).summary == "POST /v1/batch"
