"""A SQLite store with an account, a loopback receiver and one subscription to it, for the
webhook tests that need them."""

from __future__ import annotations

import asyncio
import time

from deploy.webhook_receiver import Receiver
from shared.runtime.config import load_settings
from store import SqliteStore
from store.webhook_records import Webhook, new_secret, new_webhook_id
from webhooks.jobs import Job
from webhooks.settings import WorkerSettings

SETTINGS = load_settings({})
WORKER = WorkerSettings(first_retry_s=2.0, max_retry_s=8.0, retry_for_s=60.0, timeout_s=2.0, ack_wait_s=5.0)
EVENT = {
    "id": "fc_0123456789abcdef01234567",
    "kind": "lunation",
    "phase": "full_moon",
    "instant": {"jd": 0.0, "datetime": "x"},
}
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def with_store(tmp_path, scenario):
    async def body():
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            with Receiver() as receiver:
                account = await store.create_account("acme", 10)
                webhook = Webhook(new_webhook_id(), account.id, receiver.url, ("lunation",), None, 0, new_secret())
                await store.create_webhook(webhook, limit=5)
                return await scenario(store, receiver, account, webhook)
        finally:
            await store.close()

    return asyncio.run(body())


def a_job(webhook: Webhook, due_at_s: float | None = None) -> Job:
    return Job(webhook.webhook_id, webhook.account_id, EVENT, time.time() if due_at_s is None else due_at_s)
