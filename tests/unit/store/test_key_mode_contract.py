"""The contract of test keys in every store (SQLite, NATS): a key's mode, kept and handed on,
and the test traffic's rate window and slots, counted apart from the live ones.

References: docs/accounts-and-keys.md ("Test keys"), docs/limits.md ("Test keys"),
store/interfaces.py (``Keys.create_key``, ``LimiterForTestKeys``).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace

import pytest

from store import KeyNotActive, hash_key
from store.records import RATE_WINDOW_S, Admission, utc_now
from tests.unit.store.test_store_contract import _two_gateways, factory, with_store  # noqa: F401 (the fixture)

#: A window start ten windows ahead, so no admission of the test runs into a real window's edge.
WINDOW_S = (int(time.time()) // RATE_WINDOW_S + 10) * RATE_WINDOW_S


# --- the key's mode ------------------------------------------------------------------------------


@with_store
async def test_a_key_is_live_unless_created_as_a_test_key(store):
    await store.create_account("acme", 10)
    plain, record = await store.create_key("acme")
    assert record.mode == "live" and plain.startswith("svc_live_")


@with_store
async def test_a_test_key_is_svc_test_and_32_url_safe_characters_and_keeps_its_mode(store):
    await store.create_account("acme", 10)
    plain, record = await store.create_key("acme", mode="test", name="CI")
    assert re.fullmatch(r"svc_test_[A-Za-z0-9_-]{32}", plain)
    assert record.mode == "test" and record.prefix_hint == plain[9:13]
    assert (await store.find_key_by_hash(hash_key(plain))).mode == "test"
    assert (await store.get_key(record.key_id)).mode == "test"
    assert [(key.key_id, key.mode) for key in await store.list_keys("acme")] == [(record.key_id, "test")]


@with_store
async def test_a_key_of_no_known_mode_is_not_created(store):
    await store.create_account("acme", 10)
    for mode in ("sandbox", "TEST", ""):
        with pytest.raises(ValueError):
            await store.create_key("acme", mode=mode)
    assert await store.list_keys("acme") == []


@with_store
async def test_a_test_key_is_revoked_expires_and_has_origins_as_a_live_key_does(store):
    await store.create_account("acme", 10)
    _, record = await store.create_key(
        "acme",
        mode="test",
        expires_at=utc_now().replace(year=utc_now().year + 1),
        allowed_origins=["https://app.example.com"],
        browser_only=True,
    )
    updated = await store.update_origins(record.key_id, ["https://ci.example.com"])
    assert (updated.mode, updated.allowed_origins, updated.browser_only) == ("test", ("https://ci.example.com",), True)
    revoked = await store.revoke_key(record.key_id)
    assert (revoked.mode, revoked.state()) == ("test", "revoked")
    with pytest.raises(KeyNotActive):
        await store.update_origins(record.key_id, [])
    assert record.state(record.expires_at) == "expired"


# --- the test traffic's limits -------------------------------------------------------------------


@with_store
async def test_test_traffic_counts_in_its_own_window_and_refuses_at_its_limit(store):
    account = await store.create_account("acme", 10)
    test_limits = replace(account, rate_per_minute=2, max_concurrent=5)
    now_s = WINDOW_S + 15
    first = await store.admit_test_traffic(test_limits, "t1", now_s)
    assert first == Admission(True, 2, 1, WINDOW_S + RATE_WINDOW_S)
    assert (await store.admit_test_traffic(test_limits, "t2", now_s)).remaining == 0
    refused = await store.admit_test_traffic(test_limits, "t3", now_s)
    assert refused == Admission(False, 2, 0, WINDOW_S + RATE_WINDOW_S, retry_after_s=RATE_WINDOW_S - 15, reason="rate")
    fresh = await store.admit_test_traffic(test_limits, "t4", WINDOW_S + RATE_WINDOW_S)
    assert (fresh.allowed, fresh.remaining) == (True, 1)


@with_store
async def test_test_traffic_holds_its_own_slots_until_released(store):
    account = await store.create_account("acme", 10, max_concurrent=50)
    test_limits = replace(account, rate_per_minute=100, max_concurrent=1)
    now_s = WINDOW_S + 1
    assert (await store.admit_test_traffic(test_limits, "t1", now_s)).allowed
    assert (await store.admit_test_traffic(test_limits, "t2", now_s)).reason == "concurrency"
    await store.release_test_traffic(account.id, "t1")
    assert (await store.admit_test_traffic(test_limits, "t2", now_s)).allowed
    await store.release_test_traffic(account.id, "never-held")  # a no-op


@with_store
async def test_test_traffic_and_live_traffic_never_use_up_each_others_limit(store):
    account = await store.create_account("acme", 10, rate_per_minute=2, max_concurrent=1)
    now_s = WINDOW_S + 1
    # The live limit used up, rate and concurrency both...
    assert (await store.admit(account, "live-1", now_s)).allowed
    assert (await store.admit(account, "live-2", now_s)).reason == "concurrency"
    await store.release(account.id, "live-1")
    assert (await store.admit(account, "live-2", now_s)).remaining == 0
    # ...leaves the test limit whole,
    assert (await store.admit_test_traffic(account, "test-1", now_s)) == Admission(True, 2, 1, WINDOW_S + RATE_WINDOW_S)
    assert (await store.admit_test_traffic(account, "test-2", now_s)).reason == "concurrency"
    # and the test traffic's admissions and slots cost the live limit nothing.
    await store.release(account.id, "live-2")
    assert (await store.admit(account, "live-3", now_s)).reason == "rate"
    await store.release_test_traffic(account.id, "test-1")
    assert (await store.admit_test_traffic(account, "test-3", now_s)).remaining == 0


@with_store
async def test_test_traffic_of_one_account_leaves_another_accounts_alone(store):
    acme = await store.create_account("acme", 10, rate_per_minute=1)
    other = await store.create_account("other", 10, rate_per_minute=1)
    now_s = WINDOW_S + 1
    assert (await store.admit_test_traffic(acme, "a", now_s)).allowed
    assert (await store.admit_test_traffic(other, "a", now_s)).allowed
    assert not (await store.admit_test_traffic(acme, "b", now_s)).allowed


@with_store
async def test_test_traffic_charges_nothing(store):
    account = await store.create_account("acme", 10)
    for index in range(3):
        assert (await store.admit_test_traffic(account, f"t{index}", WINDOW_S + 1)).allowed
    assert await store.balance(account.id) == 10
    assert (await store.usage(account.id)).requests == 0


# --- test traffic counted by computation (gateway/key_modes.py) ----------------------------------


@with_store
async def test_a_test_request_counts_its_computations_in_the_window_all_or_nothing(store):
    account = await store.create_account("acme", 10)
    test_limits = replace(account, rate_per_minute=60, max_concurrent=50)
    now_s = WINDOW_S + 20
    batch = await store.admit_test_traffic(test_limits, "batch", now_s, computations=50)
    assert batch == Admission(True, 60, 10, WINDOW_S + RATE_WINDOW_S)
    # Eleven do not fit in the ten left: refused whole, counting nothing, until the window ends.
    too_many = await store.admit_test_traffic(test_limits, "eleven", now_s, computations=11)
    assert too_many == Admission(False, 60, 10, WINDOW_S + RATE_WINDOW_S, RATE_WINDOW_S - 20, "rate")
    assert (await store.admit_test_traffic(test_limits, "ten", now_s, computations=10)).remaining == 0
    later = await store.admit_test_traffic(test_limits, "next", WINDOW_S + RATE_WINDOW_S, computations=11)
    assert (later.allowed, later.remaining) == (True, 49)


@with_store
async def test_a_test_request_holds_its_slots_all_or_nothing_and_frees_them_together(store):
    account = await store.create_account("acme", 10)
    test_limits = replace(account, rate_per_minute=1000, max_concurrent=5)
    now_s = WINDOW_S + 1
    assert (await store.admit_test_traffic(test_limits, "batch", now_s, computations=50, slots=5)).allowed
    assert (await store.admit_test_traffic(test_limits, "single", now_s)).reason == "concurrency"
    await store.release_test_traffic(account.id, "batch", 5)
    assert (await store.admit_test_traffic(test_limits, "single", now_s)).allowed
    # Four free of five: a request that needs five is refused whole and counts nothing.
    refused = await store.admit_test_traffic(test_limits, "batch-2", now_s, computations=50, slots=5)
    assert (refused.allowed, refused.reason, refused.remaining) == (False, "concurrency", 1000 - 51)
    assert (await store.admit_test_traffic(test_limits, "batch-3", now_s, computations=4, slots=4)).allowed


#: The two-gateway proof's figures: each gateway asks this many admissions at once, each
#: counting COMPUTATIONS and holding SLOTS, under a test limit of TEST_RATE and TEST_SLOTS.
ATTEMPTS_EACH, COMPUTATIONS, SLOTS, TEST_RATE, TEST_SLOTS = 30, 7, 2, 60, 5


def test_two_gateways_admitting_test_batches_at_once_never_pass_the_test_limits(factory):
    """The test limits are counted by computation in one atomic step per admission, across
    gateways: as many batches as fit the window and the slots, not one more."""

    async def scenario(first, second) -> None:
        account = await first.create_account("shared", 0)
        test_limits = replace(account, rate_per_minute=TEST_RATE, max_concurrent=TEST_SLOTS)
        now_s = WINDOW_S + 30

        async def rate_only(gateway, slot_id: str) -> bool:
            unbounded_slots = replace(test_limits, max_concurrent=1000)
            admission = await gateway.admit_test_traffic(unbounded_slots, slot_id, now_s, computations=COMPUTATIONS)
            return admission.allowed

        admitted = await asyncio.gather(
            *(
                rate_only(gateway, f"{name}-{attempt}")
                for attempt in range(ATTEMPTS_EACH)
                for name, gateway in (("a", first), ("b", second))
            )
        )
        assert sum(admitted) == TEST_RATE // COMPUTATIONS

        other = await first.create_account("other", 0)  # its own slots, none held yet
        other_limits = replace(other, rate_per_minute=1000, max_concurrent=TEST_SLOTS)

        async def slots_only(gateway, slot_id: str) -> bool:
            admission = await gateway.admit_test_traffic(other_limits, slot_id, now_s, computations=1, slots=SLOTS)
            return admission.allowed

        held = await asyncio.gather(
            *(
                slots_only(gateway, f"{name}-s{attempt}")
                for attempt in range(ATTEMPTS_EACH)
                for name, gateway in (("a", first), ("b", second))
            )
        )
        assert sum(held) == TEST_SLOTS // SLOTS

    _two_gateways(factory, scenario)
