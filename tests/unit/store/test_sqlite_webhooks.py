"""store/sqlite_webhooks.py: the per-account limit is exact under concurrent creations, and a
lease has one holder at a time until it lapses (the SQLite deployment's one scheduler)."""

from __future__ import annotations

import asyncio

from store import SqliteStore
from store.webhook_records import Webhook, WebhookLimitReached, new_secret, new_webhook_id


def test_concurrent_creations_never_pass_the_limit(tmp_path):
    async def scenario() -> int:
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            account = await store.create_account("acme", 10)

            async def create():
                try:
                    webhook = Webhook(
                        new_webhook_id(), account.id, "https://e.com/h", ("lunation",), None, 0, new_secret()
                    )
                    await store.create_webhook(webhook, limit=5)
                except WebhookLimitReached:
                    pass

            await asyncio.gather(*(create() for _ in range(20)))
            return len(await store.list_webhooks(account.id))
        finally:
            await store.close()

    assert asyncio.run(scenario()) == 5


def test_a_lease_has_one_holder_until_it_lapses(tmp_path):
    async def scenario() -> list[bool]:
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            return [
                await store.hold_lease("scheduler", "a", 30, now_s=1000),
                await store.hold_lease("scheduler", "b", 30, now_s=1010),  # a holds it
                await store.hold_lease("scheduler", "a", 30, now_s=1020),  # a renews to 1050
                await store.hold_lease("scheduler", "b", 30, now_s=1049),
                await store.hold_lease("scheduler", "b", 30, now_s=1051),  # lapsed: b takes it
                await store.hold_lease("scheduler", "a", 30, now_s=1052),
            ]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == [True, False, True, False, True, False]
