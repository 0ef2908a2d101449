"""Issue 38, part 3: every answer the gateway gives is what its schema in /v1/openapi.json
declares, ``meta`` included: each required member present, no member undeclared. The
recorded requests of every operation are replayed live, and local times read every way
(a zone named, found for a place, found at sea) fill ``meta.moment``."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from deploy.record_examples import record_account_life
from deploy.webhook_receiver import Receiver
from gateway.endpoints import account_operations
from gateway.reference.examples import load_examples
from gateway.reference.openapi_schemas import response_schema, strict

#: The account operations' paths: their recorded calls name ids of the account that recorded
#: them, so they are replayed as a life of their own (the last test), not one by one.
ACCOUNT_PATHS = {operation.path for operation in account_operations()}
CALLS = [
    call
    for example in load_examples().values()
    for call in example.every
    if call.response is not None and call.operation not in ACCOUNT_PATHS
]


@pytest.fixture(scope="module")
def document(api) -> dict:
    return api.get("/v1/openapi.json").json()


def undeclared_or_missing(document: dict, path: str, method: str, answer) -> list[str]:
    """Return what ``answer`` breaks of its schema, strictly (a member not declared is an error)."""
    return schema_errors(document, path, method, answer.status_code, answer.json())


def schema_errors(document: dict, path: str, method: str, status: int, body) -> list[str]:
    """Return what ``body``, answered with ``status``, breaks of its schema, strictly."""
    schema = strict(response_schema(document, path, method, str(status)))
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in Draft202012Validator(schema).iter_errors(body)
    ]


@pytest.mark.parametrize("call", CALLS, ids=lambda call: f"{call.operation}:{call.name}")
def test_every_recorded_request_replayed_answers_what_its_schema_declares(api, document, call):
    if call.method == "GET":
        answer = api.get(call.operation, params=call.request)
    else:
        answer = api.post(call.operation, json=call.request)
    assert answer.status_code == call.status, answer.text
    assert undeclared_or_missing(document, call.operation, call.method.lower(), answer) == []


@pytest.mark.parametrize(
    "params",
    [
        {"datetime": "1990-07-04T12:00:00", "tz": "Europe/Paris", "lat": 48.85, "lon": 2.35},
        {"datetime": "2024-01-01T12:00:00", "tz": "auto", "lat": 0.0, "lon": -150.0},  # at sea: a note
        {"datetime": "1880-01-01T12:00:00", "tz": "auto", "lat": 48.85, "lon": 7.0},  # local mean time: a note
        {"datetime": "1944-06-06T08:00:00", "place": "2643743"},  # London's zone, from the gazetteer
    ],
    ids=["named", "at-sea", "mean-time", "place"],
)
def test_meta_moment_of_a_local_time_is_what_the_schema_declares(api, document, params):
    answer = api.get("/v1/natal-chart", params=params)
    assert answer.status_code == 200, answer.text
    assert "datetime" in answer.json()["meta"]["moment"]
    assert undeclared_or_missing(document, "/v1/natal-chart", "get", answer) == []


def test_a_transit_scans_moments_read_in_two_zones_are_what_the_schema_declares(api, document):
    params = {
        "datetime": "1985-07-13T14:05:00",
        "tz": "Europe/Paris",
        "lat": 45.75,
        "lon": 4.85,
        "start": "2026-01-01T00:00:00",
        "end": "2026-01-15T00:00:00",
        "range_tz": "America/New_York",
        "bodies": "mars",
    }
    answer = api.get("/v1/transits", params=params)
    assert answer.status_code == 200, answer.text
    assert set(answer.json()["meta"]["moment"]) == {"datetime", "start", "end"}
    assert undeclared_or_missing(document, "/v1/transits", "get", answer) == []


def test_the_account_and_usage_answers_are_what_their_schemas_declare(api, document):
    for path in ("/v1/usage", "/v1/account"):
        assert undeclared_or_missing(document, path, "get", api.get(path)) == [], path


def test_an_error_answer_is_what_the_error_schema_declares(api, document):
    answer = api.get("/v1/positions", params={"datetime": "not a time"})
    assert answer.status_code == 400
    assert undeclared_or_missing(document, "/v1/positions", "get", answer) == []


def test_the_account_life_make_examples_records_replayed_answers_as_recorded_and_as_each_schema_declares(
    stack, document
):
    # deploy/record_examples.py's own life, on a fresh account: each call's status as recorded
    # (its ids being this account's), each answer strictly what its schema declares.
    _, key = stack.new_key()
    with stack.client(key) as client, Receiver() as receiver:
        replayed = record_account_life(client, receiver.url)
    recorded = {key: example for key, example in load_examples().items() if example.operation in ACCOUNT_PATHS}
    assert set(replayed) == set(recorded) and {e.operation for e in recorded.values()} == ACCOUNT_PATHS
    for key, example in replayed.items():
        for call, kept in zip(example.every, recorded[key].every, strict=True):
            assert (call.name, call.status, call.request.keys()) == (kept.name, kept.status, kept.request.keys())
            errors = schema_errors(document, call.operation, call.method.lower(), call.status, call.response)
            assert errors == [], (key, call.name, errors[:3])
