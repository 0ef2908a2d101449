"""The NATS store's webhook subscriptions, in three buckets (``P`` the store's prefix):

- ``P_WEBHOOKS``: ``acct.<account_id>.<webhook_id>`` -> the subscription's document (with its
  signing secret); read only under its own account's key, listed across accounts by the
  delivery workers (``all_webhooks``).
- ``P_WEBHOOK_DELIVERIES``: ``<webhook_id>`` -> the recent deliveries, newest first, written
  under compare-and-set so concurrent workers lose none.
- ``P_WEBHOOK_SENT``: ``<webhook_id>.<event_id>`` -> the instant it was answered 2xx, made
  with ``create`` (so of two workers marking one event, one wins) in a bucket whose entries
  expire after ``DELIVERED_MARK_S``.

The per-account limit is exact across gateways, as for stored charts: a creation takes a
place under the cap (``nats_caps.py``, entry ``webhooks.<account_id>``) under compare-and-set
before it writes the subscription, and a deletion gives the place back after purging it.
"""

from __future__ import annotations

import time

import nats.js.errors
import orjson
from nats.js import api

from store.errors import StoreError
from store.nats_caps import NatsCaps
from store.nats_connection import STREAM_CONFIG_DIFFERS, TOKEN_RE, WrongLastSequence
from store.records import utc_now
from store.webhook_records import (
    CHART_DELETED,
    DELIVERED_MARK_S,
    ENDED,
    KEEP_DELIVERIES,
    Delivery,
    Webhook,
    WebhookLimitReached,
    check_delivery,
    check_webhook,
    delivery_document,
    delivery_of,
    ended,
    is_event_id,
    is_webhook_id,
    replacement,
    webhook_document,
    webhook_of,
)

#: The name of the subscriptions' cap in the ``P_CAPS`` bucket.
WEBHOOKS_CAP = "webhooks"
#: Subscriptions whose account a process remembers at most (then it starts again).
_REMEMBERED = 100_000


class NatsWebhooks(NatsCaps):
    """Webhook subscriptions (the store's :class:`~store.interfaces.Webhooks`)."""

    _webhooks = None
    _deliveries = None
    _sent = None
    #: webhook id -> account id, of the subscriptions this process has read or made: a
    #: subscription's key is then read directly, not found by a watch over every account's
    #: (which costs the server a pass over every subscription: 10 ms at 10,000).
    _accounts_of: dict[str, str] | None = None

    def _remember(self, webhook: Webhook) -> Webhook:
        if self._accounts_of is None or len(self._accounts_of) >= _REMEMBERED:
            self._accounts_of = {}
        self._accounts_of[webhook.webhook_id] = webhook.account_id
        return webhook

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        buckets = []
        for suffix, ttl in (
            ("WEBHOOKS", None),
            ("WEBHOOK_DELIVERIES", None),
            ("WEBHOOK_SENT", float(DELIVERED_MARK_S)),
        ):
            config = api.KeyValueConfig(
                bucket=f"{self.prefix}_{suffix}",
                history=1,
                ttl=ttl,
                storage=api.StorageType.FILE,
                replicas=self._replicas,
                direct=True,
            )
            try:
                await self._call(js.create_key_value(config))
            except StoreError as error:
                cause = error.__cause__
                if not isinstance(cause, nats.js.errors.APIError) or cause.err_code != STREAM_CONFIG_DIFFERS:
                    raise
                # Made by a version whose marks lived another time (retries lasted 24 hours):
                # the bucket takes this version's lifetime, its marks kept.
                await self._call(self._retime(f"KV_{config.bucket}", ttl))
            buckets.append(await self._call(self._js.key_value(config.bucket)))
        self._webhooks, self._deliveries, self._sent = buckets

    async def _retime(self, stream: str, ttl: float | None) -> None:
        """Give a bucket's stream the entries' lifetime ``ttl`` (seconds; None: forever)."""
        jsm = self._nc.jsm(timeout=max(self._timeout_s, 2.0))
        config = (await jsm.stream_info(stream)).config
        config.max_age = ttl
        await jsm.update_stream(config)

    @staticmethod
    def _webhook_key(account_id: str, webhook_id: str) -> str | None:
        """Return the bucket key of a subscription, None when either id cannot name one."""
        if not isinstance(account_id, str) or TOKEN_RE.fullmatch(account_id) is None or not is_webhook_id(webhook_id):
            return None
        return f"acct.{account_id}.{webhook_id}"

    async def _matching(self, subject: str) -> list[Webhook]:
        """Return every subscription whose key matches ``subject``, in id order."""
        found = [webhook_of(orjson.loads(value)) for value in (await self._listing(self._webhooks, subject)).values()]
        return sorted(found, key=lambda webhook: webhook.webhook_id)

    async def create_webhook(self, webhook: Webhook, limit: int) -> Webhook:
        check_webhook(webhook)
        key = self._webhook_key(webhook.account_id, webhook.webhook_id)
        if key is None:
            raise ValueError("a webhook's account id is not a store token")
        async with self._lock("webhooks", webhook.account_id):
            written = await self._with_place(
                WEBHOOKS_CAP,
                webhook.account_id,
                webhook.webhook_id,
                limit,
                lambda: self._webhook_ids(webhook.account_id),
                lambda: self._create(self._webhooks, key, orjson.dumps(webhook_document(webhook))),
            )
        if written is None:
            raise WebhookLimitReached(limit)
        if not written:
            raise ValueError(f"webhook id {webhook.webhook_id} is taken")
        return self._remember(webhook)

    async def _webhook_ids(self, account_id: str) -> set[str]:
        """Return the ids of the account's subscriptions as stored."""
        return {webhook.webhook_id for webhook in await self.list_webhooks(account_id)}

    async def get_webhook(self, account_id: str, webhook_id: str) -> Webhook | None:
        key = self._webhook_key(account_id, webhook_id)
        found = None if key is None else await self._get_json(self._webhooks, key)
        return None if found is None else self._remember(webhook_of(found[1]))

    async def _rewrite(self, account_id: str, webhook_id: str, change) -> Webhook | None:
        """Write ``change(kept)`` over the subscription as kept and return it; None when there
        is none or ``change`` returns None. Written at the revision read, so a write made
        meanwhile (an ending, a deletion) is read again and ``change`` applied to it."""
        key = self._webhook_key(account_id, webhook_id)
        while True:
            found = None if key is None else await self._get(self._webhooks, key)
            written = None if found is None else change(webhook_of(orjson.loads(found[1])))
            if written is None:
                return None
            try:
                await self._call(self._webhooks.update(key, orjson.dumps(webhook_document(written)), last=found[0]))
                return written
            except WrongLastSequence:
                continue

    async def replace_webhook(self, webhook: Webhook) -> Webhook | None:
        check_webhook(webhook)
        return await self._rewrite(webhook.account_id, webhook.webhook_id, lambda kept: replacement(kept, webhook))

    async def end_chart_webhooks(self, account_id: str, chart_id: str) -> int:
        now = utc_now()
        count = 0
        for webhook in await self.list_webhooks(account_id):
            if webhook.chart_id == chart_id and webhook.state != ENDED:
                changed = await self._rewrite(
                    account_id,
                    webhook.webhook_id,
                    lambda kept: None if kept.state == ENDED else ended(kept, CHART_DELETED, now),
                )
                count += changed is not None
        return count

    async def delete_webhook(self, account_id: str, webhook_id: str) -> bool:
        key = self._webhook_key(account_id, webhook_id)
        if key is None or await self._get(self._webhooks, key) is None:
            return False
        try:
            await self._call(self._webhooks.purge(key))
        except nats.js.errors.NotFoundError:
            return False
        await self._give_place(WEBHOOKS_CAP, account_id, webhook_id)
        try:
            await self._call(self._deliveries.purge(webhook_id))
        except nats.js.errors.NotFoundError:
            pass
        return True

    async def list_webhooks(self, account_id: str) -> list[Webhook]:
        if not isinstance(account_id, str) or TOKEN_RE.fullmatch(account_id) is None:
            return []
        return await self._matching(f"acct.{account_id}.*")

    async def all_webhooks(self) -> list[Webhook]:
        return await self._matching("acct.*.*")

    async def _exists(self, webhook_id: str) -> bool:
        account_id = (self._accounts_of or {}).get(webhook_id)
        if account_id is not None:
            return await self._get(self._webhooks, self._webhook_key(account_id, webhook_id)) is not None
        return bool(await self._matching(f"acct.*.{webhook_id}"))

    async def record_delivery(self, delivery: Delivery, keep: int = KEEP_DELIVERIES) -> None:
        check_delivery(delivery)
        if not await self._exists(delivery.webhook_id):
            return
        while True:
            found = await self._get(self._deliveries, delivery.webhook_id)
            recent = [] if found is None else orjson.loads(found[1])
            value = orjson.dumps([delivery_document(delivery), *recent][:keep])
            try:
                if found is None:
                    if await self._create(self._deliveries, delivery.webhook_id, value):
                        return
                else:
                    await self._call(self._deliveries.update(delivery.webhook_id, value, last=found[0]))
                    return
            except WrongLastSequence:
                continue  # another worker recorded one meanwhile: add this one to theirs

    async def recent_deliveries(self, webhook_id: str, limit: int) -> list[Delivery]:
        if not is_webhook_id(webhook_id):
            return []
        found = await self._get(self._deliveries, webhook_id)
        return [] if found is None else [delivery_of(document) for document in orjson.loads(found[1])[:limit]]

    @staticmethod
    def _sent_key(webhook_id: str, event_id: str) -> str | None:
        return f"{webhook_id}.{event_id}" if is_webhook_id(webhook_id) and is_event_id(event_id) else None

    async def mark_delivered(self, webhook_id: str, event_id: str) -> bool:
        key = self._sent_key(webhook_id, event_id)
        if key is None:
            raise ValueError("a delivered event names a webhook and an event")
        return await self._create(self._sent, key, orjson.dumps({"marked_at_s": time.time()}))

    async def is_delivered(self, webhook_id: str, event_id: str) -> bool:
        key = self._sent_key(webhook_id, event_id)
        return key is not None and await self._get(self._sent, key) is not None
