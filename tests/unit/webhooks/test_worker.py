"""webhooks/worker.py: a due event is delivered signed, charged 1 credit once, and never
again after a 2xx; a failure is retried after the backoff, given up (refunded) after 24 hours;
a subscription failing 24 hours or out of credits pauses; the scheduler queues each due event once."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import orjson
import pytest

from webhooks.worker import Job, LocalQueue, Scheduler, WorkerSettings, beat, charge_id, deliver
from shared.runtime.config import load_settings
from webhooks.signing import verify_signature
from store import SqliteStore
from store.chart_records import StoredChart, new_chart_id
from store.webhook_records import FAILING, NO_CREDITS, PAUSED, Webhook, new_secret, new_webhook_id
from tests.webhook_receiver import Receiver

SETTINGS = load_settings({})
WORKER = WorkerSettings(first_retry_s=2.0, max_retry_s=8.0, retry_for_s=60.0, timeout_s=2.0, ack_wait_s=5.0)
EVENT = {"id": "fc_0123456789abcdef01234567", "kind": "lunation", "phase": "full_moon", "instant": {"jd": 0.0, "datetime": "x"}}
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def with_store(tmp_path, scenario):
    async def body():
        store = SqliteStore(str(tmp_path / "s.sqlite3"))
        try:
            with Receiver() as receiver:
                account = await store.create_account("acme", 10)
                webhook = Webhook(new_webhook_id(), account.id, receiver.url, ("lunation",), None, 0, new_secret())
                await store.create_webhook(webhook, limit=5)
                return await scenario(store, receiver, account, webhook)
        finally:
            await store.close()

    return asyncio.run(body())


def a_job(webhook: Webhook, due_at_s: float | None = None) -> Job:
    return Job(webhook.webhook_id, webhook.account_id, EVENT, time.time() if due_at_s is None else due_at_s)


def test_a_delivery_is_a_signed_post_of_the_event_charged_one_credit_and_never_sent_again(tmp_path):
    async def scenario(store, receiver, account, webhook):
        job = a_job(webhook)
        assert await deliver(store, SETTINGS, WORKER, job, 1) is None
        assert await deliver(store, SETTINGS, WORKER, job, 2) is None  # delivered: nothing more
        (got,) = receiver.received
        body = orjson.loads(got.body)
        assert verify_signature(got.body, got.headers["celestial-signature"], webhook.secret)
        assert (body["event"], body["chart"], body["attempt"], body["test"]) == (EVENT, None, 1, False)
        assert await store.balance(account.id) == 9
        assert await store.is_delivered(webhook.webhook_id, EVENT["id"])
        (recorded,) = await store.recent_deliveries(webhook.webhook_id, 10)
        assert (recorded.status, recorded.attempt, recorded.event_id) == (200, 1, EVENT["id"])

    with_store(tmp_path, scenario)


def test_a_failed_delivery_is_tried_again_after_the_backoff_and_charged_once(tmp_path):
    async def scenario(store, receiver, account, webhook):
        receiver.status = 500
        job = a_job(webhook)
        assert await deliver(store, SETTINGS, WORKER, job, 1) == 2.0
        assert await deliver(store, SETTINGS, WORKER, job, 2) == 4.0
        assert (await store.get_webhook(account.id, webhook.webhook_id)).failing_since is not None
        receiver.status = 204
        assert await deliver(store, SETTINGS, WORKER, job, 3) is None
        assert [r.answered for r in receiver.received] == [500, 500, 204]
        assert [d.attempt for d in await store.recent_deliveries(webhook.webhook_id, 10)] == [3, 2, 1]
        assert await store.balance(account.id) == 9
        assert (await store.get_webhook(account.id, webhook.webhook_id)).failing_since is None

    with_store(tmp_path, scenario)


def test_a_delivery_failing_past_its_24_hours_is_given_up_and_refunded(tmp_path):
    async def scenario(store, receiver, account, webhook):
        receiver.status = 503
        job = a_job(webhook, due_at_s=time.time() - WORKER.retry_for_s + 1)
        assert await deliver(store, SETTINGS, WORKER, job, 5) is None
        assert await store.balance(account.id) == 10
        assert not await store.is_delivered(webhook.webhook_id, EVENT["id"])

    with_store(tmp_path, scenario)


def test_a_subscription_failing_for_24_hours_pauses_itself(tmp_path):
    async def scenario(store, receiver, account, webhook):
        receiver.status = 503
        failing = replace(webhook, failing_since=datetime.now(UTC) - timedelta(seconds=WORKER.retry_for_s))
        await store.replace_webhook(failing)
        assert await deliver(store, SETTINGS, WORKER, a_job(webhook), 1) is None
        paused = await store.get_webhook(account.id, webhook.webhook_id)
        assert (paused.state, paused.paused_reason) == (PAUSED, FAILING)
        assert await store.balance(account.id) == 10

    with_store(tmp_path, scenario)


def test_an_account_out_of_credits_pauses_the_subscription_and_nothing_is_sent(tmp_path):
    async def scenario(store, receiver, account, webhook):
        await store.reserve(account.id, 10, "spend-it-all")
        assert await deliver(store, SETTINGS, WORKER, a_job(webhook), 1) is None
        paused = await store.get_webhook(account.id, webhook.webhook_id)
        assert (paused.state, paused.paused_reason, receiver.received) == (PAUSED, NO_CREDITS, [])

    with_store(tmp_path, scenario)


def test_a_subscription_paused_between_attempts_sends_nothing_and_refunds(tmp_path):
    async def scenario(store, receiver, account, webhook):
        receiver.status = 500
        job = a_job(webhook)
        await deliver(store, SETTINGS, WORKER, job, 1)
        await store.replace_webhook(replace(webhook, state=PAUSED, paused_reason="paused_by_owner"))
        assert await deliver(store, SETTINGS, WORKER, job, 2) is None
        assert len(receiver.received) == 1 and await store.balance(account.id) == 10

    with_store(tmp_path, scenario)


def test_the_charge_is_named_by_the_subscription_and_the_event():
    job = Job("wh_1", "acct", EVENT, 0.0)
    assert charge_id(job) == f"webhook.wh_1.{EVENT['id']}"


def test_the_scheduler_queues_each_due_event_once_and_none_from_before_the_subscription(tmp_path):
    async def scenario(store, receiver, account, webhook):
        chart = await store.create_chart(StoredChart(new_chart_id(), account.id, "Ada", dict(BIRTH), {}, dict(BIRTH)), limit=5)
        created = datetime(2026, 11, 26, tzinfo=UTC)
        subscription = Webhook(new_webhook_id(), account.id, receiver.url, ("transit", "void_of_course"), chart.chart_id, 30, new_secret(),
                               created_at=created)
        await store.delete_webhook(account.id, webhook.webhook_id)
        await store.create_webhook(subscription, limit=5)
        queued: list[Job] = []

        async def enqueue(job: Job) -> None:
            queued.append(job)

        scheduler = Scheduler(store, WorkerSettings(), enqueue)
        now = created.timestamp() + 86400
        await scheduler.tick(now - 1)
        first = list(queued)
        await scheduler.tick(now)
        return created.timestamp(), now, first, queued

    created_s, now, first, queued = with_store(tmp_path, scenario)
    assert first and len({j.event_id for j in queued}) == len(queued)
    assert all(created_s <= j.due_at_s <= now for j in queued)


def test_the_local_queue_hands_out_jobs_when_due_in_order():
    queue = LocalQueue()
    early, late = Job("wh_a", "x", EVENT, 0.0), Job("wh_b", "x", EVENT, 0.0)

    async def fill():
        await queue.put(late, 20.0, 2)
        await queue.put(early, 10.0, 1)

    asyncio.run(fill())
    assert queue.take(5.0) is None
    assert queue.take(15.0) == (early, 1)
    assert queue.take(25.0) == (late, 2) and queue.take(25.0) is None


def test_the_settings_come_from_the_deployments_and_the_ack_wait_exceeds_the_timeout():
    read = WorkerSettings.of(load_settings({"CELESTIAL_WEBHOOK_TICK_S": "1.5", "CELESTIAL_WEBHOOK_CONCURRENCY": "3"}))
    assert (read.tick_s, read.concurrency, read.retry_for_s, read.timeout_s) == (1.5, 3, 86400.0, 10.0)
    with pytest.raises(ValueError):
        WorkerSettings.of(load_settings({"CELESTIAL_WEBHOOK_ACK_WAIT_S": "5"}))


def test_the_heartbeat_file_is_touched_when_one_is_set(tmp_path):
    path = tmp_path / "alive"
    beat(WorkerSettings(heartbeat_path=str(path)))
    assert path.exists()
    beat(WorkerSettings())  # none set: nothing to touch


def test_a_2xx_is_marked_however_long_the_store_takes_to_come_back():
    from webhooks.worker import persist
    from store.errors import StoreUnavailable

    calls = []

    async def write():
        calls.append(1)
        if len(calls) < 3:
            raise StoreUnavailable("NATS restarting")

    asyncio.run(persist(write, WORKER))
    assert len(calls) == 3


def test_a_subscription_that_pauses_itself_mails_the_accounts_owners(tmp_path):
    from datetime import datetime as moment

    from tests.smtp_sink import SmtpSink

    sink = SmtpSink().start()
    try:
        mailing = replace(SETTINGS, smtp_url=sink.url)

        async def scenario(store, receiver, account, webhook):
            await store.invite_owner(account.id, "owner@example.com", "0" * 64, moment.now(UTC) + timedelta(days=1))
            await store.reserve(account.id, 10, "spend-it-all")
            await deliver(store, mailing, WORKER, a_job(webhook), 1)

        with_store(tmp_path, scenario)
        deadline = time.monotonic() + 5
        while not sink.messages and time.monotonic() < deadline:
            time.sleep(0.05)
        (message,) = sink.messages
        assert message["To"] == "owner@example.com" and "paused" in message["Subject"]
        assert webhook_text_names_the_reason(message.get_content())
    finally:
        sink.stop()


def webhook_text_names_the_reason(text: str) -> bool:
    return "no credits left" in text and '{"state": "active"}' in text
