"""store/memory_store.py: the in-memory store of the benchmarks, keeping the account rules of
store/rules.py (limits, charges, refunds, lapsed slots) in one process's dictionaries.

References: docs/stores.md (the rules every store applies, a lapsed slot's charges refunded by
the next admission), the module's docstring (nothing persisted, usage reports nothing).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from store.key_format import hash_key
from store.memory_store import MemoryStore
from store.records import SLOT_LEASE_S, ChargeNote, UsageRow, utc_now
from store.webhook_records import ACTIVE, CHART_DELETED, ENDED, Webhook, new_secret, new_webhook_id

NOW = 1_700_000_010.0  # 30 s into a one-minute window (1_700_000_010 % 60 == 30)


def test_the_memory_store_keeps_the_rules():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 10, rate_per_minute=2, max_concurrent=1)
        first = await store.admit(account, "s1", NOW)
        busy = await store.admit(account, "s2", NOW)
        await store.release(account.id, "s1")
        second = await store.admit(account, "s3", NOW)
        third = await store.admit(account, "s4", NOW + 1)
        assert (first.allowed, busy.reason, second.allowed, third.reason) == (True, "concurrency", True, "rate")
        assert await store.reserve(account.id, 4, "r1") == 6 and await store.reserve(account.id, 4, "r1") == 6
        assert await store.refund(account.id, 4, "r1") == 10 and await store.refund(account.id, 4, "r1") == 10
        assert await store.refund(account.id, 4, "never-charged") == 10

    asyncio.run(run())


def test_a_charge_under_a_slot_that_lapsed_is_refunded_by_the_next_admission():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 10, rate_per_minute=100, max_concurrent=1)
        charged = await store.admit_and_reserve(account, "dead", 4, "req-dead", NOW)
        assert (charged.admission.allowed, charged.balance) == (True, 6)
        assert not (await store.admit(account, "s2", NOW + SLOT_LEASE_S - 1)).allowed
        assert (await store.admit(account, "s3", NOW + SLOT_LEASE_S)).allowed
        assert await store.balance(account.id) == 10

    asyncio.run(run())


def test_admit_and_reserve_short_of_credits_is_admitted_and_debits_nothing():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 2)
        charged = await store.admit_and_reserve(account, "s1", 3, "req-1", NOW)
        assert charged.admission.allowed and charged.balance is None and charged.insufficient is not None
        assert await store.balance(account.id) == 2

    asyncio.run(run())


def test_a_key_is_found_by_its_hash_and_by_its_id():
    async def run():
        store = MemoryStore()
        await store.create_account("bench", 0)
        plain, record = await store.create_key("bench")
        assert await store.find_key_by_hash(hash_key(plain)) == record
        assert await store.get_key(record.key_id) == record
        assert (await store.revoke_key(record.key_id)).state() == "revoked"

    asyncio.run(run())


def test_an_account_is_found_by_id_or_by_name():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 0)
        assert await store.get_account(account.id) == account == await store.get_account("bench")
        assert await store.get_account("other") is None

    asyncio.run(run())


def test_the_account_bounds_apply():
    async def run():
        store = MemoryStore()
        with pytest.raises(ValueError):
            await store.create_account("acct_reserved", 0)
        with pytest.raises(ValueError):
            await store.create_account("bench", -1)

    asyncio.run(run())


def test_usage_reports_nothing_and_key_changes_end_when_the_store_closes():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 10)
        await store.reserve(account.id, 3, "r1")
        usage = await store.usage(account.id)
        assert (usage.requests, usage.credits_debited) == (0, 0)
        changes = [change async for change in _closing(store)]
        assert changes == []

    asyncio.run(asyncio.wait_for(run(), 5))


async def _closing(store: MemoryStore):
    """Yield the store's key changes, closing the store once the feed is being followed."""
    feed = store.key_changes()
    asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(store.close()))
    async for change in feed:
        yield change


def test_the_memory_store_counts_daily_usage_from_its_debits_and_refunds():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 100)
        today = utc_now().date()
        await store.reserve(account.id, 2, "c1", ChargeNote("/v1/positions", "key_a", "r1"))
        await store.reserve(account.id, 5, "c2", ChargeNote("/v1/positions", "key_a", "r2"))
        await store.refund(account.id, 5, "c2")
        if utc_now().date() != today:
            pytest.skip("the charges straddled UTC midnight")
        return today, await store.daily_usage(account.id, today, today)

    today, rows = asyncio.run(run())
    assert rows == [UsageRow(today, "key_a", "/v1/positions", requests=2, credits=2 + (5 - 5))]


def test_deleting_a_chart_ends_its_subscriptions_for_good_in_the_memory_store_too():
    async def run():
        store = MemoryStore()
        account = await store.create_account("bench", 10)
        chart_id = "chart_0123456789abc01234567"
        charted = await store.create_webhook(
            Webhook(new_webhook_id(), account.id, "https://e.com/h", ("lunation",), chart_id, 0, new_secret()), 5
        )
        sky = await store.create_webhook(
            Webhook(new_webhook_id(), account.id, "https://e.com/h", ("lunation",), None, 0, new_secret()), 5
        )
        assert await store.end_chart_webhooks(account.id, chart_id) == 1
        assert await store.replace_webhook(replace(charted, state=ACTIVE)) is None
        return await store.get_webhook(account.id, charted.webhook_id), await store.get_webhook(
            account.id, sky.webhook_id
        )

    charted, sky = asyncio.run(run())
    assert (charted.state, charted.paused_reason, sky.state) == (ENDED, CHART_DELETED, ACTIVE)
