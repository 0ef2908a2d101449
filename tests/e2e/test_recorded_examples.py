"""The recorded examples (``make examples``, ``gateway/reference/docs_assets/examples/``) are true: every
operation has one, the served document carries them, and each request, sent again to the real
stack, gets the recorded answer: JSON with numbers within NUMBER_TOLERANCE (ids, timings,
versions and balances ignored), a document (an SVG or PNG wheel, an iCalendar file) byte for
byte, its request id and balance being headers, not part of it. The account operations' calls
name the ids of the account that recorded them: their life is replayed whole on a fresh account
(``record_account_life``), each call answering its recorded status and members. The status
page's figures are the answering stack's own: its recorded answer is replayed for its members."""

from __future__ import annotations

import math

import pytest

from deploy.local_stack import Stack
from deploy.record_examples import ACCOUNT_WARM_UP, record_account_life
from deploy.webhook_receiver import Receiver
from gateway.endpoints import account_operations
from gateway.reference.examples import (
    BODY_METHODS,
    EXAMPLE_NAME,
    Document,
    Example,
    example_of,
    load_examples,
    typed_body,
    typed_value,
)
from gateway.reference.status_openapi import STATUS_PATH

EXAMPLES = load_examples()
ACCOUNT_PATHS = {operation.path for operation in account_operations()}
#: Every recorded call: each operation's default example and its others (one per format).
CALLS = [call for example in EXAMPLES.values() for call in example.every]
#: The computations' calls, each replayed alone (the status page's figures are not computed
#: from the request: they count what the answering stack has served).
COMPUTE_CALLS = [call for call in CALLS if call.operation not in ACCOUNT_PATHS and call.operation != STATUS_PATH]
GET_CALLS = [call for call in COMPUTE_CALLS if call.method == "GET"]
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


def answer_differences(example: Example, answer) -> list[str]:
    """Return where ``answer``, an httpx response, differs from ``example``'s recorded one: its
    media type, then its bytes for a document, its JSON beyond the tolerance otherwise."""
    media_type = answer.headers["content-type"].split(";")[0].strip()
    if media_type != example.media_type:
        return [f"{example.media_type} became {media_type}"]
    if example.document:
        same = answer.content == example.document.content
        return [] if same else [f"the {media_type} document changed: run make examples and look at it"]
    return differences(without_volatile_meta(example.response), without_volatile_meta(answer.json()))


def _id(call: Example) -> str:
    return call.operation if call.name == EXAMPLE_NAME else f"{call.operation}:{call.name}"


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
    missing = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method in operations
        if (example := example_of(EXAMPLES, path, method)) is None or not example.illustrates(method)
    ]
    assert missing == [], "run make examples"
    assert {_id(call): call.status for call in CALLS if call.status != 200} == {}


def test_the_served_document_carries_each_example_as_request_and_answer(client, document):
    for call in CALLS:
        for method, operation in document["paths"][call.operation].items():
            if not call.illustrates(method):
                continue
            answer = operation["responses"][str(call.status)]["content"][call.media_type]["examples"][call.name]
            if call.document is None:
                assert answer["value"] == call.response
            elif "externalValue" in answer:
                assert client.get(answer["externalValue"]).content == call.document.content
            else:
                assert answer["value"].encode() == call.document.content
            if method in ("get", "delete") and call.name == EXAMPLE_NAME:
                sent = {p["name"]: p["example"] for p in operation.get("parameters", ()) if "example" in p}
                schemas = {p["name"]: p["schema"] for p in operation.get("parameters", ())}
                asked = {**call.request, **call.path_parameters}
                assert sent == {name: typed_value(text, schemas[name]) for name, text in asked.items()}
            elif method.upper() in BODY_METHODS:
                body = operation["requestBody"]["content"]["application/json"]
                sent = body["examples"][call.name]["value"]
                typed = call.request if call.method in BODY_METHODS else typed_body(call.request, body["schema"])
                assert sent == typed


def test_the_comparison_sees_a_changed_number_and_ignores_a_changed_request_id():
    recorded = {"data": [{"longitude": 10.0}], "meta": {"request_id": "a", "credits_used": 1}}
    assert (
        differences(recorded, {"data": [{"longitude": 10.0 + 1e-7}], "meta": {"request_id": "a", "credits_used": 1}})
        == []
    )
    assert (
        differences(recorded, {"data": [{"longitude": 10.001}], "meta": {"request_id": "a", "credits_used": 1}}) != []
    )
    assert (
        differences(
            without_volatile_meta(recorded),
            without_volatile_meta({**recorded, "meta": {"request_id": "b", "credits_used": 1}}),
        )
        == []
    )


def test_the_comparison_of_a_document_sees_a_changed_byte_and_a_changed_media_type():
    class Answer:
        def __init__(self, media_type: str, content: bytes):
            self.headers, self.content = {"content-type": media_type}, content

    svg = Example("/v1/chart-wheel", "GET", {}, 200, document=Document("image/svg+xml", b"<svg/>"))
    assert answer_differences(svg, Answer("image/svg+xml", b"<svg/>")) == []
    assert answer_differences(svg, Answer("image/svg+xml", b"<svg />")) != []
    assert answer_differences(svg, Answer("image/png", b"<svg/>")) != []


@pytest.mark.parametrize("example", COMPUTE_CALLS, ids=_id)
def test_a_recorded_request_gets_its_recorded_answer_again(client, example: Example):
    if example.method == "GET":
        answer = client.get(example.operation, params=example.request)
    else:
        answer = client.post(example.operation, json=example.request)

    assert answer.status_code == example.status, answer.text
    assert answer_differences(example, answer) == []


@pytest.mark.parametrize("example", GET_CALLS, ids=_id)
def test_a_recorded_request_sent_as_its_typed_post_body_gets_the_same_answer(client, document, example: Example):
    body = document["paths"][example.operation]["post"]["requestBody"]["content"]["application/json"]["examples"][
        example.name
    ]["value"]

    answer = client.post(example.operation, json=body)

    assert answer.status_code == example.status, answer.text
    assert answer_differences(example, answer) == []


def test_the_account_life_replayed_on_a_fresh_account_answers_each_call_as_recorded(stack: Stack):
    _, key = stack.new_key()
    with stack.client(key) as client, Receiver() as receiver:
        client.get(ACCOUNT_WARM_UP, params=EXAMPLES[ACCOUNT_WARM_UP].request)
        replayed = record_account_life(client, receiver.url)
    recorded = {key: example for key, example in EXAMPLES.items() if example.operation in ACCOUNT_PATHS}
    assert set(replayed) == set(recorded)
    for key, example in replayed.items():
        for call, kept in zip(example.every, recorded[key].every, strict=True):
            assert (call.name, call.status) == (kept.name, kept.status), key
            # Its ids, time stamps, secret and receiver's port are this account's: its members are the same.
            assert sorted(call.response["data"]) == sorted(kept.response["data"]), key
            assert sorted(call.response["meta"]) == sorted(kept.response["meta"]), key


def test_the_status_page_replayed_answers_the_recorded_classes_windows_and_members(client):
    (recorded,) = [call for call in CALLS if call.operation == STATUS_PATH]
    answer = client.get(STATUS_PATH)
    assert answer.status_code == recorded.status, answer.text
    data, kept = answer.json()["data"], recorded.response["data"]
    assert sorted(answer.json()["meta"]) == sorted(recorded.response["meta"])
    assert sorted(data) == sorted(kept) and sorted(data["uptime"]) == sorted(kept["uptime"])
    assert [c["name"] for c in data["classes"]] == [c["name"] for c in kept["classes"]]
    for replayed, recorded_class in zip(data["classes"], kept["classes"], strict=True):
        assert [(w["window"], sorted(w)) for w in replayed["windows"]] == [
            (w["window"], sorted(w)) for w in recorded_class["windows"]
        ]
