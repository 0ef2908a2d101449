"""store/nats_idempotency.py: the bucket's layout, read with a plain client: its TTL is the day
of issue 39, its entries are ``<account_id>.<sha256 of the key>`` holding the encoded record
(the contract itself: test_idempotency_contract.py, run on both stores)."""

from __future__ import annotations

from store.idempotency_records import IDEMPOTENCY_TTL_S, StoredAnswer, decode_record, key_digest
from tests.nats.store.nats_store_factory import with_plain_client

ANSWER = StoredAnswer(200, (("x-request-id", "first"),), b'{"data":1}')


def test_records_live_in_a_bucket_whose_entries_expire_after_a_day(nats_factory):
    async def body(store, js, prefix):
        account = (await store.create_account("acme", 10)).id
        await store.claim_idempotency(account, "key 1", "fp", "c1", 10.0)
        await store.complete_idempotency(account, "key 1", "c1", ANSWER)
        bucket = await js.key_value(f"{prefix}_IDEMPOTENCY")
        status = await bucket.status()
        entry = await bucket.get(f"{account}.{key_digest('key 1')}")
        return status.ttl, decode_record(entry.value)

    max_age_s, record = with_plain_client(nats_factory, body)
    assert max_age_s == IDEMPOTENCY_TTL_S
    assert (record.claim_id, record.answer) == ("c1", ANSWER)


def test_a_released_claim_leaves_no_record(nats_factory):
    async def body(store, js, prefix):
        account = (await store.create_account("acme", 10)).id
        await store.claim_idempotency(account, "k", "fp", "c1", 10.0)
        await store.release_idempotency(account, "k", "c1")
        again = await store.claim_idempotency(account, "k", "fp2", "c2", 10.0)
        return again.claim_id

    assert with_plain_client(nats_factory, body) == "c2"
