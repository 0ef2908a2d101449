"""webhooks/scheduler.py: the scheduler queues each due event once, none from before the
subscription; it computes a day once; a tick renews the lease as it goes and stops when it is lost."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from store.chart_records import StoredChart, new_chart_id
from store.webhook_records import Webhook, new_secret, new_webhook_id
from tests.unit.webhooks.scenarios import BIRTH, with_store
from webhooks.jobs import Job
from webhooks.scheduler import LeaseLost, Scheduler
from tests.unit.webhooks.counting_events import CountingEvents
from webhooks.settings import WorkerSettings
from webhooks.worker import forecast_events_of


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

        scheduler = Scheduler(store, WorkerSettings(), enqueue, forecast_events_of(store))
        now = created.timestamp() + 86400
        await scheduler.tick(now - 1)
        first = list(queued)
        await scheduler.tick(now)
        return created.timestamp(), now, first, queued

    created_s, now, first, queued = with_store(tmp_path, scenario)
    assert first and len({j.event_id for j in queued}) == len(queued)
    assert all(created_s <= j.due_at_s <= now for j in queued)


def test_a_tick_computes_each_subscription_day_once_however_many_ticks(tmp_path):
    async def scenario(store, receiver, account, webhook):
        events = CountingEvents(first_in_s=-30.0)
        scheduler = Scheduler(store, WorkerSettings(retry_for_s=600.0), noop, events)
        for _ in range(3):
            await scheduler.tick()
        return events.calls

    assert set(with_store(tmp_path, scenario).values()) == {1}


def test_a_long_tick_renews_the_lease_as_it_goes(tmp_path):
    async def scenario(store, receiver, account, webhook):
        for kind in ("eclipse", "ingress", "station"):
            await store.create_webhook(Webhook(new_webhook_id(), account.id, receiver.url, (kind,), None, 0, new_secret()), limit=5)
        renewals: list[float] = []

        async def renew() -> bool:
            renewals.append(time.monotonic())
            return True

        scheduler = Scheduler(store, WorkerSettings(retry_for_s=600.0), noop, CountingEvents(answer_s=0.2))
        await scheduler.tick(renew=renew, renew_every_s=0.1)
        return renewals

    assert len(with_store(tmp_path, scenario)) >= 3


def test_a_tick_whose_lease_went_to_another_stops(tmp_path):
    async def scenario(store, receiver, account, webhook):
        await store.create_webhook(Webhook(new_webhook_id(), account.id, receiver.url, ("eclipse",), None, 0, new_secret()), limit=5)
        events = CountingEvents(answer_s=0.2)

        async def lost() -> bool:
            return False

        with pytest.raises(LeaseLost):
            await Scheduler(store, WorkerSettings(retry_for_s=600.0), noop, events).tick(renew=lost, renew_every_s=0.1)
        return events.calls

    assert len(with_store(tmp_path, scenario)) == 1


async def noop(job: Job) -> None:
    pass
