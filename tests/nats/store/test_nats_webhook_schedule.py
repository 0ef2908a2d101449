"""store/nats_webhook_schedule.py: a day job is queued once per job id and comes back when its
worker never acknowledged it; events kept for later are read by the minute they fall due,
each once, and followed as they are kept; the released minute is the last one marked; a
bucket is followed as it is, then change by change."""

from __future__ import annotations

import asyncio

from tests.nats.store.nats_store_factory import with_plain_client

JOB = {"webhook_id": "wh_1", "day_s": 0.0}


def test_a_day_job_is_queued_once_per_job_id(nats_factory):
    async def body(store, js, prefix):
        assert await store.plan_day("wh_1.20261206.0", JOB) is True
        assert await store.plan_day("wh_1.20261206.0", JOB) is False
        taken = await store.take_day(2.0, ack_wait_s=30.0)
        assert (taken.job, taken.attempt) == (JOB, 1)
        await taken.done()
        assert await store.take_day(0.3, ack_wait_s=30.0) is None
        assert await store.plan_day("wh_1.20261206.0", JOB) is False  # done, still a duplicate

    with_plain_client(nats_factory, body)


def test_a_day_job_its_worker_never_acknowledged_goes_to_another(nats_factory):
    async def body(store, js, prefix):
        await store.plan_day("wh_2.20261206.0", JOB)
        assert (await store.take_day(2.0, ack_wait_s=1.0)).attempt == 1  # and the worker dies
        again = await store.take_day(3.0, ack_wait_s=1.0)
        assert (again.job, again.attempt) == (JOB, 2)
        await again.done()

    with_plain_client(nats_factory, body)


def test_events_kept_for_later_are_read_by_their_minute_each_once(nats_factory):
    async def body(store, js, prefix):
        assert await store.keep_for_later("job.fc_1", 60 * 1000 + 5, {"n": 1}) is True
        assert await store.keep_for_later("job.fc_1", 60 * 1000 + 5, {"n": 1}) is False
        await store.keep_for_later("job.fc_2", 60 * 1000 + 59, {"n": 2})
        await store.keep_for_later("job.fc_3", 60 * 1001, {"n": 3})
        return await store.due_in_minute(1000), await store.due_in_minute(1001), await store.due_in_minute(999)

    assert with_plain_client(nats_factory, body) == ([{"n": 1}, {"n": 2}], [{"n": 3}], [])


def test_events_kept_from_now_on_are_followed_whatever_their_minute(nats_factory):
    async def body(store, js, prefix):
        await store.keep_for_later("job.fc_0", 60.0, {"n": 0})  # before the follower: not followed
        seen: list[dict] = []
        follower = await store.follow_later(seen.append)
        await store.keep_for_later("job.fc_1", 60.0 * 5, {"n": 1})
        await store.keep_for_later("job.fc_2", 60.0 * 9, {"n": 2})
        for _ in range(100):
            if len(seen) == 2:
                break
            await asyncio.sleep(0.02)
        await follower.unsubscribe()
        return seen

    assert with_plain_client(nats_factory, body) == [{"n": 1}, {"n": 2}]


def test_the_released_minute_is_the_last_one_marked(nats_factory):
    async def body(store, js, prefix):
        before = await store.released_through()
        await store.mark_released(10)
        await store.mark_released(12)
        return before, await store.released_through()

    assert with_plain_client(nats_factory, body) == (None, 12)


def test_a_followed_bucket_gives_its_entries_then_each_change(nats_factory):
    async def body(store, js, prefix):
        kv = await js.key_value(f"{prefix}_WEBHOOKS")
        await kv.put("acct.a.wh_1", b'{"v": 1}')
        await kv.put("acct.a.wh_1", b'{"v": 2}')
        seen: list = []
        follower = await store.follow_bucket("WEBHOOKS", lambda key, document: seen.append((key, document)))
        await kv.put("acct.a.wh_2", b'{"v": 3}')
        await kv.delete("acct.a.wh_1")
        for _ in range(100):
            if len(seen) == 3:
                break
            await asyncio.sleep(0.02)
        await follower.unsubscribe()
        return seen

    assert with_plain_client(nats_factory, body) == [
        ("acct.a.wh_1", {"v": 2}),
        ("acct.a.wh_2", {"v": 3}),
        ("acct.a.wh_1", None),
    ]
