"""Regression: every numeric parameter of every endpoint the OpenAPI document lists refuses,
with 400 and never 5xx, what its protobuf type cannot hold and what JSON does not call a number."""

from __future__ import annotations

import pytest

from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error

#: The whole numbers an OpenAPI integer format holds (gateway/reference/openapi.py writes the format).
FORMAT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
NOT_JSON_NUMBERS = ("1_0", "１０", "+10", " 10", "0x10", "inf", "nan", "1e400")


@pytest.fixture(scope="module")
def app_stack(module_stacks) -> AppStack:
    return module_stacks.in_process("bounds")


@pytest.fixture(scope="module")
def client(app_stack: AppStack):
    with app_stack.client(app_stack.new_key(credits=10_000_000, rate_per_minute=1_000_000)[1]) as c:
        yield c


@pytest.fixture(scope="module")
def numeric_parameters(app_stack: AppStack) -> list[tuple[str, str, dict]]:
    """Return (path, name, schema) of every numeric query parameter of the served document."""
    with app_stack.client() as c:
        document = c.get("/v1/openapi.json").json()
    found = [
        (path, parameter["name"], parameter["schema"])
        for path, operations in document["paths"].items()
        if "get" in operations
        for parameter in operations["get"]["parameters"]
        if parameter["schema"].get("type") in ("integer", "number")
    ]
    assert any(schema["type"] == "integer" for _, _, schema in found)
    return found


def test_every_integer_parameter_refuses_values_beyond_its_type_in_query_and_body(client, numeric_parameters):
    for path, name, schema in numeric_parameters:
        if schema["type"] != "integer":
            continue
        low, high = FORMAT_BOUNDS[schema["format"]]
        for value in (low - 1, high + 1, -(2**64), 2**64):
            assert_error(client.get(path, params={name: str(value)}), 400, "invalid_parameter", name)
            assert_error(client.post(path, json={name: value}), 400, "invalid_parameter", name)


def test_every_numeric_parameter_refuses_what_json_does_not_call_a_number(client, numeric_parameters):
    for path, name, _ in numeric_parameters:
        for text in NOT_JSON_NUMBERS:
            assert_error(client.get(path, params={name: text}), 400, "invalid_parameter", name)
            assert_error(client.post(path, json={name: text}), 400, "invalid_parameter", name)
