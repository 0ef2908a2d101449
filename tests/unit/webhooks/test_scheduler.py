"""webhooks/scheduler.py: the scheduler queues each due event once, none from before the
subscription; a day's events are asked of the events source (injected here: the search pool's
is tests/unit/webhooks/test_events.py) once, and asked again at the next tick when it failed;
a tick renews the lease as it goes and stops when it is lost."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from store.chart_records import StoredChart, new_chart_id
from store.webhook_records import Webhook, new_secret, new_webhook_id
from tests.unit.webhooks.counting_events import CountingEvents
from tests.unit.webhooks.scenarios import BIRTH, with_store
from webhooks.events import EventsUnavailable
from webhooks.jobs import Job
from webhooks.scheduler import LeaseLost, Scheduler
from webhooks.settings import WorkerSettings

CREATED = datetime(2026, 11, 26, tzinfo=UTC)
#: The hours (UTC) of each day's events in the injected source.
EVENT_HOURS = (6, 18)


class DayEvents:
    """An events source of two events a day (06:00 and 18:00 UTC), recording what it was asked;
    the subscriptions in ``failing`` fail their first call."""

    def __init__(self, failing: tuple[str, ...] = ()):
        self.asked: list[tuple[str, str | None, datetime]] = []
        self._failing = set(failing)

    async def __call__(self, webhook: Webhook, chart: StoredChart | None, day: datetime) -> list[dict]:
        self.asked.append((webhook.webhook_id, chart.chart_id if chart else None, day))
        if webhook.webhook_id in self._failing:
            self._failing.discard(webhook.webhook_id)
            raise EventsUnavailable("the search pool is unavailable")
        return [
            {
                "id": f"fc_{webhook.webhook_id}_{day:%Y%m%d}{hour:02d}",
                "kind": "lunation",
                "instant": {"jd": 0.0, "datetime": f"{day + timedelta(hours=hour):%Y-%m-%dT%H:%M:%S}.000Z"},
            }
            for hour in EVENT_HOURS
        ]


async def subscribe(store, account, url: str, chart_id: str | None = None) -> Webhook:
    webhook = Webhook(new_webhook_id(), account.id, url, ("lunation",), chart_id, 30, new_secret(), created_at=CREATED)
    await store.create_webhook(webhook, limit=5)
    return webhook


def test_the_scheduler_queues_each_due_event_once_and_none_from_before_the_subscription(tmp_path):
    async def scenario(store, receiver, account, webhook):
        await store.delete_webhook(account.id, webhook.webhook_id)
        await subscribe(store, account, receiver.url)
        queued: list[Job] = []

        async def enqueue(job: Job) -> None:
            queued.append(job)

        scheduler = Scheduler(store, WorkerSettings(), enqueue, DayEvents())
        now = CREATED.timestamp() + 86400
        await scheduler.tick(now - 1)
        first = list(queued)
        await scheduler.tick(now)
        return now, first, queued

    now, first, queued = with_store(tmp_path, scenario)
    assert first and len({j.event_id for j in queued}) == len(queued)
    assert all(CREATED.timestamp() <= j.due_at_s <= now for j in queued)


def test_a_days_events_are_asked_once_with_the_subscriptions_stored_chart_or_none_for_the_sky(tmp_path):
    async def scenario(store, receiver, account, webhook):
        await store.delete_webhook(account.id, webhook.webhook_id)
        chart = await store.create_chart(
            StoredChart(new_chart_id(), account.id, "Ada", dict(BIRTH), {}, dict(BIRTH)), limit=5
        )
        charted = await subscribe(store, account, receiver.url, chart.chart_id)
        sky = await subscribe(store, account, receiver.url)
        source = DayEvents()

        async def enqueue(job: Job) -> None:
            pass

        scheduler = Scheduler(store, WorkerSettings(), enqueue, source)
        now = CREATED.timestamp() + 3600
        await scheduler.tick(now)
        await scheduler.tick(now + 60)
        return source.asked, (charted.webhook_id, chart.chart_id), sky.webhook_id

    asked, (charted_id, chart_id), sky_id = with_store(tmp_path, scenario)
    assert sorted(asked, key=str) == sorted([(charted_id, chart_id, CREATED), (sky_id, None, CREATED)], key=str)


def test_a_failed_source_is_asked_again_at_the_next_tick_and_the_other_subscriptions_go_on(tmp_path):
    async def scenario(store, receiver, account, webhook):
        await store.delete_webhook(account.id, webhook.webhook_id)
        failing = await subscribe(store, account, receiver.url)
        healthy = await subscribe(store, account, receiver.url)
        queued: list[Job] = []

        async def enqueue(job: Job) -> None:
            queued.append(job)

        scheduler = Scheduler(store, WorkerSettings(), enqueue, DayEvents(failing=(failing.webhook_id,)))
        now = CREATED.timestamp() + 86400
        await scheduler.tick(now)
        after_failure = {job.webhook_id for job in queued}
        await scheduler.tick(now + 5)
        return failing.webhook_id, healthy.webhook_id, after_failure, {job.webhook_id for job in queued}

    failing_id, healthy_id, after_failure, after_retry = with_store(tmp_path, scenario)
    assert after_failure == {healthy_id}
    assert after_retry == {failing_id, healthy_id}


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
            await store.create_webhook(
                Webhook(new_webhook_id(), account.id, receiver.url, (kind,), None, 0, new_secret()), limit=5
            )
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
        await store.create_webhook(
            Webhook(new_webhook_id(), account.id, receiver.url, ("eclipse",), None, 0, new_secret()), limit=5
        )
        events = CountingEvents(answer_s=0.2)

        async def lost() -> bool:
            return False

        with pytest.raises(LeaseLost):
            await Scheduler(store, WorkerSettings(retry_for_s=600.0), noop, events).tick(renew=lost, renew_every_s=0.1)
        return events.calls

    assert len(with_store(tmp_path, scenario)) == 1


async def noop(job: Job) -> None:
    pass
