"""webhooks/planner.py: a day is planned once an instant of it can fall due within the
look-ahead, never one before the subscription or past the retries; a job's id changes with
the subscription's and the chart's versions; a planner publishes each job once; a job of a
subscription paused or changed, or of a chart updated, is dropped when taken; a computed
job keeps each event still wanted until it falls due."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from store.chart_records import StoredChart
from store.webhook_records import (
    BY_OWNER,
    PAUSED,
    Webhook,
    new_secret,
    new_webhook_id,
    webhook_document,
)
from tests.unit.webhooks.counting_events import CountingEvents, synthetic_event
from webhooks.catalogue import SKY_VERSION, Catalogue, updated_version, version_of
from webhooks.planner import DayJob, Planner, compute_day, days_to_plan
from webhooks.settings import WorkerSettings

CREATED = datetime(2026, 12, 1, 12, tzinfo=UTC)
WORKER = WorkerSettings(plan_ahead_s=3 * 3600.0, retry_for_s=86400.0)


def a_webhook(lead_minutes: int = 0, chart_id: str | None = None, created: datetime = CREATED) -> Webhook:
    return Webhook(
        new_webhook_id(),
        "acme",
        "https://receiver.example/hook",
        ("transit",),
        chart_id,
        lead_minutes,
        new_secret(),
        created_at=created,
        updated_at=created,
    )


def at(day: int, hour: float) -> float:
    return (datetime(2026, 12, day, tzinfo=UTC) + timedelta(hours=hour)).timestamp()


def test_the_next_day_is_planned_once_its_first_instant_can_fall_due_within_the_look_ahead():
    webhook = a_webhook(created=datetime(2026, 11, 1, tzinfo=UTC))
    before, next_s = days_to_plan(webhook, at(3, 20.9), 3 * 3600.0, 86400.0)
    after, _ = days_to_plan(webhook, at(3, 21.0), 3 * 3600.0, 86400.0)
    assert datetime(2026, 12, 4, tzinfo=UTC) not in before and datetime(2026, 12, 4, tzinfo=UTC) in after
    assert next_s == at(3, 21.0)


def test_a_lead_plans_a_day_that_much_earlier():
    webhook = a_webhook(lead_minutes=120, created=datetime(2026, 11, 1, tzinfo=UTC))
    days, _ = days_to_plan(webhook, at(3, 19.0), 3 * 3600.0, 86400.0)
    assert datetime(2026, 12, 4, tzinfo=UTC) in days


def test_no_day_before_the_subscription_is_planned():
    days, _ = days_to_plan(a_webhook(), at(1, 13.0), 3 * 3600.0, 86400.0)
    assert days == [datetime(2026, 12, 1, tzinfo=UTC)]


def test_no_day_past_the_retries_reach_is_planned():
    days, _ = days_to_plan(a_webhook(created=datetime(2026, 11, 1, tzinfo=UTC)), at(10, 12.0), 3 * 3600.0, 86400.0)
    assert days == [datetime(2026, 12, 9, tzinfo=UTC), datetime(2026, 12, 10, tzinfo=UTC)]


def test_a_jobs_id_changes_with_the_subscriptions_and_the_charts_versions():
    job = DayJob("wh_1", "acme", at(3, 0), 1, 2)
    assert (
        len(
            {
                job.job_id,
                replace(job, webhook_version=3).job_id,
                replace(job, chart_version=3).job_id,
                replace(job, day_s=at(4, 0)).job_id,
            }
        )
        == 4
    )
    assert DayJob.of(job.as_dict()) == job


class Published:
    def __init__(self):
        self.jobs: list[str] = []
        self.kept: list[tuple[str, float, dict]] = []

    async def plan_day(self, job_id, job):
        self.jobs.append(job_id)
        return True

    async def keep_for_later(self, key, due_at_s, delivery):
        self.kept.append((key, due_at_s, delivery))
        return True


def test_a_planner_publishes_each_job_once_and_again_when_the_subscription_changes():
    webhook = a_webhook()
    store, catalogue = Published(), Catalogue()
    planner = Planner(store, catalogue, WORKER)
    catalogue.on_change = planner.changed
    catalogue.webhook_seen(f"acct.acme.{webhook.webhook_id}", webhook_document(webhook))

    async def ticks():
        await planner.plan(at(1, 13.0))
        await planner.plan(at(1, 13.5))
        catalogue.webhook_seen(
            f"acct.acme.{webhook.webhook_id}",
            webhook_document(replace(webhook, updated_at=CREATED + timedelta(hours=1))),
        )
        await planner.plan(at(1, 14.0))

    asyncio.run(ticks())
    assert len(store.jobs) == 2 and len(set(store.jobs)) == 2


def test_a_paused_subscription_is_not_planned():
    webhook = replace(a_webhook(), state=PAUSED, paused_reason=BY_OWNER)
    store, catalogue = Published(), Catalogue()
    planner = Planner(store, catalogue, WORKER)
    catalogue.on_change = planner.changed
    catalogue.webhook_seen(f"acct.acme.{webhook.webhook_id}", webhook_document(webhook))
    asyncio.run(planner.plan(at(1, 13.0)))
    assert store.jobs == []


def test_a_chart_subscription_is_planned_once_its_chart_is_known():
    webhook = a_webhook(chart_id="ch_1")
    store, catalogue = Published(), Catalogue()
    planner = Planner(store, catalogue, WORKER)
    catalogue.on_change = planner.changed
    catalogue.webhook_seen(f"acct.acme.{webhook.webhook_id}", webhook_document(webhook))
    asyncio.run(planner.plan(at(1, 13.0)))
    catalogue.chart_seen("acct.acme.ch_1", {"updated_at_s": 5.0})
    asyncio.run(planner.plan(at(1, 13.1)))
    assert [job_id.rsplit(".", 1)[-1] for job_id in store.jobs] == [str(version_of(5.0))]


class Kept(Published):
    def __init__(self, webhook: Webhook, chart: StoredChart | None = None):
        super().__init__()
        self.webhook, self.chart = webhook, chart

    async def get_webhook(self, account_id, webhook_id):
        return self.webhook

    async def get_chart(self, account_id, chart_id):
        return self.chart


def a_job(webhook: Webhook, chart_version: int = SKY_VERSION) -> dict:
    return DayJob(webhook.webhook_id, webhook.account_id, at(1, 0), updated_version(webhook), chart_version).as_dict()


def test_a_computed_job_keeps_each_event_from_the_subscriptions_creation_on():
    webhook = a_webhook()

    async def events_of(subscription, chart, day):
        return [synthetic_event(subscription.webhook_id, n, at(1, hour)) for n, hour in enumerate((11.0, 13.0, 15.0))]

    store = Kept(webhook)
    kept = asyncio.run(compute_day(store, events_of, a_job(webhook), at(1, 12.5), 86400.0))
    assert kept == 2 and [due for _key, due, _delivery in store.kept] == [at(1, 13.0), at(1, 15.0)]


def test_a_job_of_a_subscription_paused_since_it_was_planned_is_dropped():
    webhook = a_webhook()
    events = CountingEvents()
    paused = replace(webhook, state=PAUSED, paused_reason=BY_OWNER)
    assert asyncio.run(compute_day(Kept(paused), events, a_job(webhook), at(1, 13.0), 86400.0)) is None
    assert not events.calls


def test_a_job_of_a_chart_updated_since_it_was_planned_is_dropped_and_the_new_versions_computed():
    webhook = a_webhook(chart_id="ch_1")
    chart = StoredChart("ch_1", "acme", "Ada", {}, {}, {}, CREATED, CREATED + timedelta(hours=2))
    events = CountingEvents()
    store = Kept(webhook, chart)
    old = asyncio.run(compute_day(store, events, a_job(webhook, version_of(CREATED.timestamp())), at(1, 13.0), 86400.0))
    new = asyncio.run(
        compute_day(store, events, a_job(webhook, version_of(chart.updated_at.timestamp())), at(1, 13.0), 86400.0)
    )
    assert old is None and new is not None and events.charts == [chart]
