"""The contract of webhook subscriptions (issue 40, part 3), run against every store (SQLite,
NATS): a subscription is kept, read, changed, listed and deleted under its own account only,
within the account's limit; its recent deliveries are kept newest first, the last N only; an
event is marked delivered once, by whichever process comes first; deleting a chart ends the
subscriptions naming it, and an ended subscription is never changed again."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from store.interfaces import Webhooks
from store.webhook_records import (
    ACTIVE,
    BY_OWNER,
    CHART_DELETED,
    ENDED,
    FAILING,
    PAUSED,
    Delivery,
    Webhook,
    WebhookLimitReached,
    new_secret,
    new_webhook_id,
)
from tests.unit.store.test_store_contract import factory, with_store  # noqa: F401 (factory is the fixture)


def a_webhook(account_id: str, url: str = "https://example.com/hook", chart_id: str | None = None) -> Webhook:
    return Webhook(new_webhook_id(), account_id, url, ("ingress", "lunation"), chart_id, 15, new_secret())


@with_store
async def test_each_store_keeps_webhooks(store):
    assert isinstance(store, Webhooks)


@with_store
async def test_a_webhook_is_read_back_as_it_was_kept_secret_included(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id, chart_id="chart_0123456789abc01234567"), limit=5)
    found = await store.get_webhook(account.id, webhook.webhook_id)
    assert (found.url, found.events, found.chart_id, found.lead_minutes, found.secret, found.state) == (
        webhook.url,
        ("ingress", "lunation"),
        "chart_0123456789abc01234567",
        15,
        webhook.secret,
        "active",
    )
    assert abs((found.created_at - webhook.created_at).total_seconds()) < 1e-3


@with_store
async def test_another_accounts_webhook_is_not_found(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    webhook = await store.create_webhook(a_webhook(acme.id), limit=5)
    assert await store.get_webhook(other.id, webhook.webhook_id) is None
    assert await store.replace_webhook(replace(webhook, account_id=other.id, url="https://evil.example")) is None
    assert await store.delete_webhook(other.id, webhook.webhook_id) is False
    assert (await store.get_webhook(acme.id, webhook.webhook_id)).url == webhook.url
    assert await store.list_webhooks(other.id) == []


@with_store
async def test_an_id_of_any_other_shape_names_no_webhook(store):
    account = await store.create_account("acme", 10)
    for text in ("", "wh_", "../x", "wh_zz", "a" * 300, "acct.*"):
        assert await store.get_webhook(account.id, text) is None
        assert await store.delete_webhook(account.id, text) is False


@with_store
async def test_a_replaced_webhook_keeps_its_id(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    paused = replace(webhook, state=PAUSED, paused_reason=FAILING, secret=new_secret())
    assert await store.replace_webhook(paused) == paused
    found = await store.get_webhook(account.id, webhook.webhook_id)
    assert (found.state, found.paused_reason, found.secret) == (PAUSED, FAILING, paused.secret)


@with_store
async def test_a_deleted_webhook_is_gone_with_its_deliveries(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    await store.record_delivery(Delivery(webhook.webhook_id, "fc_1", 1, 200, 12.5))
    assert await store.delete_webhook(account.id, webhook.webhook_id) is True
    assert await store.get_webhook(account.id, webhook.webhook_id) is None
    assert await store.delete_webhook(account.id, webhook.webhook_id) is False
    assert await store.replace_webhook(webhook) is None
    assert await store.recent_deliveries(webhook.webhook_id, 10) == []
    await store.record_delivery(Delivery(webhook.webhook_id, "fc_2", 1, 200, 1.0))
    assert await store.recent_deliveries(webhook.webhook_id, 10) == []


@with_store
async def test_webhooks_are_listed_in_the_order_they_were_made_and_all_across_accounts(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    made = [await store.create_webhook(a_webhook(acme.id, f"https://example.com/{i}"), limit=5) for i in range(3)]
    theirs = await store.create_webhook(a_webhook(other.id), limit=5)
    assert [w.webhook_id for w in await store.list_webhooks(acme.id)] == [w.webhook_id for w in made]
    assert {w.webhook_id for w in await store.all_webhooks()} == {w.webhook_id for w in [*made, theirs]}


@with_store
async def test_an_account_keeps_at_most_its_limit_of_webhooks(store):
    account = await store.create_account("acme", 10)
    for _ in range(2):
        await store.create_webhook(a_webhook(account.id), limit=2)
    with pytest.raises(WebhookLimitReached):
        await store.create_webhook(a_webhook(account.id), limit=2)
    assert len(await store.list_webhooks(account.id)) == 2


@with_store
async def test_recent_deliveries_are_newest_first_and_only_the_last_kept(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    for attempt in range(1, 6):
        await store.record_delivery(
            Delivery(webhook.webhook_id, "fc_1", attempt, 500 if attempt < 5 else 204, 3.0), keep=3
        )
    recent = await store.recent_deliveries(webhook.webhook_id, 10)
    assert [(d.attempt, d.status) for d in recent] == [(5, 204), (4, 500), (3, 500)]
    assert recent[0].succeeded and not recent[1].succeeded
    assert [d.attempt for d in await store.recent_deliveries(webhook.webhook_id, 2)] == [5, 4]


@with_store
async def test_a_delivery_without_answer_is_kept_with_its_error(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    await store.record_delivery(Delivery(webhook.webhook_id, "test_1", 1, None, 10000.0, test=True, error="timeout"))
    (delivery,) = await store.recent_deliveries(webhook.webhook_id, 10)
    assert (delivery.status, delivery.test, delivery.error, delivery.succeeded) == (None, True, "timeout", False)


@with_store
async def test_an_event_is_marked_delivered_once(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    assert await store.is_delivered(webhook.webhook_id, "fc_abc") is False
    assert await store.mark_delivered(webhook.webhook_id, "fc_abc") is True
    assert await store.mark_delivered(webhook.webhook_id, "fc_abc") is False
    assert await store.is_delivered(webhook.webhook_id, "fc_abc") is True
    assert await store.is_delivered(webhook.webhook_id, "fc_other") is False


@with_store
async def test_of_concurrent_marks_of_one_event_one_wins(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    outcomes = await asyncio.gather(*(store.mark_delivered(webhook.webhook_id, "fc_race") for _ in range(8)))
    assert sorted(outcomes) == [False] * 7 + [True]


@with_store
async def test_concurrent_deliveries_are_all_recorded(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id), limit=5)
    await asyncio.gather(
        *(store.record_delivery(Delivery(webhook.webhook_id, f"fc_{i}", 1, 200, 1.0)) for i in range(6))
    )
    assert sorted(d.event_id for d in await store.recent_deliveries(webhook.webhook_id, 10)) == [
        f"fc_{i}" for i in range(6)
    ]


CHART = "chart_0123456789abc01234567"
OTHER_CHART = "chart_0123456789abc76543210"


@with_store
async def test_ending_a_charts_subscriptions_ends_every_one_naming_it_and_no_other(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    active = await store.create_webhook(a_webhook(acme.id, chart_id=CHART), limit=9)
    paused = await store.create_webhook(
        replace(a_webhook(acme.id, chart_id=CHART), state=PAUSED, paused_reason=BY_OWNER), limit=9
    )
    elsewhere = await store.create_webhook(a_webhook(acme.id, chart_id=OTHER_CHART), limit=9)
    sky = await store.create_webhook(a_webhook(acme.id), limit=9)
    theirs = await store.create_webhook(a_webhook(other.id, chart_id=CHART), limit=9)
    assert await store.end_chart_webhooks(acme.id, CHART) == 2
    for webhook in (active, paused):
        found = await store.get_webhook(acme.id, webhook.webhook_id)
        assert (found.state, found.paused_reason, found.failing_since) == (ENDED, CHART_DELETED, None)
        assert found.updated_at >= webhook.updated_at
    assert (await store.get_webhook(acme.id, elsewhere.webhook_id)).state == ACTIVE
    assert (await store.get_webhook(acme.id, sky.webhook_id)).state == ACTIVE
    assert (await store.get_webhook(other.id, theirs.webhook_id)).state == ACTIVE
    assert await store.end_chart_webhooks(acme.id, CHART) == 0


@with_store
async def test_an_ended_subscription_is_never_changed_again_but_is_listed_and_deleted(store):
    account = await store.create_account("acme", 10)
    webhook = await store.create_webhook(a_webhook(account.id, chart_id=CHART), limit=5)
    await store.end_chart_webhooks(account.id, CHART)
    # A write made from a reading before the end (a resume, a worker's failure count) is refused.
    assert await store.replace_webhook(replace(webhook, state=ACTIVE, secret=new_secret())) is None
    found = await store.get_webhook(account.id, webhook.webhook_id)
    assert (found.state, found.secret) == (ENDED, webhook.secret)
    assert [w.state for w in await store.list_webhooks(account.id)] == [ENDED]
    assert [w.state for w in await store.all_webhooks()] == [ENDED]
    assert await store.delete_webhook(account.id, webhook.webhook_id) is True
    assert await store.get_webhook(account.id, webhook.webhook_id) is None


#: The cap race of issue 48, as for stored charts: 40 creations at once under a cap of 10,
#: spread over four stores as over four gateways.
CAP = 10
CREATIONS = 40
GATEWAYS = 4


def test_concurrent_creations_through_many_stores_make_exactly_the_limit(factory):
    async def body() -> tuple[list, int]:
        stores = [await factory.open() for _ in range(GATEWAYS)]
        try:
            account = await stores[0].create_account("acme", 10)
            outcomes = await asyncio.gather(
                *(
                    stores[n % GATEWAYS].create_webhook(a_webhook(account.id, f"https://example.com/{n}"), limit=CAP)
                    for n in range(CREATIONS)
                ),
                return_exceptions=True,
            )
            return outcomes, len(await stores[1].list_webhooks(account.id))
        finally:
            for store in stores:
                await store.close()

    outcomes, kept = asyncio.run(body())
    made = [outcome for outcome in outcomes if isinstance(outcome, Webhook)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, WebhookLimitReached)]
    assert (len(made), len(refused), kept) == (CAP, CREATIONS - CAP, CAP), outcomes
