"""The webhook worker (issue 40, part 3): a process kind of its own, which finds the events
subscriptions want, queues each once it falls due, and delivers it, signed, until a 2xx.

``python -m webhooks.worker``; ``make run``'s supervisor runs
``CELESTIAL_WEBHOOK_WORKERS`` of them (default 1), Kubernetes the ``webhook-worker``
Deployment. Every worker of a deployment shares the store:

- On NATS (``CELESTIAL_NATS_URL``), the workers share the scheduling (issue 46, part 3):
  each follows the subscriptions and charts (``webhooks/catalogue.py``), publishes the day
  jobs that come within reach (``webhooks/planner.py``) to a work queue de-duplicated by job
  id, takes jobs from it and computes each (``events_of``) once in the cluster, keeping its
  events in the store until they fall due, and releases the ones falling due
  (``webhooks/release.py``) to the delivery queue (``store/nats_webhook_queue.py``): one
  message per (subscription, event), de-duplicated by its message id, so the copies every
  worker releases are one message; a message is acknowledged only once settled, so a worker
  that dies mid-delivery leaves it to another after the acknowledgement wait, and a restarted
  NATS server keeps it.
- On SQLite, one worker at a time (the holder of the store's ``webhook-scheduler`` lease,
  renewed every tick and during a long one) schedules and delivers from a queue in its
  memory, its ticks running beside its deliveries; another takes over
  when the lease lapses, and rebuilds the queue from the events due in the last 24 hours not
  yet delivered (attempt numbers start again from 1 then).

Scheduling on SQLite (:class:`Scheduler`): every ``tick_s`` seconds, for each active subscription, the
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
import os
import secrets
import signal
import time
from pathlib import Path

import structlog

from kernel import civil_time, engine, places
from shared.runtime.config import Settings, load_settings
from shared.runtime.logging import configure_logging
from shared.runtime.orphan import stop_when_orphaned
from store.choice import open_configured_store
from webhooks.attempts import deliver
from webhooks.catalogue import Catalogue
from webhooks.events import day_events
from webhooks.jobs import Job, LocalQueue
from webhooks.loop_watch import LoopWatch
from webhooks.planner import EventsOf, Planner, compute_day
from webhooks.release import Releaser
from webhooks.scheduler import LeaseLost, Scheduler
from webhooks.settings import WorkerSettings

log = structlog.get_logger("webhook_worker")

#: The SQLite deployment's one scheduler holds this lease.
LEASE = "webhook-scheduler"
#: Seconds between two releases of the deliveries fallen due (NATS): a delivery is published
#: at most this long after its due time.
RELEASE_STEP_S = 0.25
#: Seconds between two reports of the event loop's longest block.
LOOP_REPORT_S = 60.0


def forecast_events_of(store) -> EventsOf:
    """Return the events source of a worker computing the forecasts itself (today's
    ``webhooks.events.day_events``, until the search pool answers them over gRPC)."""

    async def events_of(webhook, chart, day):
        return await day_events(store, webhook.account_id, webhook.chart_id, webhook.events, day)

    return events_of


async def run_nats(store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event, events_of: EventsOf) -> None:
    """Share the scheduling with the other workers and deliver through the store's work-queue
    stream, until ``stop`` is set."""

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

    await asyncio.gather(
        schedule_nats(store, worker, stop, events_of), watching(LoopWatch(), stop),
        *(delivering() for _ in range(worker.concurrency)),
    )


async def schedule_nats(store, worker: WorkerSettings, stop: asyncio.Event, events_of: EventsOf) -> None:
    """Follow the subscriptions and charts, plan their day jobs, compute the jobs this worker
    takes and release the deliveries falling due, until ``stop`` is set."""
    catalogue = Catalogue()
    planner = Planner(store, catalogue, worker)
    catalogue.on_change = planner.changed
    releaser = Releaser(store, worker, catalogue.still_wanted)
    followers = [
        await store.follow_bucket("WEBHOOKS", catalogue.webhook_seen),
        await store.follow_bucket("CHARTS", catalogue.chart_seen),
        await store.follow_later(releaser.heard),
    ]

    async def planning() -> None:
        while not stop.is_set():
            beat(worker)
            try:
                await planner.plan(time.time())
            except Exception as error:  # the store unreachable (NATS restarting): try next tick
                log.warning("webhook_plan_failed", error=repr(error))
            await _sleep(stop, worker.tick_s)

    async def releasing() -> None:
        while not stop.is_set():
            try:
                await releaser.step(time.time())
            except Exception as error:
                log.warning("webhook_release_failed", error=repr(error))
            await _sleep(stop, RELEASE_STEP_S)

    try:
        await asyncio.gather(
            planning(), releasing(), *(computing_days(store, events_of, worker, stop) for _ in range(worker.day_concurrency))
        )
    finally:
        for follower in followers:
            try:
                await follower.unsubscribe()
            except Exception:  # the connection went: so did the consumer
                pass


async def computing_days(store, events_of: EventsOf, worker: WorkerSettings, stop: asyncio.Event) -> None:
    """Take day jobs one at a time and compute each (``compute_day``), acknowledging it once its
    events are kept, saying it is still at work meanwhile; a job that failed (the search pool
    unreachable) is handed out again after the first retry's delay, until ``stop`` is set."""
    while not stop.is_set():
        taken = None
        try:
            taken = await store.take_day(min(worker.tick_s, 1.0), worker.ack_wait_s)
            if taken is None:
                continue
            alive = asyncio.create_task(_still_working(taken, worker.ack_wait_s / 3))
            try:
                kept = await compute_day(store, events_of, taken.job, time.time(), worker.retry_for_s)
            finally:
                alive.cancel()
            await taken.done()
            log.debug("webhook_day_computed", job=taken.job, kept=kept)
        except Exception as error:
            log.warning("webhook_day_failed", error=repr(error))
            if taken is not None:
                try:
                    await taken.again_in(worker.first_retry_s)
                except Exception:  # unacknowledged: it comes back after the ack wait
                    pass
            await _sleep(stop, 0.5)


async def _still_working(taken, every_s: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        await taken.still_working()


async def watching(watch: LoopWatch, stop: asyncio.Event) -> None:
    """Watch the event loop and log its longest block every :data:`LOOP_REPORT_S`."""

    async def report() -> None:
        while not stop.is_set():
            await _sleep(stop, LOOP_REPORT_S)
            log.info("webhook_loop_block", longest_ms=round(watch.take_longest_ms(), 1))

    await asyncio.gather(watch.watch(stop), report())


async def run_sqlite(store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event, events_of: EventsOf) -> None:
    """Hold the scheduler's lease and, while holding it, schedule and deliver from memory."""
    holder = f"{os.getpid()}-{secrets.token_hex(4)}"
    queue = LocalQueue()
    scheduler: Scheduler | None = None
    slots = asyncio.Semaphore(worker.concurrency)
    running: set[asyncio.Task] = set()
    watch = LoopWatch()
    watcher = asyncio.create_task(watching(watch, stop))

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

    async def renew() -> bool:
        return await store.hold_lease(LEASE, holder, ttl_s=3 * worker.tick_s)

    while not stop.is_set():
        beat(worker)
        try:
            holding = await renew()
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
            scheduler = Scheduler(store, worker, queue.put, events_of)
        # The tick runs beside the deliveries (a long first tick must not hold back those due),
        # renewing the lease as it goes.
        ticking = asyncio.create_task(scheduler.tick(renew=renew, renew_every_s=worker.tick_s))
        deadline = time.time() + worker.tick_s
        while (time.time() < deadline or not ticking.done()) and not stop.is_set():
            dispatch(queue, attempt, generation, running)
            await _sleep(stop, min(0.2, worker.tick_s))
        if not ticking.done():
            ticking.cancel()  # stopping
        try:
            await ticking
        except asyncio.CancelledError:
            break
        except LeaseLost:
            log.warning("webhook_scheduler_lost_lease")
            generation += 1
            scheduler = None
            queue.clear()
        except Exception as error:
            log.warning("webhook_schedule_failed", error=repr(error))
    watcher.cancel()
    if running:
        await asyncio.wait(running, timeout=settings.shutdown_grace_s)


def dispatch(queue: LocalQueue, attempt, generation: int, running: set[asyncio.Task]) -> None:
    """Start an attempt at every job of ``queue`` whose time has come."""
    while (taken := queue.take(time.time())) is not None:
        task = asyncio.create_task(attempt(*taken, generation))
        running.add(task)
        task.add_done_callback(running.discard)


def beat(worker: WorkerSettings) -> None:
    """Touch the heartbeat file, when there is one: the worker's loop is turning."""
    if worker.heartbeat_path:
        Path(worker.heartbeat_path).touch()


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


async def run(settings: Settings, worker: WorkerSettings, events_of: EventsOf | None = None) -> None:
    """Run the worker until SIGTERM or SIGINT, its days' events from ``events_of`` (default:
    :func:`forecast_events_of`)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = await open_configured_store(settings)
    log.info("webhook_worker_started", store="nats" if settings.nats_url else "sqlite", tick_s=worker.tick_s)
    try:
        await (run_nats if settings.nats_url else run_sqlite)(store, settings, worker, stop, events_of or forecast_events_of(store))
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
