"""The day jobs of a cluster of workers (issue 46, part 3): which (subscription, UTC day)
each worker's :class:`Planner` publishes, and computing one (:func:`compute_day`), which any
worker does for the job it takes, once in the whole cluster.

A subscription's day is planned once an instant of it can fall due within the look-ahead
(``plan_ahead_s``): from the day's 00:00 less the lead less the look-ahead, to its end less
the lead plus the 24 hours of retries. A job names the day and the versions (microseconds of
``updated_at``) of the subscription and of its chart: a subscription changed (paused and
resumed, its kinds, lead or secret) or a chart updated makes a job of another id, computed
anew; the job of an older version, taken, is dropped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from store.webhook_records import ACTIVE, Webhook
from webhooks.catalogue import Catalogue, updated_version, version_of
from webhooks.events import EventsOf
from webhooks.forecast_requests import days_between, instant_s
from webhooks.jobs import Job
from webhooks.settings import WorkerSettings
from webhooks.timing import due_s, still_retried

#: Subscriptions the planner looks at between two yields to the event loop.
_YIELD_EVERY = 100


@dataclass(frozen=True)
class DayJob:
    """One (subscription, UTC day, versions) to compute: the day as Unix seconds of its 00:00."""

    webhook_id: str
    account_id: str
    day_s: float
    webhook_version: int
    chart_version: int

    @property
    def day(self) -> datetime:
        return datetime.fromtimestamp(self.day_s, UTC)

    @property
    def job_id(self) -> str:
        """Return the job's id (its message id): one per subscription, day and versions."""
        return f"{self.webhook_id}.{self.day:%Y%m%d}.{self.webhook_version}.{self.chart_version}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "webhook_id": self.webhook_id,
            "account_id": self.account_id,
            "day_s": self.day_s,
            "webhook_version": self.webhook_version,
            "chart_version": self.chart_version,
        }

    @classmethod
    def of(cls, document: dict[str, Any]) -> DayJob:
        return cls(
            document["webhook_id"],
            document["account_id"],
            document["day_s"],
            document["webhook_version"],
            document["chart_version"],
        )


def days_to_plan(webhook: Webhook, now_s: float, ahead_s: float, retry_for_s: float) -> tuple[list[datetime], float]:
    """Return the UTC days (their 00:00) holding an instant of ``webhook`` that falls due
    between its creation (or the retries' reach, ``now_s - retry_for_s``) and ``now_s +
    ahead_s``, and when (Unix seconds) the next day enters that span."""
    lead_s = 60.0 * webhook.lead_minutes
    first_due = max(webhook.created_at.timestamp(), now_s - retry_for_s)
    days = days_between(first_due + lead_s, now_s + ahead_s + lead_s)
    return days, (days[-1] + timedelta(days=1)).timestamp() - lead_s - ahead_s


class Planner:
    """Publishes each day job of the subscriptions in ``catalogue`` once from this worker
    (the queue drops the other workers' copies). Call :meth:`changed` for a subscription whose
    days may have changed, :meth:`plan` every tick."""

    def __init__(self, store, catalogue: Catalogue, worker: WorkerSettings):
        self._store = store
        self._catalogue = catalogue
        self._worker = worker
        #: subscription id -> when its days are next looked at (Unix seconds; 0: at the next tick).
        self._next: dict[str, float] = {}
        #: job id -> its day (Unix seconds), of every job this worker published.
        self._planned: dict[str, float] = {}

    def changed(self, webhook_id: str) -> None:
        self._next[webhook_id] = 0.0

    async def plan(self, now_s: float) -> int:
        """Publish the day jobs that have come within reach at ``now_s``; return how many."""
        published = 0
        for count, (webhook_id, at_s) in enumerate(list(self._next.items())):
            if count % _YIELD_EVERY == _YIELD_EVERY - 1:
                await asyncio.sleep(0)
            if at_s > now_s:
                continue
            webhook = self._catalogue.webhooks.get(webhook_id)
            chart_version = None if webhook is None else self._catalogue.chart_version(webhook)
            if webhook is None or webhook.state != ACTIVE or chart_version is None:
                del self._next[webhook_id]  # looked at again when it (or its chart) changes
                continue
            days, next_s = days_to_plan(webhook, now_s, self._worker.plan_ahead_s, self._worker.retry_for_s)
            for day in days:
                job = DayJob(
                    webhook.webhook_id, webhook.account_id, day.timestamp(), updated_version(webhook), chart_version
                )
                if job.job_id not in self._planned:
                    await self._store.plan_day(job.job_id, job.as_dict())
                    self._planned[job.job_id] = job.day_s
                    published += 1
            self._next[webhook_id] = next_s
        horizon = now_s - self._worker.retry_for_s - 2 * 86400
        self._planned = {job_id: day_s for job_id, day_s in self._planned.items() if day_s >= horizon}
        return published


async def compute_day(
    store, events_of: EventsOf, document: dict[str, Any], now_s: float, retry_for_s: float
) -> int | None:
    """Compute a day job's events and keep each still wanted until it falls due
    (``store.keep_for_later``); return how many were kept, None when the job was dropped (its
    subscription gone, not active, or changed since; its chart gone or changed since)."""
    job = DayJob.of(document)
    webhook = await store.get_webhook(job.account_id, job.webhook_id)
    if webhook is None or webhook.state != ACTIVE or updated_version(webhook) != job.webhook_version:
        return None
    chart = None
    if webhook.chart_id is not None:
        chart = await store.get_chart(webhook.account_id, webhook.chart_id)
        if chart is None or version_of(chart.updated_at.timestamp()) != job.chart_version:
            return None
    kept = 0
    for event in await events_of(webhook, chart, job.day):
        due = due_s(instant_s(event), webhook.lead_minutes)
        if due < webhook.created_at.timestamp() or not still_retried(due, now_s, retry_for_s):
            continue
        delivery = {
            **Job(webhook.webhook_id, webhook.account_id, event, due).as_dict(),
            "webhook_version": job.webhook_version,
            "chart_version": job.chart_version,
        }
        await store.keep_for_later(f"{job.job_id}.{event['id']}", due, delivery)
        kept += 1
    return kept
