"""/v1/status in the OpenAPI document (gateway/reference/status_openapi.py): free, no key, its
answer's schema the one its recorded example and the live answer hold."""

from __future__ import annotations

import jsonschema

from gateway.endpoints import discover_endpoints
from gateway.reference.examples import load_examples
from gateway.reference.openapi import build_openapi
from gateway.reference.status_openapi import STATUS_PATH

DOCUMENT = build_openapi(discover_endpoints(), version="test")


def test_the_status_operation_needs_no_key_and_costs_nothing():
    operation = DOCUMENT["paths"][STATUS_PATH]["get"]
    assert (operation["security"], operation["x-credits"], operation["parameters"]) == ([], 0, [])


def test_the_recorded_example_holds_the_answers_schema():
    example = load_examples()[STATUS_PATH]
    schema = DOCUMENT["paths"][STATUS_PATH]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = jsonschema.Draft202012Validator({"$ref": schema["$ref"], "components": DOCUMENT["components"]})
    validator.validate(example.response)
    assert example.status == 200
