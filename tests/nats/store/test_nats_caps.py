"""store/nats_caps.py: the places under an account's cap are taken and given back under
compare-and-set, so the cap is exact (the race itself: the chart and webhook store contracts);
a place left without its record by a process that died between two writes is dropped once
stale, never while a creation may still be writing it."""

from __future__ import annotations

import asyncio
import time

import orjson
import pytest

from store.chart_records import ChartLimitReached, StoredChart, new_chart_id
from store.nats_caps import UNRECORDED_PLACE_S, stale_places
from store.nats_charts import CHARTS_CAP
from store.nats_webhooks import WEBHOOKS_CAP
from store.webhook_records import Webhook, WebhookLimitReached, new_secret, new_webhook_id


def a_chart(account_id: str) -> StoredChart:
    return StoredChart(new_chart_id(), account_id, "Ada", {"datetime": "1985-07-13T14:05:00"}, {}, {})


def a_webhook(account_id: str) -> Webhook:
    return Webhook(new_webhook_id(), account_id, "https://example.com/hook", ("ingress",), None, 15, new_secret())


def run(nats_factory, body):
    async def main():
        store = await nats_factory.open()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(main())


async def leave_places(store, kind: str, account_id: str, **taken_s: float) -> None:
    """Add places without records to the account's entry, as processes that died between
    taking a place and writing its record leave them."""
    key = f"{kind}.{account_id}"
    entry = await store._caps.get(key)
    places = orjson.loads(entry.value)["places"]
    await store._caps.update(key, orjson.dumps({"places": {**places, **taken_s}}), last=entry.revision)


def test_only_places_without_a_record_taken_long_enough_ago_are_stale():
    now_s = 1_000_000.0
    places = {"recorded": 0.0, "dead": now_s - UNRECORDED_PLACE_S - 1, "in_flight": now_s - 1}
    assert stale_places(places, {"recorded"}, now_s) == ["dead"]


def test_a_chart_place_left_by_a_dead_creation_is_taken_again_once_stale(nats_factory):
    async def body(store):
        account = await store.create_account("acme", 0)
        await store.create_chart(a_chart(account.id), limit=2)
        await leave_places(store, CHARTS_CAP, account.id, chart_dead=time.time() - UNRECORDED_PLACE_S - 1)
        return await store.create_chart(a_chart(account.id), limit=2)

    assert run(nats_factory, body) is not None


def test_a_place_whose_creation_may_still_be_writing_is_kept(nats_factory):
    async def body(store):
        account = await store.create_account("acme", 0)
        await store.create_chart(a_chart(account.id), limit=2)
        await leave_places(store, CHARTS_CAP, account.id, chart_writing=time.time())
        with pytest.raises(ChartLimitReached):
            await store.create_chart(a_chart(account.id), limit=2)

    run(nats_factory, body)


def test_a_webhook_place_left_by_a_dead_deletion_is_taken_again_once_stale(nats_factory):
    async def body(store):
        account = await store.create_account("acme", 0)
        await store.create_webhook(a_webhook(account.id), limit=2)
        gone = await store.create_webhook(a_webhook(account.id), limit=2)
        # The purge without the place given back, as a deletion that died in between leaves it.
        await store._webhooks.purge(f"acct.{account.id}.{gone.webhook_id}")
        with pytest.raises(WebhookLimitReached):
            await store.create_webhook(a_webhook(account.id), limit=2)
        key = f"{WEBHOOKS_CAP}.{account.id}"
        entry = await store._caps.get(key)
        places = orjson.loads(entry.value)["places"]
        places[gone.webhook_id] = time.time() - UNRECORDED_PLACE_S - 1
        await store._caps.update(key, orjson.dumps({"places": places}), last=entry.revision)
        return await store.create_webhook(a_webhook(account.id), limit=2)

    assert run(nats_factory, body) is not None


def test_deleting_one_chart_twice_at_once_frees_one_place(nats_factory):
    async def body(store):
        other = await nats_factory.open()
        try:
            account = await store.create_account("acme", 0)
            charts = [await store.create_chart(a_chart(account.id), limit=3) for _ in range(3)]
            await asyncio.gather(
                store.delete_chart(account.id, charts[0].chart_id), other.delete_chart(account.id, charts[0].chart_id)
            )
            await store.create_chart(a_chart(account.id), limit=3)
            with pytest.raises(ChartLimitReached):
                await other.create_chart(a_chart(account.id), limit=3)
        finally:
            await other.close()

    run(nats_factory, body)


def test_the_charts_an_account_kept_before_its_places_existed_count_against_the_cap(nats_factory):
    async def body(store):
        account = await store.create_account("acme", 0)
        for _ in range(2):
            await store.create_chart(a_chart(account.id), limit=2)
        await store._caps.purge(f"{CHARTS_CAP}.{account.id}")  # as a store of the version before
        with pytest.raises(ChartLimitReached):
            await store.create_chart(a_chart(account.id), limit=2)

    run(nats_factory, body)
