"""What a worker knows of the subscriptions and of their charts' versions: followed from the
store's buckets change by change (``store/nats_webhook_schedule.py`` ``follow_bucket``), so
knowing a million subscriptions costs their changes, not a listing every tick."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from store.webhook_records import ACTIVE, Webhook, webhook_of

#: A sky subscription's chart version: it has no chart.
SKY_VERSION = 0


def version_of(updated_at_s: float) -> int:
    """Return a version (integer microseconds) of a document updated at ``updated_at_s``
    (Unix seconds): a change of it means the document changed."""
    return round(updated_at_s * 1_000_000)


class Catalogue:
    """The subscriptions (by id) and the charts' versions (by account and chart id) as last
    seen; ``on_change(webhook_id)`` is called for each subscription whose days may have
    changed (itself or its chart)."""

    def __init__(self, on_change: Callable[[str], None] = lambda webhook_id: None):
        self.webhooks: dict[str, Webhook] = {}
        self._charts: dict[tuple[str, str], int] = {}
        self._by_chart: dict[tuple[str, str], set[str]] = {}
        self.on_change = on_change

    def webhook_seen(self, key: str, document: dict[str, Any] | None) -> None:
        """Take in an entry of the subscriptions' bucket (``acct.<account>.<webhook id>``; None: deleted)."""
        webhook_id = key.rsplit(".", 1)[-1]
        old = self.webhooks.pop(webhook_id, None)
        if old is not None and old.chart_id is not None:
            self._by_chart.get((old.account_id, old.chart_id), set()).discard(webhook_id)
        if document is not None:
            webhook = webhook_of(document)
            self.webhooks[webhook_id] = webhook
            if webhook.chart_id is not None:
                self._by_chart.setdefault((webhook.account_id, webhook.chart_id), set()).add(webhook_id)
        self.on_change(webhook_id)

    def chart_seen(self, key: str, document: dict[str, Any] | None) -> None:
        """Take in an entry of the charts' bucket (``acct.<account>.<chart id>``; None: deleted)."""
        _acct, account_id, chart_id = key.split(".", 2)
        if document is None:
            self._charts.pop((account_id, chart_id), None)
        else:
            self._charts[(account_id, chart_id)] = version_of(document["updated_at_s"])
        for webhook_id in self._by_chart.get((account_id, chart_id), ()):
            self.on_change(webhook_id)

    def chart_version(self, webhook: Webhook) -> int | None:
        """Return the version of the subscription's chart (:data:`SKY_VERSION` for the sky's);
        None while its chart is not known (deleted, or not seen yet)."""
        if webhook.chart_id is None:
            return SKY_VERSION
        return self._charts.get((webhook.account_id, webhook.chart_id))

    def still_wanted(self, webhook_id: str, webhook_version: int, chart_version: int) -> bool:
        """Return whether a delivery found for these versions may still go: False only when
        known otherwise (the subscription not active, changed since, or its chart changed);
        what is not known yet is left to the delivery's own checks."""
        webhook = self.webhooks.get(webhook_id)
        if webhook is None:
            return True
        if webhook.state != ACTIVE or version_of(webhook.updated_at.timestamp()) != webhook_version:
            return False
        known = self.chart_version(webhook)
        return known is None or known == chart_version


def updated_version(webhook: Webhook) -> int:
    """Return the subscription's own version (it changes with its state, kinds, lead or secret)."""
    return version_of(webhook.updated_at.timestamp())
