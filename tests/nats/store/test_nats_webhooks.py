"""store/nats_webhooks.py: a subscription is kept under ``acct.<account_id>.<webhook_id>`` of
``P_WEBHOOKS``; the delivered marks live in ``P_WEBHOOK_SENT``, whose entries expire after
``DELIVERED_MARK_S``."""

from __future__ import annotations

import asyncio
import json

import nats
from nats.js import api

from store.webhook_records import DELIVERED_MARK_S, Webhook, new_secret, new_webhook_id
from tests.nats.store.nats_store_factory import with_plain_client

#: The marks' lifetime before issue 46: the longest lead (a week) and two days.
FORMER_DELIVERED_MARK_S = 7 * 86400 + 2 * 86400


def test_a_webhook_is_kept_under_its_account_and_its_marks_expire(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 0)
        webhook = Webhook(new_webhook_id(), account.id, "https://e.com/h", ("lunation",), None, 5, new_secret())
        await store.create_webhook(webhook, limit=5)
        kept = await (await js.key_value(f"{prefix}_WEBHOOKS")).get(f"acct.{account.id}.{webhook.webhook_id}")
        assert json.loads(kept.value)["url"] == "https://e.com/h"
        await store.mark_delivered(webhook.webhook_id, "fc_1")
        sent = await js.key_value(f"{prefix}_WEBHOOK_SENT")
        assert (await sent.get(f"{webhook.webhook_id}.fc_1")).value
        assert (await sent.status()).ttl == DELIVERED_MARK_S

    with_plain_client(nats_factory, body)


def test_a_sent_bucket_made_when_marks_lived_shorter_takes_the_present_lifetime_and_keeps_its_marks(nats_factory):
    factory = nats_factory

    async def run():
        nc = await nats.connect(factory.url)
        try:
            js = nc.jetstream()
            former = await js.create_key_value(
                api.KeyValueConfig(
                    bucket=f"{factory.prefix}_WEBHOOK_SENT",
                    history=1,
                    ttl=float(FORMER_DELIVERED_MARK_S),
                    storage=api.StorageType.FILE,
                    direct=True,
                )
            )
            webhook_id = new_webhook_id()
            await former.put(f"{webhook_id}.fc_1", b"1")
            store = await factory.open()
            try:
                assert await store.is_delivered(webhook_id, "fc_1")
            finally:
                await store.close()
            sent = await js.key_value(f"{factory.prefix}_WEBHOOK_SENT")
            assert (await sent.status()).ttl == DELIVERED_MARK_S
        finally:
            await nc.close()

    asyncio.run(run())


def test_a_listing_is_whole_even_when_the_watchers_end_marker_comes_first(nats_factory):
    """nats-py's watch puts its end-of-entries marker first when the consumer's info shows
    nothing pending before the client counted the entries the server already sent (seen: 1
    listing in 100 of 300 subscriptions came back empty in 4 ms); here it always comes first."""

    async def body(store, js, prefix):
        made = {
            (
                await store.create_webhook(
                    Webhook(new_webhook_id(), "acme", "https://e.com/h", ("lunation",), None, 5, new_secret()), limit=50
                )
            ).webhook_id
            for _ in range(20)
        }
        await store.delete_webhook("acme", sorted(made)[0])
        real_watch = store._webhooks.watch

        async def marker_first(*args, **kwargs):
            watcher = await real_watch(*args, **kwargs)
            watcher._updates._queue.appendleft(None)
            watcher._init_done = True
            return watcher

        store._webhooks.watch = marker_first
        listed = {webhook.webhook_id for webhook in await store.all_webhooks()}
        empty = await store.list_webhooks("nobody")
        return made - {sorted(made)[0]}, listed, empty

    made, listed, empty = with_plain_client(nats_factory, body)
    assert (listed, empty) == (made, [])
