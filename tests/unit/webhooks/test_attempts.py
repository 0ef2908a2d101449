"""webhooks/attempts.py: a due event is delivered signed, charged 1 credit once, and never
again after a 2xx, signed as Standard Webhooks says (the specification's own library verifies
it); a failure is retried after the jittered backoff, given up (refunded) once retries end
(72 hours by default); a subscription failing that long or out of credits pauses, and mails
its owners."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import orjson
from standardwebhooks import Webhook as StandardWebhook

from store.errors import StoreUnavailable
from store.webhook_records import FAILING, NO_CREDITS, PAUSED
from tests.unit.webhooks.scenarios import EVENT, SETTINGS, WORKER, a_job, with_store
from webhooks.attempts import charge_id, deliver, persist, spelled_duration
from webhooks.jobs import Job
from webhooks.signing import verify_signature


def test_a_delivery_is_a_signed_post_of_the_event_charged_one_credit_and_never_sent_again(tmp_path):
    async def scenario(store, receiver, account, webhook):
        job = a_job(webhook)
        assert await deliver(store, SETTINGS, WORKER, job, 1) is None
        assert await deliver(store, SETTINGS, WORKER, job, 2) is None  # delivered: nothing more
        (got,) = receiver.received
        body = orjson.loads(got.body)
        assert StandardWebhook(webhook.secret).verify(got.body, got.headers) == body
        assert verify_signature(got.body, got.headers, webhook.secret)
        assert (got.headers["webhook-id"], got.headers["celestial-attempt"]) == (EVENT["id"], "1")
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
        # Equal jitter: between half the backoff's ceiling (2 s, then 4 s) and all of it.
        assert 1.0 <= await deliver(store, SETTINGS, WORKER, job, 1) <= 2.0
        assert 2.0 <= await deliver(store, SETTINGS, WORKER, job, 2) <= 4.0
        assert (await store.get_webhook(account.id, webhook.webhook_id)).failing_since is not None
        receiver.status = 204
        assert await deliver(store, SETTINGS, WORKER, job, 3) is None
        assert [r.answered for r in receiver.received] == [500, 500, 204]
        assert [d.attempt for d in await store.recent_deliveries(webhook.webhook_id, 10)] == [3, 2, 1]
        assert await store.balance(account.id) == 9
        assert (await store.get_webhook(account.id, webhook.webhook_id)).failing_since is None

    with_store(tmp_path, scenario)


def test_a_delivery_failing_past_its_retries_is_given_up_and_refunded(tmp_path):
    async def scenario(store, receiver, account, webhook):
        receiver.status = 503
        job = a_job(webhook, due_at_s=time.time() - WORKER.retry_for_s + 1)
        assert await deliver(store, SETTINGS, WORKER, job, 5) is None
        assert await store.balance(account.id) == 10
        assert not await store.is_delivered(webhook.webhook_id, EVENT["id"])

    with_store(tmp_path, scenario)


def test_a_subscription_failing_as_long_as_retries_last_pauses_itself(tmp_path):
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


def test_a_2xx_is_marked_however_long_the_store_takes_to_come_back():
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


def test_the_pause_mail_says_how_long_the_deliveries_failed():
    assert [spelled_duration(s) for s in (72 * 3600, 7200, 600, 60)] == [
        "72 hours",
        "2 hours",
        "10 minutes",
        "1 minute",
    ]


def webhook_text_names_the_reason(text: str) -> bool:
    return "no credits left" in text and '{"state": "active"}' in text
