"""Idempotency-Key on paid requests (issue 39, part 1; docs/idempotency.md), one test per rule,
in process on the SQLite store."""

from __future__ import annotations

import asyncio
import json

import pytest

from gateway.endpoints import discover_endpoints
from gateway.idempotency import canonical_parameters, fingerprint, mode_scoped_key
from shared.runtime.transcoder import request_from_query
from store.sqlite_store import SqliteStore
from tests.api.test_chart_wheel_api import BIRTH
from tests.api.test_conventions_api import assert_error, balance

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun,moon"}
BATCH = {"requests": [{"endpoint": "/v1/aspects", "params": {"datetime": "2024-03-20T12:00:00Z"}}] * 3}


@pytest.fixture()
def funded(stack):
    """A fresh account with 100 credits: (name, client)."""
    name, key = stack.new_key(credits=100)
    with stack.client(key) as client:
        yield name, client


def _key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def test_a_retry_with_the_same_key_replays_the_first_answer_byte_for_byte_and_free(stack, funded):
    name, client = funded
    first = client.get(POSITIONS, params=MOMENT, headers=_key("k-1"))
    assert first.status_code == 200, first.text
    after_first = balance(stack, name)
    again = client.get(POSITIONS, params=MOMENT, headers=_key("k-1"))
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["x-request-id"] == first.headers["x-request-id"]
    for name_ in (
        "content-type",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "ratelimit-policy",
        "ratelimit",
    ):
        assert again.headers[name_] == first.headers[name_]
    assert "idempotent-replayed" not in first.headers
    assert balance(stack, name) == after_first == 100 - first.json()["meta"]["credits_used"]


def test_the_same_parameters_in_another_order_or_spelling_are_the_same_request(funded):
    _, client = funded
    first = client.get(
        POSITIONS, params={"bodies": "sun,moon", "datetime": "2024-03-20T12:00:00Z"}, headers=_key("k-order")
    )
    again = client.get(POSITIONS, params=MOMENT, headers=_key("k-order"))
    assert again.headers["idempotent-replayed"] == "true" and again.content == first.content


def test_a_post_body_is_the_same_request_whatever_its_key_order_or_whitespace(funded):
    _, client = funded
    first = client.post(
        POSITIONS,
        content=json.dumps({"datetime": "2024-03-20T12:00:00Z", "bodies": ["sun"]}),
        headers={**_key("k-post"), "Content-Type": "application/json"},
    )
    again = client.post(
        POSITIONS,
        content='{ "bodies": ["sun"],\n "datetime": "2024-03-20T12:00:00Z" }',
        headers={**_key("k-post"), "Content-Type": "application/json"},
    )
    assert first.status_code == 200, first.text
    assert again.headers["idempotent-replayed"] == "true" and again.content == first.content


def test_the_same_key_with_another_request_is_422_idempotency_key_reuse_and_free(stack, funded):
    name, client = funded
    client.get(POSITIONS, params=MOMENT, headers=_key("k-reuse"))
    before = balance(stack, name)
    other = client.get(POSITIONS, params={**MOMENT, "bodies": "mars"}, headers=_key("k-reuse"))
    assert_error(other, 422, "idempotency_key_reuse")
    as_post = client.post(
        POSITIONS, json={"datetime": "2024-03-20T12:00:00Z", "bodies": ["sun", "moon"]}, headers=_key("k-reuse")
    )
    assert_error(as_post, 422, "idempotency_key_reuse")
    assert balance(stack, name) == before


def _claim_from_another_gateway(
    stack, account_name: str, key: str, params: dict[str, str], lease_s: float = 60.0
) -> None:
    """Claim ``key`` for GET /v1/positions with ``params`` in the store, as a gateway whose first
    request is still running would."""
    endpoint = next(e for e in discover_endpoints() if e.path == POSITIONS)
    message = request_from_query(endpoint.request_cls, list(params.items()), POSITIONS)

    async def claim() -> None:
        store = SqliteStore(stack.settings.database_path)
        try:
            account = await store.get_account(account_name)
            await store.claim_idempotency(
                account.id,
                mode_scoped_key(key, "live"),
                fingerprint("GET", POSITIONS, canonical_parameters(message)),
                "elsewhere",
                lease_s,
            )
        finally:
            await store.close()

    asyncio.run(claim())


def test_a_retry_while_the_first_runs_is_409_idempotency_key_in_progress_with_retry_after(stack, funded):
    name, client = funded
    _claim_from_another_gateway(stack, name, "k-running", MOMENT)
    response = client.get(POSITIONS, params=MOMENT, headers=_key("k-running"))
    assert_error(response, 409, "idempotency_key_in_progress")
    assert response.headers["retry-after"] == "1"
    assert balance(stack, name) == 100


def test_a_claim_whose_gateway_died_is_taken_over_after_its_lease(stack, funded):
    name, client = funded
    _claim_from_another_gateway(stack, name, "k-dead", MOMENT, lease_s=0.001)
    response = client.get(POSITIONS, params=MOMENT, headers=_key("k-dead"))
    assert response.status_code == 200 and "idempotent-replayed" not in response.headers


def test_a_refusal_that_charged_nothing_is_not_kept(stack, funded):
    name, client = funded
    refused = client.get(POSITIONS, params={**MOMENT, "bodies": "vulcan"}, headers=_key("k-refused"))
    assert_error(refused, 400, "body_not_found")
    # The key is free again: another request may use it, and is computed and charged.
    answered = client.get(POSITIONS, params=MOMENT, headers=_key("k-refused"))
    assert answered.status_code == 200 and "idempotent-replayed" not in answered.headers
    assert balance(stack, name) == 100 - answered.json()["meta"]["credits_used"]


def test_a_request_short_of_credits_is_not_kept(stack):
    name, key = stack.new_key(credits=0)
    with stack.client(key) as client:
        short = client.get(POSITIONS, params=MOMENT, headers=_key("k-short"))
        assert_error(short, 402, "insufficient_credits")
        stack.admin("account", "top-up", name, "--credits", "10")
        answered = client.get(POSITIONS, params=MOMENT, headers=_key("k-short"))
    assert answered.status_code == 200 and "idempotent-replayed" not in answered.headers


@pytest.mark.parametrize("value", ["", "x" * 256, "tab\there", "caf\u00e9"])
def test_a_bad_key_is_400_invalid_parameter_and_free(stack, funded, value):
    name, client = funded
    response = client.get(POSITIONS, params=MOMENT, headers={"Idempotency-Key": value.encode("utf-8")})
    assert_error(response, 400, "invalid_parameter", "Idempotency-Key")
    assert balance(stack, name) == 100


def test_a_key_of_255_printable_characters_is_accepted(funded):
    _, client = funded
    key = "".join(chr(0x20 + i % 95) for i in range(255)).strip() + "~"
    response = client.get(POSITIONS, params=MOMENT, headers=_key(key))
    assert response.status_code == 200, response.text


def test_a_free_endpoint_ignores_the_header(funded):
    _, client = funded
    first = client.get("/v1/places", params={"q": "london"}, headers=_key(""))
    again = client.get("/v1/places", params={"q": "london"}, headers=_key(""))
    assert first.status_code == again.status_code == 200
    assert "idempotent-replayed" not in again.headers


def test_a_batch_is_covered_whole_by_its_key(stack, funded):
    name, client = funded
    first = client.post("/v1/batch", json=BATCH, headers=_key("k-batch"))
    assert first.status_code == 200 and first.json()["meta"]["credits_used"] == 3
    again = client.post("/v1/batch", json=BATCH, headers=_key("k-batch"))
    assert again.headers["idempotent-replayed"] == "true" and again.content == first.content
    other = client.post("/v1/batch", json={"requests": BATCH["requests"][:2]}, headers=_key("k-batch"))
    assert_error(other, 422, "idempotency_key_reuse")
    assert balance(stack, name) == 97


def test_a_batch_whose_every_subrequest_failed_is_not_kept(stack, funded):
    name, client = funded
    failing = {"requests": [{"endpoint": "/v1/positions", "params": {"bodies": "vulcan"}}]}
    client.post("/v1/batch", json=failing, headers=_key("k-batch-failed"))
    answered = client.post("/v1/batch", json=BATCH, headers=_key("k-batch-failed"))
    assert answered.status_code == 200 and "idempotent-replayed" not in answered.headers
    assert balance(stack, name) == 97


def test_keys_are_per_account(stack, funded):
    _, client = funded
    first = client.get(POSITIONS, params=MOMENT, headers=_key("k-shared"))
    other_name, other_key = stack.new_key(credits=100)
    with stack.client(other_key) as other:
        answered = other.get(POSITIONS, params={**MOMENT, "bodies": "mars"}, headers=_key("k-shared"))
    assert first.status_code == answered.status_code == 200
    assert "idempotent-replayed" not in answered.headers
    assert balance(stack, other_name) == 100 - answered.json()["meta"]["credits_used"]


@pytest.fixture()
def small_store_bound(monkeypatch):
    """Answers above 100 bytes are kept as recomputations (the bound is 512 KiB: few answers reach it)."""
    monkeypatch.setattr("gateway.idempotency.MAX_STORED_ANSWER_BYTES", 100)


def test_an_answer_above_the_stored_size_is_computed_again_byte_for_byte_and_free(stack, funded, small_store_bound):
    name, client = funded
    first = client.get(POSITIONS, params=MOMENT, headers=_key("k-big"))
    assert first.status_code == 200 and len(first.content) > 100
    after_first = balance(stack, name)
    again = client.get(POSITIONS, params=MOMENT, headers=_key("k-big"))
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    assert again.headers["x-request-id"] == first.headers["x-request-id"]
    assert balance(stack, name) == after_first


def test_a_large_document_answer_is_computed_again_with_its_first_digest(stack, funded, small_store_bound):
    name, client = funded
    first = client.get("/v1/chart-wheel", params=BIRTH, headers=_key("k-svg"))
    assert first.status_code == 200 and first.headers["content-type"].startswith("image/svg+xml"), first.text
    after_first = balance(stack, name)
    again = client.get("/v1/chart-wheel", params=BIRTH, headers=_key("k-svg"))
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content and again.headers["content-digest"] == first.headers["content-digest"]
    assert balance(stack, name) == after_first


def test_a_large_batch_answer_recomputes_its_successes_and_replays_its_failures(stack, funded, small_store_bound):
    name, client = funded
    mixed = {"requests": [*BATCH["requests"][:2], {"endpoint": "/v1/positions", "params": {"bodies": "vulcan"}}]}
    first = client.post("/v1/batch", json=mixed, headers=_key("k-big-batch"))
    assert first.status_code == 200 and first.json()["data"]["summary"]["failed"] == 1
    after_first = balance(stack, name)
    again = client.post("/v1/batch", json=mixed, headers=_key("k-big-batch"))
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    assert balance(stack, name) == after_first
