"""The recorded examples (``make examples``, ``gateway/reference/docs_assets/examples/``) are true: every
operation has one, the served document carries them, and each request, sent again to the real
stack, gets the recorded answer (numbers within NUMBER_TOLERANCE; ids, timings, versions and
balances ignored)."""

from __future__ import annotations

import math

import pytest

from deploy.local_stack import Stack
from gateway.reference.examples import EXAMPLE_NAME, Example, load_examples, typed_body, typed_value

EXAMPLES = load_examples()
#: Numbers may differ by this much, absolute, or one part in 10^9: far below what any
#: field shows (1e-6 degree is 0.0036 arcsecond, 1e-6 day 86 ms), far above the last-bit
#: differences of another CPU's or libm's floating point.
NUMBER_TOLERANCE = 1e-6
#: What changes from call to call by design: the request's id, the time it took, the build
#: that answered, the balance left.
VOLATILE_META = ("request_id", "computation_ms", "version", "credits_remaining")


def differences(recorded, actual, where: str = "$") -> list[str]:
    """Return where ``actual`` differs from ``recorded``, beyond the tolerance."""
    if isinstance(recorded, bool) or isinstance(actual, bool):
        return [] if recorded is actual else [f"{where}: {recorded!r} became {actual!r}"]
    if isinstance(recorded, (int, float)) and isinstance(actual, (int, float)):
        close = math.isclose(recorded, actual, rel_tol=1e-9, abs_tol=NUMBER_TOLERANCE)
        return [] if close else [f"{where}: {recorded!r} became {actual!r}"]
    if isinstance(recorded, dict) and isinstance(actual, dict):
        if recorded.keys() != actual.keys():
            return [f"{where}: members {sorted(recorded)} became {sorted(actual)}"]
        return [d for key in recorded for d in differences(recorded[key], actual[key], f"{where}.{key}")]
    if isinstance(recorded, list) and isinstance(actual, list):
        if len(recorded) != len(actual):
            return [f"{where}: {len(recorded)} items became {len(actual)}"]
        return [d for i, (r, a) in enumerate(zip(recorded, actual)) for d in differences(r, a, f"{where}[{i}]")]
    return [] if recorded == actual else [f"{where}: {recorded!r} became {actual!r}"]


def without_volatile_meta(body: dict) -> dict:
    meta = {key: value for key, value in body.get("meta", {}).items() if key not in VOLATILE_META}
    return {**body, "meta": meta}


@pytest.fixture(scope="module")
def client(stack: Stack):
    _, key = stack.new_key()
    with stack.client(key) as opened:
        yield opened


@pytest.fixture(scope="module")
def document(stack: Stack) -> dict:
    with stack.client() as anonymous:
        return anonymous.get("/v1/openapi.json").json()


def test_every_operation_has_a_recorded_example_that_succeeded(document):
    assert set(EXAMPLES) == set(document["paths"]), "run make examples"
    assert {path: example.status for path, example in EXAMPLES.items() if example.status != 200} == {}


def test_the_served_document_carries_each_example_as_request_and_answer(document):
    for path, example in EXAMPLES.items():
        for method, operation in document["paths"][path].items():
            answer = operation["responses"]["200"]["content"]["application/json"]["examples"][EXAMPLE_NAME]
            assert answer["value"] == example.response
            if method == "get":
                sent = {p["name"]: p["example"] for p in operation["parameters"] if "example" in p}
                schemas = {p["name"]: p["schema"] for p in operation["parameters"]}
                assert sent == {name: typed_value(text, schemas[name]) for name, text in example.request.items()}
            else:
                body = operation["requestBody"]["content"]["application/json"]
                sent = body["examples"][EXAMPLE_NAME]["value"]
                assert sent == (example.request if example.method == "POST" else typed_body(example.request, body["schema"]))


def test_the_comparison_sees_a_changed_number_and_ignores_a_changed_request_id():
    recorded = {"data": [{"longitude": 10.0}], "meta": {"request_id": "a", "credits_used": 1}}
    assert differences(recorded, {"data": [{"longitude": 10.0 + 1e-7}], "meta": {"request_id": "a", "credits_used": 1}}) == []
    assert differences(recorded, {"data": [{"longitude": 10.001}], "meta": {"request_id": "a", "credits_used": 1}}) != []
    assert differences(without_volatile_meta(recorded), without_volatile_meta({**recorded, "meta": {"request_id": "b", "credits_used": 1}})) == []


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=EXAMPLES.keys())
def test_a_recorded_request_gets_its_recorded_answer_again(client, example: Example):
    if example.method == "GET":
        answer = client.get(example.operation, params=example.request)
    else:
        answer = client.post(example.operation, json=example.request)

    assert answer.status_code == example.status, answer.text
    assert differences(without_volatile_meta(example.response), without_volatile_meta(answer.json())) == []


@pytest.mark.parametrize("example", [e for e in EXAMPLES.values() if e.method == "GET"], ids=[p for p, e in EXAMPLES.items() if e.method == "GET"])
def test_a_recorded_request_sent_as_its_typed_post_body_gets_the_same_answer(client, document, example: Example):
    body = document["paths"][example.operation]["post"]["requestBody"]["content"]["application/json"]["examples"][EXAMPLE_NAME]["value"]

    answer = client.post(example.operation, json=body)

    assert answer.status_code == example.status, answer.text
    assert differences(without_volatile_meta(example.response), without_volatile_meta(answer.json())) == []
