"""webhooks/worker.py on NATS: workers sharing one server compute each (subscription, day) once
between them and release each event once, whatever their number, and a day job whose worker
died goes to another. The worker's SQLite half is tested in tests/unit/webhooks/test_worker.py."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from store.webhook_records import BY_OWNER, PAUSED
from tests.nats.store.nats_store_factory import NatsFactory
from tests.unit.webhooks.counting_events import CountingEvents
from tests.unit.webhooks.test_worker import WORKER, a_subscription
from webhooks.catalogue import SKY_VERSION, updated_version
from webhooks.forecast_requests import day_of
from webhooks.jobs import Job
from webhooks.planner import DayJob
from webhooks.worker import schedule_nats


async def drain(store, expected: int, within_s: float) -> list[tuple[Job, float]]:
    """Return the deliveries taken from the queue, each with when it was taken (Unix seconds),
    until ``expected`` came and a second more passed."""
    taken: list[tuple[Job, float]] = []
    deadline = time.monotonic() + within_s
    quiet_until = None
    while time.monotonic() < deadline and (quiet_until is None or time.monotonic() < quiet_until):
        delivery = await store.take_delivery(0.2, ack_wait_s=30.0)
        if delivery is not None:
            taken.append((Job.of(delivery.job), time.time()))
            await delivery.done()
        if len(taken) >= expected and quiet_until is None:
            quiet_until = time.monotonic() + 1.0
    return taken


def on_a_cluster(factory: NatsFactory, workers: int, subscriptions: int, events: CountingEvents, before=None):
    """Run ``workers`` schedulers (each its own connection) on one NATS server over
    ``subscriptions`` sky subscriptions; return the subscriptions and the deliveries queued."""

    async def body():
        stores = [await factory.open() for _ in range(workers + 1)]
        reader, members = stores[0], stores[1:]
        try:
            made = [await reader.create_webhook(a_subscription(n), limit=1000) for n in range(subscriptions)]
            if before is not None:
                await before(reader, made)
            stop = asyncio.Event()
            running = [asyncio.create_task(schedule_nats(store, WORKER, stop, events)) for store in members]
            taken = await drain(reader, subscriptions * events.per_day, within_s=20.0)
            stop.set()
            await asyncio.gather(*running)
            return made, taken
        finally:
            for store in stores:
                await store.close()

    return asyncio.run(body())


@pytest.mark.parametrize("workers", [2, 4])
def test_workers_on_one_nats_server_compute_each_subscription_day_once(nats_factory, workers):
    events = CountingEvents(answer_s=0.05)
    made, _taken = on_a_cluster(nats_factory, workers, 12, events)
    asked = {(webhook.webhook_id, day_of(instant)) for webhook in made for instant in events.instants()}
    assert set(events.calls) >= asked
    assert set(events.calls.values()) == {1}


@pytest.mark.parametrize("workers", [2, 4])
def test_workers_on_one_nats_server_queue_each_due_event_once(nats_factory, workers):
    events = CountingEvents()
    made, taken = on_a_cluster(nats_factory, workers, 12, events)
    wanted = sorted(
        (webhook.webhook_id, event["id"]) for webhook in made for event in events.events(webhook.webhook_id)
    )
    assert sorted((job.webhook_id, job.event_id) for job, _at in taken) == wanted


def test_no_event_is_queued_before_it_falls_due(nats_factory):
    events = CountingEvents()
    _made, taken = on_a_cluster(nats_factory, 2, 3, events)
    assert taken and all(taken_at >= job.due_at_s for job, taken_at in taken)


def test_a_day_job_whose_worker_died_before_acknowledging_it_is_computed_by_another(nats_factory):
    events = CountingEvents(first_in_s=4.0)
    died: list[DayJob] = []

    async def a_worker_takes_a_job_and_dies(store, made):
        webhook = made[0]
        job = DayJob(
            webhook.webhook_id,
            webhook.account_id,
            day_of(events.instants()[0]).timestamp(),
            updated_version(webhook),
            SKY_VERSION,
        )
        await store.plan_day(job.job_id, job.as_dict())
        taken = await store.take_day(2.0, ack_wait_s=WORKER.ack_wait_s)
        died.append(DayJob.of(taken.job))  # and never acknowledged

    made, taken = on_a_cluster(nats_factory, 1, 1, events, before=a_worker_takes_a_job_and_dies)
    assert died and events.calls[(made[0].webhook_id, died[0].day)] == 1
    assert sorted(job.event_id for job, _at in taken) == sorted(
        event["id"] for event in events.events(made[0].webhook_id)
    )


def test_a_paused_subscriptions_days_are_not_computed(nats_factory):
    events = CountingEvents()

    async def pause_the_first(store, made):
        await store.replace_webhook(
            replace(made[0], state=PAUSED, paused_reason=BY_OWNER, updated_at=datetime.now(UTC))
        )

    made, taken = on_a_cluster(nats_factory, 2, 3, events, before=pause_the_first)
    assert not any(webhook_id == made[0].webhook_id for webhook_id, _day in events.calls)
    assert {job.webhook_id for job, _at in taken} == {webhook.webhook_id for webhook in made[1:]}
