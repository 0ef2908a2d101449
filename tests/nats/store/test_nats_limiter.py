"""store/nats_limiter.py: the NATS store's limiter as bucket ``P_LIMITS`` holds it: one entry
per account with its rate window and the slots held (lease end and charges); an admission or a
release is one update of it, a refused admission writes nothing, a lapsed slot is dropped by the
next admission and its charges refunded; new limits are written into the account record.

References: docs/stores.md (design notes: the limiter is a key-value entry per account),
store/nats_store.py's docstring (``<account_id>`` -> ``{window_start_s, admitted, slots:
{slot_id: [lease end, [[request id, credits]], holder id]}}``), store/records.py (RATE_WINDOW_S,
SLOT_LEASE_S). The bucket is read with a plain nats-py client, not through the store.
"""

from __future__ import annotations

import json

from store.records import SLOT_LEASE_S
from tests.nats.store.nats_store_factory import with_plain_client

NOW = 1_700_000_010.0  # 30 s into the window that starts at 1_699_999_980 (a multiple of 60)
WINDOW_START = 1_699_999_980


def _scenario(nats_factory, body):
    """Run ``body(store, js, prefix)`` on a fresh store, with a plain client's JetStream context."""
    return with_plain_client(nats_factory, body)


async def _entry(js, prefix: str, account_id: str) -> tuple[int, dict]:
    got = await (await js.key_value(f"{prefix}_LIMITS")).get(account_id)
    return got.revision, json.loads(got.value)


def test_an_admission_writes_the_window_and_the_slot_with_its_lease_and_charge(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "slot-1", 3, "req-1", NOW)
        _, entry = await _entry(js, prefix, account.id)
        assert entry == {
            "window_start_s": WINDOW_START,
            "admitted": 1,
            "slots": {"slot-1": [NOW + SLOT_LEASE_S, [["req-1", 3]], store.holder_id]},
        }

    _scenario(nats_factory, body)


def test_a_refused_admission_leaves_the_entry_as_it_was(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10, max_concurrent=1)
        await store.admit(account, "held", NOW)
        before = await _entry(js, prefix, account.id)
        assert (await store.admit(account, "refused", NOW)).reason == "concurrency"
        assert await _entry(js, prefix, account.id) == before

    _scenario(nats_factory, body)


def test_a_release_removes_the_slot_from_the_entry_and_the_charge_stands(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "slot-1", 3, "req-1", NOW)
        await store.release(account.id, "slot-1")
        _, entry = await _entry(js, prefix, account.id)
        assert entry["slots"] == {} and entry["admitted"] == 1
        assert await store.balance(account.id) == 7

    _scenario(nats_factory, body)


def test_a_charge_held_under_a_slot_joins_its_charges_once(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.admit(account, "batch", NOW)
        await store.hold_charge(account.id, "batch", ("item-1", 1))
        await store.hold_charge(account.id, "batch", ("item-1", 1))
        await store.hold_charge(account.id, "never-held", ("item-2", 1))
        _, entry = await _entry(js, prefix, account.id)
        assert entry["slots"] == {"batch": [NOW + SLOT_LEASE_S, [["item-1", 1]], store.holder_id]}

    _scenario(nats_factory, body)


def test_the_next_admission_drops_a_lapsed_slot_and_refunds_its_charge(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "dead", 3, "req-dead", NOW)
        await store.admit(account, "next", NOW + SLOT_LEASE_S)
        _, entry = await _entry(js, prefix, account.id)
        assert list(entry["slots"]) == ["next"]
        assert await store.balance(account.id) == 10

    _scenario(nats_factory, body)


def test_new_limits_are_written_into_the_account_record(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 0, rate_per_minute=100, max_concurrent=7)
        changed = await store.set_limits("acme", max_concurrent=3)
        doc = json.loads((await (await js.key_value(f"{prefix}_ACCOUNTS")).get(f"id.{account.id}")).value)
        assert (doc["rate_per_minute"], doc["max_concurrent"]) == (100, 3)
        assert (changed.rate_per_minute, changed.max_concurrent) == (100, 3)

    _scenario(nats_factory, body)
