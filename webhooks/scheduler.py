"""Finding the deliveries that fall due on one machine (the SQLite deployment's one scheduler,
holder of the store's lease): each active subscription's events of the UTC days holding the
instants due now or in the look-back, each day computed once (``events_of``) and kept in
memory, each event queued once. A tick longer than the lease renews it as it goes
(``renew``), so a long first tick keeps the lease it began with.

A cluster on NATS shares the days instead: ``webhooks/planner.py`` and ``webhooks/release.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import structlog

from store.webhook_records import ACTIVE, Webhook
from webhooks.events import EventsOf
from webhooks.forecast_requests import days_between, instant_s
from webhooks.jobs import Job
from webhooks.settings import WorkerSettings
from webhooks.timing import due_s, wanted

log = structlog.get_logger("webhook_worker")

#: Subscriptions a tick looks at between two yields to the event loop.
_YIELD_EVERY = 50


class LeaseLost(Exception):
    """The scheduler's lease went to another worker during a tick: the tick stops there."""


class Scheduler:
    """Finds each active subscription's due events (a day's asked of ``events_of`` once) and
    hands each to ``enqueue`` once."""

    def __init__(self, store, worker: WorkerSettings, enqueue, events_of: EventsOf):
        self._store = store
        self._worker = worker
        self._enqueue = enqueue
        self._events_of = events_of
        #: (subscription key, UTC day) -> that day's events: a day's events never change.
        self._days: dict[tuple[Any, datetime], list[dict[str, Any]]] = {}
        #: (webhook id, event id) -> due instant, of every delivery queued by this scheduler.
        self._queued: dict[tuple[str, str], float] = {}

    @staticmethod
    def _key(webhook: Webhook, chart_updated_at: datetime | None) -> tuple:
        return (webhook.account_id, webhook.chart_id, chart_updated_at, webhook.events)

    async def _events(self, webhook: Webhook, first_s: float, last_s: float) -> list[dict[str, Any]]:
        chart = None
        if webhook.chart_id is not None:
            chart = await self._store.get_chart(webhook.account_id, webhook.chart_id)
            if chart is None:
                return []  # the chart was deleted: nothing of it is delivered any more
        key = self._key(webhook, chart.updated_at if chart else None)
        events = []
        for day in days_between(first_s, last_s):
            if (key, day) not in self._days:
                self._days[(key, day)] = await self._events_of(webhook, chart, day)
            events += self._days[(key, day)]
        return events

    async def tick(
        self, now_s: float | None = None, renew: Callable[[], Awaitable[bool]] | None = None, renew_every_s: float = 1.0
    ) -> int:
        """Queue every delivery due by ``now_s`` (default now) not queued before; return how
        many. ``renew()`` (when given) is awaited whenever ``renew_every_s`` seconds have
        passed since the last renewal; its False (the lease lost) raises LeaseLost."""
        now = time.time() if now_s is None else now_s
        queued = 0
        renewed = time.monotonic()
        for count, webhook in enumerate(await self._store.all_webhooks()):
            if count % _YIELD_EVERY == _YIELD_EVERY - 1:
                await asyncio.sleep(0)
            if renew is not None and time.monotonic() - renewed >= renew_every_s:
                if not await renew():
                    raise LeaseLost()
                renewed = time.monotonic()
            if webhook.state != ACTIVE:
                continue
            lead_s = 60.0 * webhook.lead_minutes
            first_due = max(webhook.created_at.timestamp(), now - self._worker.retry_for_s)
            try:
                events = await self._events(webhook, first_due + lead_s, now + lead_s)
            except Exception as error:  # one subscription's failure must not stop the others'
                log.warning("webhook_events_failed", webhook_id=webhook.webhook_id, error=repr(error))
                continue
            for event in events:
                due = due_s(instant_s(event), webhook.lead_minutes)
                key = (webhook.webhook_id, event["id"])
                if key in self._queued or not wanted(
                    due, webhook.created_at.timestamp(), now, 0.0, self._worker.retry_for_s
                ):
                    continue
                if not await self._store.is_delivered(*key):
                    await self._enqueue(Job(webhook.webhook_id, webhook.account_id, event, due))
                    queued += 1
                self._queued[key] = due
        self._forget(now)
        return queued

    def _forget(self, now: float) -> None:
        """Drop what no tick can need again: deliveries given up, days before the look-back."""
        horizon = now - self._worker.retry_for_s - 86400
        self._queued = {key: due for key, due in self._queued.items() if due >= horizon}
        self._days = {key: events for key, events in self._days.items() if key[1].timestamp() >= horizon - 86400}
