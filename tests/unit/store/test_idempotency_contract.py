"""The ``Idempotency-Key`` records' contract (store/interfaces.py ``IdempotencyRecords``, the
rules of store/idempotency_records.py), run against every store of the contract suite
(SQLite and NATS): claim, conflict, complete, replay, expiry, lease takeover, release."""

from __future__ import annotations

import asyncio
import time

import pytest

from store.idempotency_records import IDEMPOTENCY_TTL_S, MAX_STORED_ANSWER_BYTES, StoredAnswer
from tests.unit.store.test_store_contract import factory, with_store  # noqa: F401  (the fixture both stores run under)

LEASE_S = 20.0
ANSWER = StoredAnswer(200, (("content-type", "application/json"), ("x-request-id", "first")), b'{"data":1}')


async def _account(store) -> str:
    return (await store.create_account("acme", 100)).id


@with_store
async def test_the_first_claim_of_a_key_holds_it_in_progress(store):
    account = await _account(store)
    now = time.time()
    record = await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S, now)
    assert (record.claim_id, record.fingerprint, record.in_progress) == ("claim-1", "fp-a", True)
    assert record.lease_until_s == pytest.approx(now + LEASE_S)
    assert record.expires_at_s == pytest.approx(now + IDEMPOTENCY_TTL_S)


@with_store
async def test_a_second_claim_while_the_first_runs_gets_the_first_claim_back(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    again = await store.claim_idempotency(account, "key-1", "fp-b", "claim-2", LEASE_S)
    assert (again.claim_id, again.fingerprint, again.in_progress) == ("claim-1", "fp-a", True)


@with_store
async def test_a_completed_key_replays_its_answer_byte_for_byte(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    assert await store.complete_idempotency(account, "key-1", "claim-1", ANSWER)
    found = await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)
    assert (found.claim_id, found.answer) == ("claim-1", ANSWER)


@with_store
async def test_a_recomputed_answer_keeps_its_marker(store):
    account = await _account(store)
    marker = StoredAnswer(200, (("content-type", "image/png"),), b'{"meta":{}}', recompute=True)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    assert await store.complete_idempotency(account, "key-1", "claim-1", marker)
    assert (await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)).answer == marker


@with_store
async def test_a_record_is_forgotten_a_day_after_its_first_claim(store):
    account = await _account(store)
    now = time.time()
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S, now)
    assert await store.complete_idempotency(account, "key-1", "claim-1", ANSWER, now + 1)
    before = await store.claim_idempotency(account, "key-1", "fp-b", "claim-2", LEASE_S, now + IDEMPOTENCY_TTL_S - 1)
    after = await store.claim_idempotency(account, "key-1", "fp-b", "claim-3", LEASE_S, now + IDEMPOTENCY_TTL_S)
    assert before.claim_id == "claim-1"
    assert (after.claim_id, after.fingerprint, after.answer) == ("claim-3", "fp-b", None)


@with_store
async def test_a_claim_past_its_lease_is_taken_over_and_can_no_longer_complete(store):
    account = await _account(store)
    now = time.time()
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S, now)
    inside = await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S, now + LEASE_S - 1)
    taken = await store.claim_idempotency(account, "key-1", "fp-a", "claim-3", LEASE_S, now + LEASE_S)
    assert (inside.claim_id, taken.claim_id) == ("claim-1", "claim-3")
    assert not await store.complete_idempotency(account, "key-1", "claim-1", ANSWER, now + LEASE_S)
    await store.release_idempotency(account, "key-1", "claim-1")  # the lost claim releases nothing
    assert (
        await store.claim_idempotency(account, "key-1", "fp-a", "claim-4", LEASE_S, now + LEASE_S)
    ).claim_id == "claim-3"


@with_store
async def test_an_answered_key_is_never_taken_over_after_the_lease(store):
    account = await _account(store)
    now = time.time()
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S, now)
    await store.complete_idempotency(account, "key-1", "claim-1", ANSWER, now + 1)
    later = await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S, now + 10 * LEASE_S)
    assert (later.claim_id, later.answer) == ("claim-1", ANSWER)


@with_store
async def test_a_released_claim_leaves_the_key_free(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    await store.release_idempotency(account, "key-1", "claim-1")
    again = await store.claim_idempotency(account, "key-1", "fp-b", "claim-2", LEASE_S)
    assert (again.claim_id, again.fingerprint) == ("claim-2", "fp-b")


@with_store
async def test_an_answer_is_never_released(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    await store.complete_idempotency(account, "key-1", "claim-1", ANSWER)
    await store.release_idempotency(account, "key-1", "claim-1")
    assert (await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)).answer == ANSWER


@with_store
async def test_an_answer_is_stored_once(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    assert await store.complete_idempotency(account, "key-1", "claim-1", ANSWER)
    assert not await store.complete_idempotency(account, "key-1", "claim-1", StoredAnswer(200, (), b"other"))
    assert (await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)).answer == ANSWER


@with_store
async def test_keys_are_per_account(store):
    first = await _account(store)
    second = (await store.create_account("globex", 100)).id
    await store.claim_idempotency(first, "key-1", "fp-a", "claim-1", LEASE_S)
    other = await store.claim_idempotency(second, "key-1", "fp-a", "claim-2", LEASE_S)
    assert other.claim_id == "claim-2"


@with_store
async def test_any_printable_key_up_to_255_characters_is_kept_apart_from_the_others(store):
    account = await _account(store)
    keys = ["a", "A", "a.b", "*>", " spaced key ", "~" * 255]
    claims = [await store.claim_idempotency(account, key, "fp", f"claim-{i}", LEASE_S) for i, key in enumerate(keys)]
    assert [claim.claim_id for claim in claims] == [f"claim-{i}" for i in range(len(keys))]


@with_store
async def test_of_claims_made_at_once_exactly_one_wins(store):
    account = await _account(store)
    claims = await asyncio.gather(
        *(store.claim_idempotency(account, "key-1", "fp-a", f"claim-{i}", LEASE_S) for i in range(8))
    )
    assert len({claim.claim_id for claim in claims}) == 1


@with_store
async def test_an_answer_above_the_stored_size_is_refused(store):
    account = await _account(store)
    await store.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
    with pytest.raises(ValueError):
        await store.complete_idempotency(
            account, "key-1", "claim-1", StoredAnswer(200, (), b"x" * (MAX_STORED_ANSWER_BYTES + 1))
        )
    largest = StoredAnswer(200, (("content-type", "application/json"),), b"x" * MAX_STORED_ANSWER_BYTES)
    assert await store.complete_idempotency(account, "key-1", "claim-1", largest)
    assert (await store.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)).answer == largest


def test_a_claim_made_by_one_process_is_seen_by_another(factory):  # noqa: F811
    async def body() -> None:
        first, second = await factory.open(), await factory.open()
        try:
            account = (await first.create_account("acme", 100)).id
            await first.claim_idempotency(account, "key-1", "fp-a", "claim-1", LEASE_S)
            assert (await second.claim_idempotency(account, "key-1", "fp-a", "claim-2", LEASE_S)).claim_id == "claim-1"
            assert await first.complete_idempotency(account, "key-1", "claim-1", ANSWER)
            assert (await second.claim_idempotency(account, "key-1", "fp-a", "claim-3", LEASE_S)).answer == ANSWER
        finally:
            await first.close()
            await second.close()

    asyncio.run(body())
