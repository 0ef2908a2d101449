"""webhooks/scheduler.py: the scheduler queues each due event once, none from before the subscription."""

from __future__ import annotations

from datetime import UTC, datetime

from store.chart_records import StoredChart, new_chart_id
from store.webhook_records import Webhook, new_secret, new_webhook_id
from tests.unit.webhooks.scenarios import BIRTH, with_store
from webhooks.jobs import Job
from webhooks.scheduler import Scheduler
from webhooks.settings import WorkerSettings


def test_the_scheduler_queues_each_due_event_once_and_none_from_before_the_subscription(tmp_path):
    async def scenario(store, receiver, account, webhook):
        chart = await store.create_chart(StoredChart(new_chart_id(), account.id, "Ada", dict(BIRTH), {}, dict(BIRTH)), limit=5)
        created = datetime(2026, 11, 26, tzinfo=UTC)
        subscription = Webhook(new_webhook_id(), account.id, receiver.url, ("transit", "void_of_course"), chart.chart_id, 30, new_secret(),
                               created_at=created)
        await store.delete_webhook(account.id, webhook.webhook_id)
        await store.create_webhook(subscription, limit=5)
        queued: list[Job] = []

        async def enqueue(job: Job) -> None:
            queued.append(job)

        scheduler = Scheduler(store, WorkerSettings(), enqueue)
        now = created.timestamp() + 86400
        await scheduler.tick(now - 1)
        first = list(queued)
        await scheduler.tick(now)
        return created.timestamp(), now, first, queued

    created_s, now, first, queued = with_store(tmp_path, scenario)
    assert first and len({j.event_id for j in queued}) == len(queued)
    assert all(created_s <= j.due_at_s <= now for j in queued)
