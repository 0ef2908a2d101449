"""webhooks/release.py: a kept delivery is published when it falls due and not before; one
kept for a minute already read is heard of and published; one its subscription no longer
wants is dropped; one kept while its minute is being read is not lost; one past the retries is dropped; a worker
starting again reads from the last minute released (less a margin), no further back than the retries reach; a minute is
marked released once everything due in it went; a store that refuses a publish keeps the delivery for the next step."""

from __future__ import annotations

import asyncio

from store.errors import StoreUnavailable
from store.nats_webhook_schedule import minute_of
from webhooks.release import MARK_MARGIN_MINUTES, Releaser
from webhooks.settings import WorkerSettings

WORKER = WorkerSettings(retry_for_s=3600.0)
NOW = 1_800_000_000.0


def a_delivery(number: int, due_at_s: float, webhook_id: str = "wh_1") -> dict:
    return {
        "webhook_id": webhook_id,
        "account_id": "acme",
        "event": {"id": f"fc_{number}"},
        "due_at_s": due_at_s,
        "webhook_version": 1,
        "chart_version": 0,
    }


class Kept:
    def __init__(self, deliveries=(), released=None):
        self.by_minute: dict[int, list[dict]] = {}
        for delivery in deliveries:
            self.by_minute.setdefault(minute_of(delivery["due_at_s"]), []).append(delivery)
        self.released = released
        self.read: list[int] = []
        self.queued: list[str] = []
        self.marks: list[int] = []
        self.refusing = False

    async def released_through(self):
        return self.released

    async def due_in_minute(self, minute):
        self.read.append(minute)
        return list(self.by_minute.get(minute, []))

    async def enqueue_delivery(self, webhook_id, event_id, job):
        if self.refusing:
            raise StoreUnavailable("restarting")
        self.queued.append(event_id)
        return True

    async def mark_released(self, minute):
        self.marks.append(minute)


def every(webhook_id, webhook_version, chart_version) -> bool:
    return True


def steps(releaser: Releaser, *instants: float) -> None:
    async def body():
        for instant in instants:
            await releaser.step(instant)

    asyncio.run(body())


def test_a_kept_delivery_is_published_when_it_falls_due_and_not_before():
    store = Kept([a_delivery(1, NOW + 10)], released=minute_of(NOW))
    releaser = Releaser(store, WORKER, every)
    steps(releaser, NOW, NOW + 9.9)
    before = list(store.queued)
    steps(releaser, NOW + 10)
    assert (before, store.queued) == ([], ["fc_1"])


def test_a_delivery_kept_for_a_minute_already_read_is_heard_of_and_published():
    store = Kept(released=minute_of(NOW))
    releaser = Releaser(store, WORKER, every)
    steps(releaser, NOW)
    releaser.heard(a_delivery(1, NOW + 5))
    releaser.heard(a_delivery(2, NOW + 3600))  # its minute is read when it comes within reach
    steps(releaser, NOW + 5)
    assert store.queued == ["fc_1"]


def test_a_delivery_kept_while_its_minute_is_being_read_is_not_lost():
    store = Kept(released=minute_of(NOW) - 1)
    releaser = Releaser(store, WORKER, every)
    reading = store.due_in_minute

    async def kept_meanwhile(minute):
        found = await reading(minute)  # the reading's snapshot, then the delivery is kept
        if minute == minute_of(NOW + 40):
            releaser.heard(a_delivery(1, NOW + 40))
        return found

    store.due_in_minute = kept_meanwhile
    steps(releaser, NOW, NOW + 10, NOW + 40)
    assert store.queued == ["fc_1"]


def test_a_delivery_its_subscription_no_longer_wants_is_dropped():
    store = Kept([a_delivery(1, NOW + 1), a_delivery(2, NOW + 1, "wh_2")], released=minute_of(NOW))
    releaser = Releaser(store, WORKER, lambda webhook_id, webhook_version, chart_version: webhook_id != "wh_2")
    steps(releaser, NOW + 1)
    assert store.queued == ["fc_1"]


def test_a_delivery_past_the_retries_is_dropped():
    store = Kept([a_delivery(1, NOW - 3601), a_delivery(2, NOW - 3599)])
    steps(Releaser(store, WORKER, every), NOW)
    assert store.queued == ["fc_2"]


def test_a_worker_starting_again_reads_from_the_last_minute_released_less_a_margin():
    store = Kept(released=minute_of(NOW) - 10)
    steps(Releaser(store, WORKER, every), NOW)
    assert store.read[0] == minute_of(NOW) - 10 - MARK_MARGIN_MINUTES


def test_a_worker_of_a_new_cluster_reads_back_as_far_as_the_retries_reach():
    store = Kept()
    steps(Releaser(store, WORKER, every), NOW)
    assert store.read[0] == minute_of(NOW - WORKER.retry_for_s)


def test_a_minute_is_marked_released_once_everything_due_in_it_went():
    store = Kept([a_delivery(1, NOW + 61)], released=minute_of(NOW))
    releaser = Releaser(store, WORKER, every)
    store.refusing = True
    steps(releaser, NOW + 61, NOW + 125)
    refused_marks = list(store.marks)
    store.refusing = False
    steps(releaser, NOW + 126)
    assert all(mark < minute_of(NOW + 61) for mark in refused_marks) and store.marks[-1] == minute_of(NOW + 126) - 1


def test_a_delivery_the_store_refused_is_published_at_the_next_step():
    store = Kept([a_delivery(1, NOW + 1)], released=minute_of(NOW))
    releaser = Releaser(store, WORKER, every)
    store.refusing = True
    steps(releaser, NOW + 1)
    store.refusing = False
    steps(releaser, NOW + 2)
    assert store.queued == ["fc_1"]
