"""webhooks/worker.py: the worker's loop shows it turns (its heartbeat); on SQLite, of two
workers one holds the lease and keeps it through a tick longer than the lease. The workers on
one NATS server are tested in tests/nats/webhooks/test_worker.py."""

from __future__ import annotations

import asyncio
import time

from store import SqliteStore
from store.webhook_records import Webhook, new_secret, new_webhook_id
from tests.unit.webhooks.counting_events import CountingEvents
from tests.unit.webhooks.scenarios import SETTINGS
from webhooks.forecast_requests import day_of
from webhooks.settings import WorkerSettings
from webhooks.worker import beat, run_sqlite

#: Short timings: a day job unacknowledged for 1 s goes to another worker.
WORKER = WorkerSettings(
    tick_s=0.3, retry_for_s=60.0, plan_ahead_s=60.0, ack_wait_s=1.0, timeout_s=0.5, day_concurrency=2
)


def test_the_heartbeat_file_is_touched_when_one_is_set(tmp_path):
    path = tmp_path / "alive"
    beat(WorkerSettings(heartbeat_path=str(path)))
    assert path.exists()
    beat(WorkerSettings())  # none set: nothing to touch


def a_subscription(number: int) -> Webhook:
    return Webhook(
        new_webhook_id(), f"acct{number}", "https://receiver.example/hook", ("transit",), None, 0, new_secret()
    )


def test_on_sqlite_one_of_two_workers_schedules_and_keeps_the_lease_through_a_long_tick(tmp_path):
    """Each day's answer takes 0.4 s: the first tick (5 subscriptions) lasts about 2 s, past
    the lease's 0.9 s (three ticks of 0.3 s); the workers stop once every day was asked."""
    events = [CountingEvents(answer_s=0.4, first_in_s=30.0) for _ in range(2)]
    worker = WorkerSettings(tick_s=0.3, retry_for_s=60.0, ack_wait_s=1.0, timeout_s=0.5)

    async def body():
        path = str(tmp_path / "s.sqlite3")
        stores = [SqliteStore(path) for _ in range(2)]
        try:
            made = [await stores[0].create_webhook(a_subscription(n), limit=1000) for n in range(5)]
            stop = asyncio.Event()
            running = [
                asyncio.create_task(run_sqlite(store, SETTINGS, worker, stop, mine))
                for store, mine in zip(stores, events)
            ]
            asked = {(webhook.webhook_id, day_of(instant)) for webhook in made for instant in events[0].instants()}
            deadline = time.monotonic() + 30.0
            while not asked <= set(events[0].calls) | set(events[1].calls) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.gather(*running)
            return made
        finally:
            for store in stores:
                await store.close()

    made = asyncio.run(body())
    asked = {(webhook.webhook_id, day_of(instant)) for webhook in made for instant in events[0].instants()}
    holder, other = sorted(events, key=lambda mine: len(mine.calls), reverse=True)
    assert (set(holder.calls), set(holder.calls.values()), other.calls) == (asked, {1}, {})
