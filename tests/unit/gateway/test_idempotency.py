"""gateway/idempotency.py: reading the key (issue 39: 1-255 printable characters), naming a
request by its canonical parameters, the claim's three outcomes, what an answer keeps, and the
replayed response."""

from __future__ import annotations

import asyncio

import pytest
from starlette.datastructures import Headers
from starlette.responses import Response

from gateway.endpoints import discover_endpoints
from gateway.idempotency import (
    Held,
    Idempotency,
    canonical_json,
    canonical_parameters,
    fingerprint,
    idempotency_key,
    mode_scoped_key,
    replay_response,
    request_scoped_key,
)
from gateway.request_state import RequestState
from shared.errors import IdempotencyKeyInProgress, IdempotencyKeyReuse, InvalidBody, InvalidParameter
from shared.runtime.transcoder import request_from_query
from store.idempotency_records import MAX_STORED_ANSWER_BYTES, StoredAnswer
from store.memory_store import MemoryStore


def _headers(*values: str) -> Headers:
    return Headers(raw=[(b"idempotency-key", value.encode("latin-1")) for value in values])


def test_no_header_is_no_key_and_a_printable_key_is_read_as_sent():
    assert idempotency_key(Headers()) is None
    assert idempotency_key(_headers("a")) == "a"
    assert idempotency_key(_headers("~" * 255)) == "~" * 255


@pytest.mark.parametrize(
    "values",
    [("",), ("x" * 256,), ("tab\there",), ("caf\xe9",), ("a", "b")],
    ids=["empty", "256", "control", "non-ascii", "twice"],
)
def test_a_bad_key_is_invalid_parameter_naming_the_header(values):
    with pytest.raises(InvalidParameter) as refused:
        idempotency_key(_headers(*values))
    assert refused.value.param == "Idempotency-Key" and refused.value.suggestion


def test_the_same_parameters_read_in_any_order_name_the_same_request():
    positions = next(e for e in discover_endpoints() if e.path == "/v1/positions")
    items = [("datetime", "2024-03-20T12:00:00Z"), ("bodies", "sun,moon"), ("speed", "true")]
    first = request_from_query(positions.request_cls, items, positions.path)
    second = request_from_query(positions.request_cls, items[::-1], positions.path)
    other = request_from_query(positions.request_cls, items[:2], positions.path)
    assert canonical_parameters(first) == canonical_parameters(second) != canonical_parameters(other)
    assert fingerprint("GET", "/v1/positions", b"") != fingerprint("POST", "/v1/positions", b"")
    assert fingerprint("GET", "/v1/positions", b"") != fingerprint("GET", "/v1/aspects", b"")


def test_a_json_body_is_canonical_whatever_its_key_order():
    assert canonical_json({"b": 1, "a": [{"y": 2, "x": 1}]}) == b'{"a":[{"x":1,"y":2}],"b":1}'


def test_a_claim_holds_the_key_then_finds_it_running_then_replays_its_answer():
    async def scenario() -> None:
        idempotency = Idempotency(MemoryStore())
        held = await idempotency.claim("acct", "k", "fp", 10.0)
        assert isinstance(held, Held)
        with pytest.raises(IdempotencyKeyInProgress) as running:
            await idempotency.claim("acct", "k", "fp", 10.0)
        assert running.value.retry_after_s == 1
        with pytest.raises(IdempotencyKeyReuse):
            await idempotency.claim("acct", "k", "other", 10.0)
        response = Response(b'{"data":1}', media_type="application/json")
        await idempotency.complete(held, response, "req-1", [(b"x-ratelimit-limit", b"300")], b"{}")
        answer = await idempotency.claim("acct", "k", "fp", 10.0)
        assert answer == StoredAnswer(
            200,
            (("content-type", "application/json"), ("x-request-id", "req-1"), ("x-ratelimit-limit", "300")),
            b'{"data":1}',
        )

    asyncio.run(scenario())


def test_an_answer_above_the_bound_is_kept_as_what_recomputes_it():
    async def scenario() -> None:
        idempotency = Idempotency(MemoryStore())
        held = await idempotency.claim("acct", "k", "fp", 10.0)
        big = Response(b"x" * (MAX_STORED_ANSWER_BYTES + 1), media_type="image/png")
        await idempotency.complete(held, big, "req-1", [], b'{"meta":{"request_id":"req-1"}}')
        answer = await idempotency.claim("acct", "k", "fp", 10.0)
        assert answer.recompute and answer.body == b'{"meta":{"request_id":"req-1"}}'

    asyncio.run(scenario())


def test_a_released_claim_frees_the_key():
    async def scenario() -> None:
        idempotency = Idempotency(MemoryStore())
        await idempotency.release(await idempotency.claim("acct", "k", "fp", 10.0))
        assert isinstance(await idempotency.claim("acct", "k", "other", 10.0), Held)

    asyncio.run(scenario())


def test_a_replay_carries_the_first_headers_its_request_id_and_the_replayed_mark():
    answer = StoredAnswer(
        200, (("content-type", "application/json"), ("x-request-id", "first"), ("x-ratelimit-limit", "300")), b"{}"
    )
    state = RequestState()
    response = replay_response(answer, state)
    assert response.body == b"{}" and response.status_code == 200
    assert response.raw_headers == [
        (b"content-type", b"application/json"),
        (b"x-ratelimit-limit", b"300"),
        (b"content-length", b"2"),
        (b"idempotent-replayed", b"true"),
    ]
    assert state.answer_request_id == "first"
    assert replay_response(answer, RequestState(), b"[1]").body == b"[1]"


def test_a_test_keys_and_a_live_keys_idempotency_keys_are_kept_apart_and_spell_no_clients_key():
    live, test = mode_scoped_key("k-1", "live"), mode_scoped_key("k-1", "test")
    assert live != test
    for scoped in (live, test):
        with pytest.raises(InvalidParameter):
            idempotency_key(_headers(scoped))


def test_a_request_s_key_is_scoped_by_the_mode_of_the_api_key_that_sent_it():
    live, test = RequestState(), RequestState()
    test.key_mode = "test"
    assert request_scoped_key(live, "k-1") == mode_scoped_key("k-1", "live")
    assert request_scoped_key(test, "k-1") == mode_scoped_key("k-1", "test")


def test_a_body_nested_deeper_than_the_canonical_form_allows_is_400_invalid_body():
    deep = []
    for _ in range(300):
        deep = [deep]
    with pytest.raises(InvalidBody):
        canonical_json({"url": deep})
    assert canonical_json({"b": [1], "a": {"d": 2, "c": None}}) == b'{"a":{"c":null,"d":2},"b":[1]}'
