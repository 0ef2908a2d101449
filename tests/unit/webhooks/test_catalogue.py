"""webhooks/catalogue.py: the subscriptions and charts followed, what changed is told; a
delivery is dropped only when known unwanted (subscription paused or changed, chart changed)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from store.webhook_records import (
    BY_OWNER,
    PAUSED,
    Webhook,
    new_secret,
    new_webhook_id,
    webhook_document,
)
from webhooks.catalogue import SKY_VERSION, Catalogue, updated_version, version_of

MADE = datetime(2026, 12, 1, tzinfo=UTC)


def a_webhook(chart_id: str | None = "ch_1") -> Webhook:
    return Webhook(
        new_webhook_id(),
        "acme",
        "https://receiver.example/hook",
        ("transit",),
        chart_id,
        0,
        new_secret(),
        created_at=MADE,
        updated_at=MADE,
    )


def key(webhook: Webhook) -> str:
    return f"acct.{webhook.account_id}.{webhook.webhook_id}"


def test_a_subscription_and_a_change_of_its_chart_are_told():
    told: list[str] = []
    catalogue = Catalogue(told.append)
    webhook = a_webhook()
    catalogue.webhook_seen(key(webhook), webhook_document(webhook))
    catalogue.chart_seen("acct.acme.ch_1", {"updated_at_s": 7.0})
    catalogue.chart_seen("acct.acme.ch_2", {"updated_at_s": 7.0})
    assert told == [webhook.webhook_id, webhook.webhook_id] and catalogue.chart_version(webhook) == version_of(7.0)


def test_a_deleted_subscription_is_forgotten_and_told():
    told: list[str] = []
    catalogue = Catalogue(told.append)
    webhook = a_webhook()
    catalogue.webhook_seen(key(webhook), webhook_document(webhook))
    catalogue.webhook_seen(key(webhook), None)
    catalogue.chart_seen("acct.acme.ch_1", {"updated_at_s": 7.0})  # no longer its subscription's
    assert catalogue.webhooks == {} and told == [webhook.webhook_id, webhook.webhook_id]


def test_a_sky_subscription_has_the_sky_version_and_a_chart_one_none_until_its_chart_is_seen():
    catalogue = Catalogue()
    assert catalogue.chart_version(a_webhook(None)) == SKY_VERSION
    assert catalogue.chart_version(a_webhook()) is None


def test_a_delivery_is_dropped_only_when_known_unwanted():
    catalogue = Catalogue()
    webhook = a_webhook()
    version = updated_version(webhook)
    assert catalogue.still_wanted(webhook.webhook_id, version, 1)  # not known yet
    catalogue.webhook_seen(key(webhook), webhook_document(webhook))
    catalogue.chart_seen("acct.acme.ch_1", {"updated_at_s": 7.0})
    assert catalogue.still_wanted(webhook.webhook_id, version, version_of(7.0))
    assert not catalogue.still_wanted(webhook.webhook_id, version, version_of(6.0))
    changed = replace(webhook, updated_at=MADE + timedelta(hours=1))
    catalogue.webhook_seen(key(webhook), webhook_document(changed))
    assert not catalogue.still_wanted(webhook.webhook_id, version, version_of(7.0))
    paused = replace(changed, state=PAUSED, paused_reason=BY_OWNER)
    catalogue.webhook_seen(key(webhook), webhook_document(paused))
    assert not catalogue.still_wanted(webhook.webhook_id, updated_version(paused), version_of(7.0))
