"""The webhook worker (issue 40, part 3): a process kind of its own, which finds the events
subscriptions want, queues each once it falls due, and delivers it, signed, until a 2xx.

``python -m webhooks.worker``; ``make run``'s supervisor runs
``CELESTIAL_WEBHOOK_WORKERS`` of them (default 1), Kubernetes the ``webhook-worker``
Deployment. Every worker of a deployment shares the store:

- On NATS (``CELESTIAL_NATS_URL``), every worker schedules and every worker delivers. Due
  deliveries go through the store's work-queue stream (``store/nats_webhook_queue.py``): one
  message per (subscription, event), de-duplicated by its message id, so workers scheduling
  the same event publish it once; a message is acknowledged only once settled, so a worker
  that dies mid-delivery leaves it to another after the acknowledgement wait, and a restarted
  NATS server keeps it.
- On SQLite, one worker at a time (the holder of the store's ``webhook-scheduler`` lease,
  renewed every tick) schedules and delivers from a queue in its memory; another takes over
  when the lease lapses, and rebuilds the queue from the events due in the last 24 hours not
  yet delivered (attempt numbers start again from 1 then).

Scheduling (:class:`Scheduler`): every ``tick_s`` seconds, for each active subscription, the
events of the UTC days (``webhooks/events.py``) that hold the instants due now or in the
24 hours before (never before the subscription was made) are computed once per day and kept;
each event due (``instant - lead``) and not yet delivered is queued.

Delivering (:func:`deliver`): the subscription must still exist and be active, and the event
not be delivered already. One credit is reserved under the request id
``webhook.<subscription>.<event>`` (so retries reserve it once); an account short of it pauses
the subscription, with an email. The POST is signed; its outcome recorded. A 2xx marks the
event delivered (never sent again) and ends the subscription's run of failures; anything else
is tried again after the backoff (``webhooks/timing.py``) for 24 hours after the event
fell due, then given up with its credit refunded. A subscription failing for 24 hours pauses
itself, with an email to the account's owners.
"""

from __future__ import annotations

import asyncio
import heapq
import os
import secrets
from pathlib import Path
import signal
import time
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import structlog

from webhooks.events import day_events, days_between, instant_s
from shared.runtime.mail import MailNotSent, send_mail
from webhooks.delivery import delivery_body, send
from kernel import civil_time, engine, places
from shared.errors import InsufficientCredits
from shared.runtime.config import Settings, load_settings
from shared.runtime.logging import configure_logging
from shared.runtime.orphan import stop_when_orphaned
from webhooks.timing import FIRST_RETRY_S, MAX_RETRY_S, RETRY_FOR_S, due_s, failing_too_long, retry_delay_s, still_retried, wanted
from store.choice import open_configured_store
from store.errors import StoreError
from store.records import ChargeNote, utc_now
from store.webhook_records import ACTIVE, FAILING, NO_CREDITS, PAUSED, Delivery, Webhook

log = structlog.get_logger("webhook_worker")

#: The SQLite deployment's one scheduler holds this lease.
LEASE = "webhook-scheduler"
#: The ledger row's endpoint of a delivered event.
CHARGED_AS = "/v1/webhooks"
#: Credits one delivered event costs.
CREDITS_PER_EVENT = 1


@dataclass(frozen=True)
class WorkerSettings:
    """The worker's timings, in seconds (CELESTIAL_WEBHOOK_*, docs/configuration.md). The
    tests shorten them: a receiver failing for an hour is, there, a receiver failing for a
    ``retry_for_s`` of seconds; the defaults are the product's."""

    tick_s: float = 5.0
    timeout_s: float = 10.0
    first_retry_s: float = FIRST_RETRY_S
    max_retry_s: float = MAX_RETRY_S
    retry_for_s: float = RETRY_FOR_S
    ack_wait_s: float = 30.0
    concurrency: int = 8
    heartbeat_path: str | None = None

    @classmethod
    def of(cls, settings: Settings) -> "WorkerSettings":
        """Return the worker's settings from the deployment's. Raises ValueError when the
        acknowledgement wait does not exceed the receiver's timeout."""
        worker = cls(
            settings.webhook_tick_s, settings.webhook_timeout_s, settings.webhook_first_retry_s, settings.webhook_max_retry_s,
            settings.webhook_retry_for_s, settings.webhook_ack_wait_s, settings.webhook_concurrency, settings.webhook_heartbeat_path,
        )
        if worker.ack_wait_s <= worker.timeout_s:
            raise ValueError("CELESTIAL_WEBHOOK_ACK_WAIT_S must exceed CELESTIAL_WEBHOOK_TIMEOUT_S")
        return worker


@dataclass(frozen=True)
class Job:
    """One due delivery: the subscription's and account's ids, the event (as delivered) and
    when it fell due (Unix seconds)."""

    webhook_id: str
    account_id: str
    event: dict[str, Any]
    due_at_s: float

    @property
    def event_id(self) -> str:
        return self.event["id"]

    def as_dict(self) -> dict[str, Any]:
        return {"webhook_id": self.webhook_id, "account_id": self.account_id, "event": self.event, "due_at_s": self.due_at_s}

    @classmethod
    def of(cls, document: dict[str, Any]) -> "Job":
        return cls(document["webhook_id"], document["account_id"], document["event"], document["due_at_s"])


# --- delivering ------------------------------------------------------------------------------------


async def notify(store, settings: Settings, account_id: str, subject: str, text: str) -> None:
    """Mail the account's owners (the dashboard's mailer); without CELESTIAL_SMTP_URL, or
    when the mail server refuses, the log keeps it."""
    owners = await store.list_owners(account_id) if hasattr(store, "list_owners") else []
    if settings.smtp_url is None or not owners:
        log.warning("webhook_notice_not_mailed", account_id=account_id, subject=subject)
        return
    for owner in owners:
        try:
            await send_mail(settings.smtp_url, settings.mail_from, owner.email, subject, text)
        except MailNotSent as error:
            log.warning("webhook_notice_not_mailed", account_id=account_id, error=str(error))


async def pause(store, settings: Settings, webhook: Webhook, reason: str) -> None:
    """Pause the subscription for ``reason`` and mail the account's owners why."""
    paused = replace(webhook, state=PAUSED, paused_reason=reason, updated_at=utc_now())
    if await store.replace_webhook(paused) is None:
        return
    log.warning("webhook_paused", webhook_id=webhook.webhook_id, reason=reason)
    why = {
        FAILING: "its deliveries have failed for 24 hours (no 2xx answer, or none within the timeout)",
        NO_CREDITS: "the account has no credits left to pay for its deliveries (1 credit each)",
    }[reason]
    text = (
        f"Your webhook subscription {webhook.webhook_id} to {webhook.url} is paused: {why}.\n\n"
        f"Resume it with PATCH /v1/webhooks/{webhook.webhook_id} {{\"state\": \"active\"}} once it can be delivered again.\n"
    )
    await notify(store, settings, webhook.account_id, "Celestial: a webhook subscription is paused", text)


def charge_id(job: Job) -> str:
    """Return the request id a delivery's credit is reserved under: one per (subscription, event)."""
    return f"webhook.{job.webhook_id}.{job.event_id}"


async def persist(write, worker: WorkerSettings) -> None:
    """Run ``write()`` until the store takes it, trying again every half second while the
    store is unreachable, for at most ``retry_for_s`` (then its error is raised)."""
    deadline = time.monotonic() + worker.retry_for_s
    while True:
        try:
            await write()
            return
        except StoreError as error:
            if time.monotonic() >= deadline:
                raise
            log.warning("webhook_mark_retried", error=type(error).__name__)
            await asyncio.sleep(0.5)


async def deliver(store, settings: Settings, worker: WorkerSettings, job: Job, attempt: int) -> float | None:
    """Make attempt ``attempt`` at ``job``; return None when it is settled (delivered, given up,
    or no longer wanted), else the seconds after which to try again."""
    webhook = await store.get_webhook(job.account_id, job.webhook_id)
    request_id = charge_id(job)
    if await store.is_delivered(job.webhook_id, job.event_id):
        return None
    if webhook is None or webhook.state != ACTIVE:
        # Deleted or paused between attempts: a credit reserved by an earlier one comes back.
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        return None
    try:
        await store.reserve(job.account_id, CREDITS_PER_EVENT, request_id, ChargeNote(CHARGED_AS, "", request_id[:120]))
    except InsufficientCredits:
        await pause(store, settings, webhook, NO_CREDITS)
        return None
    body = delivery_body(job.webhook_id, job.event, webhook.chart_id, attempt)
    outcome = await send(webhook.url, body, webhook.secret, job.event_id, attempt, worker.timeout_s)
    now = time.time()
    log.info("webhook_delivery", webhook_id=job.webhook_id, event_id=job.event_id, attempt=attempt, status=outcome.status,
             response_ms=outcome.response_ms, late_s=round(now - job.due_at_s, 1))
    delivery = Delivery(job.webhook_id, job.event_id, attempt, outcome.status, outcome.response_ms, error=outcome.error)
    if outcome.succeeded:
        # The 2xx is what must not be lost (a lost one means the event is sent again): its
        # mark is written however long the store takes to come back (a NATS restart), first.
        await persist(lambda: store.mark_delivered(job.webhook_id, job.event_id), worker)
        await store.record_delivery(delivery)
        if webhook.failing_since is not None:
            await store.replace_webhook(replace(webhook, failing_since=None))
        return None
    await store.record_delivery(delivery)
    failing_since = webhook.failing_since or utc_now()
    if webhook.failing_since is None:
        await store.replace_webhook(replace(webhook, failing_since=failing_since))
    delay_s = retry_delay_s(attempt, worker.first_retry_s, worker.max_retry_s)
    if failing_too_long(failing_since.timestamp(), now, worker.retry_for_s):
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        await pause(store, settings, webhook, FAILING)
        return None
    if not still_retried(job.due_at_s, now + delay_s, worker.retry_for_s):
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        log.warning("webhook_delivery_given_up", webhook_id=job.webhook_id, event_id=job.event_id, attempts=attempt)
        return None
    return delay_s


# --- scheduling ------------------------------------------------------------------------------------


class Scheduler:
    """Finds each active subscription's due events and hands each to ``enqueue`` once."""

    def __init__(self, store, worker: WorkerSettings, enqueue):
        self._store = store
        self._worker = worker
        self._enqueue = enqueue
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
                self._days[(key, day)] = await day_events(self._store, webhook.account_id, webhook.chart_id, webhook.events, day)
            events += self._days[(key, day)]
        return events

    async def tick(self, now_s: float | None = None) -> int:
        """Queue every delivery due by ``now_s`` (default now) not queued before; return how many."""
        now = time.time() if now_s is None else now_s
        queued = 0
        for webhook in await self._store.all_webhooks():
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
                if key in self._queued or not wanted(due, webhook.created_at.timestamp(), now, 0.0, self._worker.retry_for_s):
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


# --- the queues ------------------------------------------------------------------------------------


class LocalQueue:
    """The SQLite deployment's queue, in the scheduling worker's memory: jobs by the instant
    they may next be tried, with their attempt numbers."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Job, int]] = []
        self._order = 0

    async def put(self, job: Job, at_s: float = 0.0, attempt: int = 1) -> None:
        self._order += 1
        heapq.heappush(self._heap, (at_s, self._order, job, attempt))

    def take(self, now_s: float) -> tuple[Job, int] | None:
        """Return the next job that may be tried at ``now_s`` and its attempt number; None if none."""
        if self._heap and self._heap[0][0] <= now_s:
            _at, _order, job, attempt = heapq.heappop(self._heap)
            return job, attempt
        return None

    def clear(self) -> None:
        self._heap.clear()


async def run_nats(store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event) -> None:
    """Schedule and deliver through the store's work-queue stream until ``stop`` is set."""

    async def publish(job: Job) -> None:
        await store.enqueue_delivery(job.webhook_id, job.event_id, job.as_dict())

    scheduler = Scheduler(store, worker, publish)

    async def scheduling() -> None:
        while not stop.is_set():
            beat(worker)
            try:
                await scheduler.tick()
            except Exception as error:  # the store unreachable (NATS restarting): try next tick
                log.warning("webhook_schedule_failed", error=repr(error))
            await _sleep(stop, worker.tick_s)

    async def delivering() -> None:
        while not stop.is_set():
            try:
                taken = await store.take_delivery(min(worker.tick_s, 1.0), worker.ack_wait_s)
                if taken is None:
                    continue
                again = await deliver(store, settings, worker, Job.of(taken.job), taken.attempt)
                if again is None:
                    await taken.done()
                else:
                    await taken.again_in(again)
            except Exception as error:  # unacknowledged: the queue hands it out again
                log.warning("webhook_deliver_failed", error=repr(error))
                await _sleep(stop, 0.5)

    await asyncio.gather(scheduling(), *(delivering() for _ in range(worker.concurrency)))


async def run_sqlite(store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event) -> None:
    """Hold the scheduler's lease and, while holding it, schedule and deliver from memory."""
    holder = f"{os.getpid()}-{secrets.token_hex(4)}"
    queue = LocalQueue()
    scheduler: Scheduler | None = None
    slots = asyncio.Semaphore(worker.concurrency)
    running: set[asyncio.Task] = set()

    generation = 0  # the lease held without a break since: a retry goes back only to its own

    async def attempt(job: Job, number: int, held_since: int) -> None:
        async with slots:
            try:
                again = await deliver(store, settings, worker, job, number)
            except Exception as error:
                log.warning("webhook_deliver_failed", error=repr(error))
                again = worker.first_retry_s
            if again is not None and held_since == generation:
                await queue.put(job, time.time() + again, number + 1)

    while not stop.is_set():
        beat(worker)
        try:
            holding = await store.hold_lease(LEASE, holder, ttl_s=3 * worker.tick_s)
        except Exception as error:
            log.warning("webhook_lease_failed", error=repr(error))
            holding = False
        if not holding:
            if scheduler is not None:
                log.warning("webhook_scheduler_lost_lease")
                generation += 1  # the next holder finds the undelivered events again
            scheduler = None
            queue.clear()
            await _sleep(stop, worker.tick_s)
            continue
        if scheduler is None:
            scheduler = Scheduler(store, worker, queue.put)
        try:
            await scheduler.tick()
        except Exception as error:
            log.warning("webhook_schedule_failed", error=repr(error))
        deadline = time.time() + worker.tick_s
        while time.time() < deadline and not stop.is_set():
            while (taken := queue.take(time.time())) is not None:
                task = asyncio.create_task(attempt(*taken, generation))
                running.add(task)
                task.add_done_callback(running.discard)
            await _sleep(stop, min(0.2, worker.tick_s))
    if running:
        await asyncio.wait(running, timeout=settings.shutdown_grace_s)


def beat(worker: WorkerSettings) -> None:
    """Touch the heartbeat file, when there is one: the worker's loop is turning."""
    if worker.heartbeat_path:
        Path(worker.heartbeat_path).touch()


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


async def run(settings: Settings, worker: WorkerSettings) -> None:
    """Run the worker until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = await open_configured_store(settings)
    log.info("webhook_worker_started", store="nats" if settings.nats_url else "sqlite", tick_s=worker.tick_s)
    try:
        await (run_nats if settings.nats_url else run_sqlite)(store, settings, worker, stop)
    finally:
        await store.close()
        log.info("webhook_worker_stopped")


def main() -> None:
    """Command-line entry: ``python -m webhooks.worker``."""
    settings = load_settings()
    configure_logging(settings, "webhook-worker")
    stop_when_orphaned(settings.supervisor_pid)
    # The forecast is computed here, as the search service computes it.
    engine.use_ephemeris_files(settings.ephe_path)
    places.use_gazetteer(settings.places_path)
    civil_time.use_zone_files(settings.tz_path)
    civil_time.open_zone_map()
    asyncio.run(run(settings, WorkerSettings.of(settings)))


if __name__ == "__main__":
    main()
