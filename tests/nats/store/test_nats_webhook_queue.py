"""store/nats_webhook_queue.py: a due delivery is queued once per (subscription, event), even
after it was settled; it comes back after a nak's delay with the next attempt number, and
after the acknowledgement wait when its worker never answered; once done, never again."""

from __future__ import annotations

import asyncio

from tests.nats.store.nats_store_factory import with_plain_client

JOB = {"webhook_id": "wh_1", "event": {"id": "fc_1"}}


def test_a_delivery_is_queued_once_and_handed_out_until_done(nats_factory):
    async def body(store, js, prefix):
        assert await store.enqueue_delivery("wh_1", "fc_1", JOB) is True
        assert await store.enqueue_delivery("wh_1", "fc_1", JOB) is False
        first = await store.take_delivery(2.0, ack_wait_s=30.0)
        assert (first.job, first.attempt) == (JOB, 1)
        await first.again_in(0.2)
        assert await store.take_delivery(0.05, ack_wait_s=30.0) is None  # not before its delay
        second = await store.take_delivery(2.0, ack_wait_s=30.0)
        assert second.attempt == 2
        await second.done()
        assert await store.take_delivery(0.5, ack_wait_s=30.0) is None
        assert await store.enqueue_delivery("wh_1", "fc_1", JOB) is False  # settled, still a duplicate

    with_plain_client(nats_factory, body)


def test_a_delivery_its_worker_never_settled_comes_back_after_the_ack_wait(nats_factory):
    async def body(store, js, prefix):
        await store.enqueue_delivery("wh_2", "fc_2", JOB)
        taken = await store.take_delivery(2.0, ack_wait_s=1.0)
        assert taken.attempt == 1  # and the worker "dies": no answer
        await asyncio.sleep(1.2)
        again = await store.take_delivery(2.0, ack_wait_s=1.0)
        assert (again.job, again.attempt) == (JOB, 2)
        await again.done()

    with_plain_client(nats_factory, body)
