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
  when the lease lapses, and rebuilds the queue from the events due in the last 72 hours not
  yet delivered (attempt numbers start again from 1 then).

Scheduling (:class:`Scheduler`): every ``tick_s`` seconds, for each active subscription, the
events of the UTC days that hold the instants due now or in the 72 hours before (never before
the subscription was made) are asked of the search pool over gRPC once per day and kept
(``webhooks/events.py``, ``CELESTIAL_SEARCH_ADDRESSES``; a failed call is logged and asked
again at the next tick); each event due (``instant - lead``) and not yet delivered is queued.

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
from shared.runtime.orphan import stop_when_orphaned
from store.choice import open_configured_store
from webhooks.account_slots import AccountSlots
from webhooks.attempts import deliver
from webhooks.events import EventsOf, SearchPoolEvents
from webhooks.in_flight import PUT_OFF_IN_MEMORY_S, InFlight, put_off_s
from webhooks.jobs import Job, LocalQueue
from webhooks.scheduler import Scheduler
from webhooks.settings import WorkerSettings

log = structlog.get_logger("webhook_worker")

#: The SQLite deployment's one scheduler holds this lease.
LEASE = "webhook-scheduler"


async def run_nats(store, settings: Settings, worker: WorkerSettings, events_of: EventsOf, stop: asyncio.Event) -> None:
    """Schedule and deliver through the store's work-queue stream until ``stop`` is set."""

    async def publish(job: Job) -> None:
        await store.enqueue_delivery(job.webhook_id, job.event_id, job.as_dict())

    scheduler = Scheduler(store, worker, publish, events_of)

    async def scheduling() -> None:
        while not stop.is_set():
            beat(worker)
            try:
                await scheduler.tick()
            except Exception as error:  # the store unreachable (NATS restarting): try next tick
                log.warning("webhook_schedule_failed", error=repr(error))
            await _sleep(stop, worker.tick_s)

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
                if not (flights.start(job.account_id, attempt) or flights.hold(job.account_id, attempt, taken.still_working)):
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

    await asyncio.gather(scheduling(), taking(), keeping())
    await flights.drain(settings.shutdown_grace_s)


async def run_sqlite(store, settings: Settings, worker: WorkerSettings, events_of: EventsOf, stop: asyncio.Event) -> None:
    """Hold the scheduler's lease and, while holding it, schedule and deliver from memory."""
    holder = f"{os.getpid()}-{secrets.token_hex(4)}"
    queue = LocalQueue()
    scheduler: Scheduler | None = None
    flights = InFlight(worker.concurrency, AccountSlots(worker.account_concurrency))

    generation = 0  # the lease held without a break since: a retry goes back only to its own

    async def attempt(job: Job, number: int, held_since: int) -> None:
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
            scheduler = Scheduler(store, worker, queue.put, events_of)
        try:
            await scheduler.tick()
        except Exception as error:
            log.warning("webhook_schedule_failed", error=repr(error))
        deadline = time.time() + worker.tick_s
        while time.time() < deadline and not stop.is_set():
            now = time.time()
            while flights.has_room() and (taken := queue.take(now)) is not None:
                job, number = taken
                if not flights.start(job.account_id, partial(attempt, job, number, generation)):
                    # The account's slots are all held: put off, its attempt number kept.
                    await queue.put(job, now + PUT_OFF_IN_MEMORY_S, number)
            await _sleep(stop, min(0.2, worker.tick_s))
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


async def run(settings: Settings, worker: WorkerSettings, events_of: SearchPoolEvents) -> None:
    """Run the worker, its events asked of ``events_of``, until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = await open_configured_store(settings)
    log.info("webhook_worker_started", store="nats" if settings.nats_url else "sqlite", tick_s=worker.tick_s)
    try:
        await (run_nats if settings.nats_url else run_sqlite)(store, settings, worker, events_of, stop)
    finally:
        await events_of.close()
        await store.close()
        log.info("webhook_worker_stopped")


def main() -> None:
    """Command-line entry: ``python -m webhooks.worker``."""
    settings = load_settings()
    configure_logging(settings, "webhook-worker")
    stop_when_orphaned(settings.supervisor_pid)
    # The forecasts are the search pool's: this process loads no ephemeris, gazetteer or zones.
    asyncio.run(run(settings, WorkerSettings.of(settings), SearchPoolEvents.of(settings)))


if __name__ == "__main__":
    main()
