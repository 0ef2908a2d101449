"""The NATS store's queue of due webhook deliveries: stream ``P_WEBHOOK_QUEUE`` (work-queue
retention, subject ``p.webhooks.due``), shared by every delivery worker through one durable
pull consumer ``webhook-workers``.

- A delivery is published once it falls due, with ``Nats-Msg-Id: <webhook_id>.<event_id>``:
  the stream's duplicate window (:data:`DUPLICATE_WINDOW_S`, longer than the 72 hours an event
  is retried, as long as a scheduler may queue it) drops the same event scheduled again, by the
  same scheduler or the next one.
- A worker takes one message at a time. It acknowledges it once the event is settled
  (delivered, given up, or no longer wanted); it asks for it again after the backoff's delay
  (``nak`` with a delay) when the receiver failed; and it says it is still at work
  (``in_progress``) while it waits for the receiver. A worker that dies leaves the message
  unacknowledged: JetStream hands it to another worker once the consumer's ``ack_wait`` runs
  out, and the message's delivery count, which is the attempt number, goes on from there.
- The stream is on file storage: a restarted NATS server keeps every message not yet
  acknowledged, and the consumer's state with them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import orjson
from nats.aio.msg import Msg
from nats.js import api

from store.nats_connection import DurablePull, NatsConnection

#: Seconds within which a delivery published again (same webhook and event) is dropped: the
#: 72 hours of retries (webhooks/timing.py's ``RETRY_FOR_S``: a scheduler queues an event as
#: long as it is retried) and two hours to spare.
DUPLICATE_WINDOW_S = 74 * 3600.0
#: Seconds a message is kept at most (retries end after 72 hours; this bounds a lost one).
MAX_AGE_S = 4 * 86400.0
#: The consumer every worker pulls from.
CONSUMER = "webhook-workers"
#: The consumer's default acknowledgement wait: the receiver's timeout (10 s) and the
#: bookkeeping around it, with room to spare; a dead worker's message returns after it.
DEFAULT_ACK_WAIT_S = 30.0


@dataclass
class QueuedDelivery:
    """A due delivery taken from the queue: its ``job`` (what the scheduler published) and
    ``attempt`` (how many times the queue has handed it out, this one included)."""

    job: dict[str, Any]
    attempt: int
    _message: Msg

    async def done(self) -> None:
        """Settle it: it is never handed out again."""
        await self._message.ack_sync()

    async def again_in(self, delay_s: float) -> None:
        """Hand it out again (to any worker) after ``delay_s`` seconds."""
        await self._message.nak(delay=max(0.0, delay_s))

    async def still_working(self) -> None:
        """Restart its acknowledgement wait: the worker is alive and at it."""
        await self._message.in_progress()


class NatsWebhookQueue(NatsConnection):
    """The due deliveries' work queue (see the module's docstring)."""

    @functools.cached_property
    def _queue_consumer(self) -> DurablePull:
        return DurablePull(self._queue_stream, CONSUMER, max_ack_pending=10_000)

    @property
    def _queue_stream(self) -> str:
        return f"{self.prefix}_WEBHOOK_QUEUE"

    @property
    def _queue_subject(self) -> str:
        return f"{self.prefix.lower()}.webhooks.due"

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        config = api.StreamConfig(
            name=self._queue_stream,
            subjects=[self._queue_subject],
            storage=api.StorageType.FILE,
            retention=api.RetentionPolicy.WORK_QUEUE,
            duplicate_window=DUPLICATE_WINDOW_S,
            max_age=MAX_AGE_S,
            num_replicas=self._replicas,
        )
        await self._call(self._add_or_update_stream(config))

    async def enqueue_delivery(self, webhook_id: str, event_id: str, job: dict[str, Any]) -> bool:
        """Publish a due delivery; return False when the queue had it already (a duplicate
        within :data:`DUPLICATE_WINDOW_S`)."""
        ack = await self._call(
            self._js.publish(
                self._queue_subject, orjson.dumps(job), headers={"Nats-Msg-Id": f"{webhook_id}.{event_id}"}
            )
        )
        return not ack.duplicate

    async def take_delivery(self, wait_s: float, ack_wait_s: float = DEFAULT_ACK_WAIT_S) -> QueuedDelivery | None:
        """Return the next due delivery, waiting up to ``wait_s`` seconds; None when none came."""
        message = await self._pull_next(self._queue_consumer, wait_s, ack_wait_s)
        if message is None:
            return None
        return QueuedDelivery(orjson.loads(message.data), message.metadata.num_delivered, message)
