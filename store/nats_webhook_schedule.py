"""The NATS store's webhook schedule (issue 46, part 3): what lets every worker of a cluster
share the computing of the subscriptions' days, each (subscription, day) once.

- Stream ``P_WEBHOOK_SCHEDULE`` (work-queue retention, subject ``p.webhooks.schedule``): the
  day jobs, one message per (subscription, UTC day, chart version), published by every
  worker's planner with ``Nats-Msg-Id: <job id>`` so the planners of several workers (or one
  restarted) make one job of it within :data:`DAY_JOB_WINDOW_S`. Every worker pulls from the
  durable consumer ``webhook-schedulers``; a job is acknowledged once its events are kept, so
  a worker that dies holding one leaves it to another after the acknowledgement wait.
- Stream ``P_WEBHOOK_LATER`` (limits retention, kept :data:`LATER_MAX_AGE_S`): the events a
  day job found, each on the subject of the minute it falls due,
  ``p.webhooks.later.<Unix minute>`` (``Nats-Msg-Id: <job id>.<event id>``: a job computed
  again after its worker died keeps each event once), and ``p.webhooks.released``, the
  minutes whose events have all been released to the delivery queue (``nats_webhook_queue.py``)
  by some worker: where a cluster that stopped starts again.
- The subscriptions and charts themselves are followed (not listed every tick) through
  ordered consumers on their buckets' streams: the first messages are the entries as they
  are, the next ones each change, so a planner's view costs the changes, not the catalogue.

Both streams are on file storage: a restarted NATS server keeps every job and event.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

import nats.errors
import nats.js.errors
import orjson
from nats.aio.msg import Msg
from nats.js import api

from store.nats_connection import DurablePull, NatsConnection
from store.nats_webhook_queue import QueuedDelivery

#: Seconds within which a day job published again is dropped: a (subscription, day) is planned
#: from its first instant's due time less the planner's look-ahead (at most 6 hours) to its last
#: instant's due time plus the 72 hours of retries: 24 + 72 + 6 hours, with 6 to spare.
DAY_JOB_WINDOW_S = 108 * 3600.0
#: Seconds an event waits at most in P_WEBHOOK_LATER: kept when its day is computed (at most
#: a day and the look-ahead before it falls due) and read again, by a cluster starting after a
#: stop, for the 72 hours it is retried: five days bound it.
LATER_MAX_AGE_S = 5 * 86400.0
#: Seconds within which an event kept again by the same job is dropped: the job's worker died
#: after keeping some of its events, and another computes the job again after the ack wait.
LATER_DUPLICATE_WINDOW_S = 3600.0
#: The consumer every worker takes day jobs from.
SCHEDULE_CONSUMER = "webhook-schedulers"
#: Day jobs handed out and not yet acknowledged, in the whole cluster: each worker takes one
#: at a time per computing task, so this bounds the cluster's computing tasks, not the queue.
SCHEDULE_MAX_ACK_PENDING = 1000
#: Messages a follower takes in between two yields to the event loop: a burst (a bucket's
#: entries when following starts) is handed over without a pause by nats-py.
_YIELD_EVERY = 100
#: KV operations that remove a key (``KV-Operation`` header).
_REMOVALS = ("DEL", "PURGE")


def minute_of(instant_s: float) -> int:
    """Return the Unix minute (floor of seconds / 60) holding ``instant_s``."""
    return int(instant_s // 60)


class NatsWebhookSchedule(NatsConnection):
    """The day jobs and the events kept for later (see the module's docstring)."""

    @functools.cached_property
    def _day_consumer(self) -> DurablePull:
        return DurablePull(self._schedule_stream, SCHEDULE_CONSUMER, max_ack_pending=SCHEDULE_MAX_ACK_PENDING)

    @property
    def _schedule_stream(self) -> str:
        return f"{self.prefix}_WEBHOOK_SCHEDULE"

    @property
    def _schedule_subject(self) -> str:
        return f"{self.prefix.lower()}.webhooks.schedule"

    @property
    def _later_stream(self) -> str:
        return f"{self.prefix}_WEBHOOK_LATER"

    def _later_subject(self, minute: int | str) -> str:
        return f"{self.prefix.lower()}.webhooks.later.{minute}"

    @property
    def _released_subject(self) -> str:
        return f"{self.prefix.lower()}.webhooks.released"

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        await self._call(
            self._add_or_update_stream(
                api.StreamConfig(
                    name=self._schedule_stream,
                    subjects=[self._schedule_subject],
                    storage=api.StorageType.FILE,
                    retention=api.RetentionPolicy.WORK_QUEUE,
                    duplicate_window=DAY_JOB_WINDOW_S,
                    max_age=DAY_JOB_WINDOW_S,
                    num_replicas=self._replicas,
                )
            )
        )
        await self._call(
            self._add_or_update_stream(
                api.StreamConfig(
                    name=self._later_stream,
                    subjects=[self._later_subject("*"), self._released_subject],
                    storage=api.StorageType.FILE,
                    retention=api.RetentionPolicy.LIMITS,
                    duplicate_window=LATER_DUPLICATE_WINDOW_S,
                    max_age=LATER_MAX_AGE_S,
                    num_replicas=self._replicas,
                )
            )
        )

    # --- day jobs ------------------------------------------------------------------------------

    async def plan_day(self, job_id: str, job: dict[str, Any]) -> bool:
        """Publish a day job; return False when the queue had it already (within
        :data:`DAY_JOB_WINDOW_S`, taken or not)."""
        ack = await self._call(
            self._js.publish(self._schedule_subject, orjson.dumps(job), headers={"Nats-Msg-Id": job_id})
        )
        return not ack.duplicate

    async def take_day(self, wait_s: float, ack_wait_s: float) -> QueuedDelivery | None:
        """Return the next day job (``done()`` once its events are kept), waiting up to
        ``wait_s`` seconds; None when none came. Unacknowledged after ``ack_wait_s`` seconds,
        it goes to another worker."""
        message = await self._pull_next(self._day_consumer, wait_s, ack_wait_s)
        if message is None:
            return None
        return QueuedDelivery(orjson.loads(message.data), message.metadata.num_delivered, message)

    # --- events kept for later -----------------------------------------------------------------

    async def keep_for_later(self, key: str, due_at_s: float, job: dict[str, Any]) -> bool:
        """Keep a delivery until it falls due at ``due_at_s`` (Unix seconds), under ``key``
        (the job's id and the event's); return False when it was kept already."""
        ack = await self._call(
            self._js.publish(self._later_subject(minute_of(due_at_s)), orjson.dumps(job), headers={"Nats-Msg-Id": key})
        )
        return not ack.duplicate

    async def due_in_minute(self, minute: int) -> list[dict[str, Any]]:
        """Return the deliveries kept for Unix minute ``minute``, in the order they were kept."""
        found: list[dict[str, Any]] = []
        await self._scan(
            self._later_stream, self._later_subject(minute), lambda message: found.append(orjson.loads(message.data))
        )
        return found

    async def follow_later(self, each: Callable[[dict[str, Any]], None]) -> Any:
        """Call ``each`` on every delivery kept from now on (whatever its minute), until the
        returned subscription is unsubscribed."""

        count = 0

        async def received(message: Msg) -> None:
            nonlocal count
            each(orjson.loads(message.data))
            count += 1
            if count % _YIELD_EVERY == 0:
                await asyncio.sleep(0)

        return await self._call(
            self._js.subscribe(
                self._later_subject("*"),
                stream=self._later_stream,
                cb=received,
                ordered_consumer=True,
                deliver_policy=api.DeliverPolicy.NEW,
            )
        )

    async def released_through(self) -> int | None:
        """Return the last Unix minute some worker released entirely; None before any."""
        try:
            message = await self._call(
                self._nc.jsm(timeout=max(self._timeout_s, 2.0)).get_last_msg(self._later_stream, self._released_subject)
            )
        except nats.js.errors.NotFoundError:
            return None
        return orjson.loads(message.data)["minute"]

    async def mark_released(self, minute: int) -> None:
        """Record that every delivery due up to the end of Unix minute ``minute`` was released."""
        await self._call(self._js.publish(self._released_subject, orjson.dumps({"minute": minute})))

    # --- the catalogue, followed ---------------------------------------------------------------

    async def follow_bucket(self, bucket: str, each: Callable[[str, dict[str, Any] | None], None]) -> Any:
        """Call ``each(key, document)`` on every entry of the store's bucket ``bucket`` (e.g.
        ``WEBHOOKS``) as it is, then on every change (``document`` None: deleted), until the
        returned subscription is unsubscribed."""
        stream = f"KV_{self.prefix}_{bucket}"
        head = f"$KV.{self.prefix}_{bucket}."

        count = 0

        async def received(message: Msg) -> None:
            nonlocal count
            operation = message.header.get("KV-Operation") if message.header else None
            removed = operation in _REMOVALS or not message.data
            each(message.subject[len(head) :], None if removed else orjson.loads(message.data))
            count += 1
            if count % _YIELD_EVERY == 0:
                await asyncio.sleep(0)

        return await self._call(
            self._js.subscribe(
                head + ">",
                stream=stream,
                cb=received,
                ordered_consumer=True,
                deliver_policy=api.DeliverPolicy.LAST_PER_SUBJECT,
            )
        )
