"""store/memory_idempotency.py: the in-memory store keeps the records' rules (the benchmarks'
stub gateway; the full contract runs on SQLite and NATS in test_idempotency_contract.py)."""

from __future__ import annotations

import asyncio

from store.idempotency_records import StoredAnswer
from store.memory_store import MemoryStore

ANSWER = StoredAnswer(200, (("x-request-id", "first"),), b"{}")


def test_a_key_is_claimed_once_answered_once_and_replayed():
    async def scenario() -> None:
        store = MemoryStore()
        first = await store.claim_idempotency("a", "k", "fp", "c1", 10.0, 100.0)
        held = await store.claim_idempotency("a", "k", "fp", "c2", 10.0, 101.0)
        assert (first.claim_id, held.claim_id) == ("c1", "c1")
        assert await store.complete_idempotency("a", "k", "c1", ANSWER, 102.0)
        assert not await store.complete_idempotency("a", "k", "c1", ANSWER, 102.0)
        assert (await store.claim_idempotency("a", "k", "fp", "c3", 10.0, 500.0)).answer == ANSWER

    asyncio.run(scenario())


def test_a_released_or_lapsed_claim_frees_the_key_and_accounts_are_apart():
    async def scenario() -> None:
        store = MemoryStore()
        await store.claim_idempotency("a", "k", "fp", "c1", 10.0, 100.0)
        assert (await store.claim_idempotency("b", "k", "fp", "c2", 10.0, 100.0)).claim_id == "c2"
        await store.release_idempotency("a", "k", "c1")
        assert (await store.claim_idempotency("a", "k", "fp", "c3", 10.0, 100.0)).claim_id == "c3"
        assert (await store.claim_idempotency("a", "k", "fp", "c4", 10.0, 110.0)).claim_id == "c4"

    asyncio.run(scenario())
