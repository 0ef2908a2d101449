"""The webhook worker (issue 40, part 3; issue 46): a process kind of its own, which finds the
events subscriptions want, queues each once it falls due, and delivers it, signed, until a 2xx.

``python -m webhooks.worker``; ``make run``'s supervisor runs
``CELESTIAL_WEBHOOK_WORKERS`` of them (default 1), Kubernetes the ``webhook-worker``
Deployment. A day's events are asked of the search pool over gRPC (``webhooks/events.py``,
``CELESTIAL_SEARCH_ADDRESSES``): the worker computes no astronomy. Every worker of a
deployment shares the store:

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
  memory, its ticks running beside its deliveries; another takes over when the lease lapses,
  and rebuilds the queue from the events due in the last 72 hours not yet delivered (attempt
  numbers start again from 1 then).

Scheduling on SQLite (:class:`Scheduler`): every ``tick_s`` seconds, for each active
subscription, the events of the UTC days that hold the instants due now or in the 72 hours
before (never before the subscription was made) are asked once per day and kept; each event
due (``instant - lead``) and not yet delivered is queued.

Handing out (``webhooks/in_flight.py``): each attempt is a task of its own, at most
``CELESTIAL_WEBHOOK_CONCURRENCY`` (256) in flight and at most
``CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY`` (4) of one account, so one account's slow receivers
hold only its own slots. A due job whose account has none free is not attempted and holds no
loop. On SQLite it goes back to the memory queue for half a second, its attempt number kept.
On NATS, where the attempt number is the message's delivery count, a message handed out
again would count as an attempt, so the message waits in the worker's memory, still this
worker's (``in_progress`` every third of the acknowledgement wait), and starts the moment one
of its account's attempts ends; a worker that dies leaves it to another, as it would a
delivery. Only ``WAITING_PER_SLOT`` x the bound (16) of one account wait so, or the worker's
whole bound (256) in all, so that one account's backlog never fills the hands every other
account's messages need: past that, the message goes back to the queue (``nak``, for half to
all of the delivery's deadline), and that hand-out, alone, counts as an attempt (its backoff
is a step longer). Keeping the number in the recorded deliveries instead would count every
put-off right, but not an attempt whose worker died before recording it: the receiver would
see the same number twice.

Delivering (:func:`deliver`): the subscription must still exist and be active, and the event
not be delivered already. One credit is reserved under the request id
``webhook.<subscription>.<event>`` (so retries reserve it once); an account short of it pauses
the subscription, with an email. The POST is signed; its outcome recorded. A 2xx marks the
event delivered (never sent again) and ends the subscription's run of failures; anything else
is tried again after the jittered backoff (``webhooks/timing.py``) for 72 hours after the event
fell due, then given up with its credit refunded. A subscription failing for 72 hours pauses
itself, with an email to the account's owners.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from functools import partial
from pathlib import Path

import structlog

from shared.runtime.config import Settings, load_settings
from shared.runtime.logging import configure_logging
from shared.runtime.metrics_endpoint import record_if_served, start_metrics_endpoint, stop_metrics_endpoint
from shared.runtime.orphan import stop_when_orphaned
from store.choice import open_configured_store
from webhooks.account_slots import AccountSlots
from webhooks.attempts import deliver
from webhooks.catalogue import Catalogue
from webhooks.events import EventsOf, SearchPoolEvents
from webhooks.in_flight import PUT_OFF_IN_MEMORY_S, InFlight, put_off_s
from webhooks.jobs import Job, LocalQueue
from webhooks.loop_watch import LoopWatch
from webhooks.planner import Planner, compute_day
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


async def run_nats(store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event, events_of: EventsOf) -> None:
    """Share the scheduling with the other workers and deliver through the store's work-queue
    stream, until ``stop`` is set."""
    flights = InFlight(worker.concurrency, AccountSlots(worker.account_concurrency))

    async def settle(taken, job: Job) -> None:
        again = await deliver(store, settings, worker, job, taken.attempt)
        if again is None:
            await taken.done()
        else:
            await taken.again_in(again)

    async def taking() -> None:
        while not stop.is_set():
            try:
                await flights.wait_room()
                taken = await store.take_delivery(min(worker.tick_s, 1.0), worker.ack_wait_s)
                if taken is None:
                    continue
                job = Job.of(taken.job)
                attempt = partial(settle, taken, job)
                if not (
                    flights.start(job.account_id, attempt) or flights.hold(job.account_id, attempt, taken.still_working)
                ):
                    # The account's slots are held and its waiting room full: back to the queue.
                    await taken.again_in(put_off_s(worker.timeout_s))
            except Exception as error:  # unacknowledged: the queue hands it out again
                log.warning("webhook_take_failed", error=repr(error))
                await _sleep(stop, 0.5)

    async def keeping() -> None:
        # A message waiting for its account's slot stays this worker's (no hand-out counted).
        while not stop.is_set():
            await _sleep(stop, worker.ack_wait_s / 3)
            try:
                await flights.keep_waiting()
            except Exception as error:
                log.warning("webhook_keep_failed", error=repr(error))

    await asyncio.gather(
        schedule_nats(store, worker, stop, events_of), watching(LoopWatch(), stop), taking(), keeping()
    )
    await flights.drain(settings.shutdown_grace_s)


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
            planning(),
            releasing(),
            *(computing_days(store, events_of, worker, stop) for _ in range(worker.day_concurrency)),
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


async def run_sqlite(
    store, settings: Settings, worker: WorkerSettings, stop: asyncio.Event, events_of: EventsOf
) -> None:
    """Hold the scheduler's lease and, while holding it, schedule and deliver from memory."""
    holder = f"{os.getpid()}-{secrets.token_hex(4)}"
    queue = LocalQueue()
    scheduler: Scheduler | None = None
    flights = InFlight(worker.concurrency, AccountSlots(worker.account_concurrency))
    watcher = asyncio.create_task(watching(LoopWatch(), stop))

    generation = 0  # the lease held without a break since: a retry goes back only to its own

    async def attempt(job: Job, number: int, held_since: int) -> None:
        try:
            again = await deliver(store, settings, worker, job, number)
        except Exception as error:
            log.warning("webhook_deliver_failed", error=repr(error))
            again = worker.first_retry_s
        if again is not None and held_since == generation:
            await queue.put(job, time.time() + again, number + 1)

    async def dispatch() -> None:
        """Start an attempt at every job whose time has come, as far as the bounds allow."""
        now = time.time()
        while flights.has_room() and (taken := queue.take(now)) is not None:
            job, number = taken
            if not flights.start(job.account_id, partial(attempt, job, number, generation)):
                # The account's slots are all held: put off, its attempt number kept.
                await queue.put(job, now + PUT_OFF_IN_MEMORY_S, number)

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
            await dispatch()
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
    await flights.drain(settings.shutdown_grace_s)


def beat(worker: WorkerSettings) -> None:
    """Touch the heartbeat file, when there is one: the worker's loop is turning."""
    if worker.heartbeat_path:
        Path(worker.heartbeat_path).touch()


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


async def run(settings: Settings, worker: WorkerSettings, events_of: EventsOf) -> None:
    """Run the worker, its days' events asked of ``events_of``, until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = await open_configured_store(settings)
    metrics = await start_metrics_endpoint(settings.metrics_host, settings.metrics_port)
    log.info("webhook_worker_started", store="nats" if settings.nats_url else "sqlite", tick_s=worker.tick_s)
    try:
        await (run_nats if settings.nats_url else run_sqlite)(store, settings, worker, stop, events_of)
    finally:
        await stop_metrics_endpoint(metrics)
        await store.close()
        log.info("webhook_worker_stopped")


def main() -> None:
    """Command-line entry: ``python -m webhooks.worker``."""
    settings = load_settings()
    configure_logging(settings, "webhook-worker")
    stop_when_orphaned(settings.supervisor_pid)
    record_if_served(settings.metrics_port)
    asyncio.run(serve(settings))


async def serve(settings: Settings) -> None:
    """Run the worker with the search pool as its events source, then close the pool's channel."""
    # The forecasts are the search pool's: this process loads no ephemeris, gazetteer or zones.
    events_of = SearchPoolEvents.of(settings)
    try:
        await run(settings, WorkerSettings.of(settings), events_of)
    finally:
        await events_of.close()


if __name__ == "__main__":
    main()
