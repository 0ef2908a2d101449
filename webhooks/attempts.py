"""One attempt at a due delivery (:func:`deliver`): the subscription still wanted, one credit
reserved, the signed POST, its outcome recorded, and whether and when to try again; a
subscription paused (out of credits, or failing for as long as retries last) mails its owners."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import structlog

from shared.errors import InsufficientCredits
from shared.runtime.config import Settings
from shared.runtime.mail import mail_owners
from store.errors import StoreError
from store.records import ChargeNote, utc_now
from store.webhook_records import ACTIVE, FAILING, NO_CREDITS, PAUSED, Delivery, Webhook
from webhooks import delivery_metrics
from webhooks.delivery import delivery_body, send
from webhooks.jobs import Job
from webhooks.settings import WorkerSettings
from webhooks.timing import RETRY_FOR_S, failing_too_long, retry_delay_s, still_retried

log = structlog.get_logger("webhook_worker")

#: The ledger row's endpoint of a delivered event.
CHARGED_AS = "/v1/webhooks"
#: Credits one delivered event costs.
CREDITS_PER_EVENT = 1


async def notify(store, settings: Settings, account_id: str, subject: str, text: str) -> None:
    """Mail the account's owners; without CELESTIAL_SMTP_URL, or when the mail server refuses,
    the log keeps it."""
    for reason in await mail_owners(store, settings, account_id, subject, text):
        log.warning("webhook_notice_not_mailed", account_id=account_id, subject=subject, reason=reason)


def spelled_duration(seconds: float) -> str:
    """Return ``seconds`` as the mail says it: in hours from two hours up, else in minutes."""
    count, unit = (seconds / 3600, "hour") if seconds >= 7200 else (seconds / 60, "minute")
    return f"{count:g} {unit}{'' if count == 1 else 's'}"


async def pause(store, settings: Settings, webhook: Webhook, reason: str, failing_for_s: float = RETRY_FOR_S) -> None:
    """Pause the subscription for ``reason`` and mail the account's owners why (its deliveries
    failing for ``failing_for_s`` seconds, when that is the reason)."""
    paused = replace(webhook, state=PAUSED, paused_reason=reason, updated_at=utc_now())
    if await store.replace_webhook(paused) is None:
        return
    log.warning("webhook_paused", webhook_id=webhook.webhook_id, reason=reason)
    why = {
        FAILING: f"its deliveries have failed for {spelled_duration(failing_for_s)} (no 2xx answer, or none within the "
        "timeout)",
        NO_CREDITS: "the account has no credits left to pay for its deliveries (1 credit each)",
    }[reason]
    text = (
        f"Your webhook subscription {webhook.webhook_id} to {webhook.url} is paused: {why}.\n\n"
        f'Resume it with PATCH /v1/webhooks/{webhook.webhook_id} {{"state": "active"}} '
        "once it can be delivered again.\n"
    )
    await notify(store, settings, webhook.account_id, "Celestial: a webhook subscription is paused", text)


def charge_id(job: Job) -> str:
    """Return the request id a delivery's credit is reserved under: one per (subscription, event)."""
    return f"webhook.{job.webhook_id}.{job.event_id}"


async def persist(write, worker: WorkerSettings) -> None:
    """Run ``write()`` until the store takes it, trying again every half second while the
    store is unreachable, for at most ``retry_for_s`` (then its error is raised)."""
    deadline = time.monotonic() + worker.retry_for_s
    while True:
        try:
            await write()
            return
        except StoreError as error:
            if time.monotonic() >= deadline:
                raise
            log.warning("webhook_mark_retried", error=type(error).__name__)
            await asyncio.sleep(0.5)


async def deliver(store, settings: Settings, worker: WorkerSettings, job: Job, attempt: int) -> float | None:
    """Make attempt ``attempt`` at ``job``; return None when it is settled (delivered, given up,
    or no longer wanted), else the seconds after which to try again."""
    webhook = await store.get_webhook(job.account_id, job.webhook_id)
    request_id = charge_id(job)
    if await store.is_delivered(job.webhook_id, job.event_id):
        delivery_metrics.record_attempt(delivery_metrics.NOT_WANTED)
        return None
    if webhook is None or webhook.state != ACTIVE:
        # Deleted or paused between attempts: a credit reserved by an earlier one comes back.
        delivery_metrics.record_attempt(delivery_metrics.NOT_WANTED)
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        return None
    try:
        await store.reserve(job.account_id, CREDITS_PER_EVENT, request_id, ChargeNote(CHARGED_AS, "", request_id[:120]))
    except InsufficientCredits:
        delivery_metrics.record_attempt(delivery_metrics.NO_CREDITS)
        await pause(store, settings, webhook, NO_CREDITS)
        return None
    body = delivery_body(job.webhook_id, job.event, webhook.chart_id, attempt)
    outcome = await send(
        webhook.url, body, webhook.secret, job.event_id, attempt, worker.timeout_s, development=not settings.production
    )
    now = time.time()
    log.info(
        "webhook_delivery",
        webhook_id=job.webhook_id,
        event_id=job.event_id,
        attempt=attempt,
        status=outcome.status,
        response_ms=outcome.response_ms,
        late_s=round(now - job.due_at_s, 1),
    )
    delivery = Delivery(job.webhook_id, job.event_id, attempt, outcome.status, outcome.response_ms, error=outcome.error)
    if outcome.succeeded:
        delivery_metrics.record_delivered(job.due_at_s, now)
        # The 2xx is what must not be lost (a lost one means the event is sent again): its
        # mark is written however long the store takes to come back (a NATS restart), first.
        await persist(lambda: store.mark_delivered(job.webhook_id, job.event_id), worker)
        await store.record_delivery(delivery)
        if webhook.failing_since is not None:
            await store.replace_webhook(replace(webhook, failing_since=None))
        return None
    delivery_metrics.record_attempt(delivery_metrics.FAILED)
    await store.record_delivery(delivery)
    failing_since = webhook.failing_since or utc_now()
    if webhook.failing_since is None:
        await store.replace_webhook(replace(webhook, failing_since=failing_since))
    delay_s = retry_delay_s(attempt, worker.first_retry_s, worker.max_retry_s)
    if failing_too_long(failing_since.timestamp(), now, worker.retry_for_s):
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        await pause(store, settings, webhook, FAILING, worker.retry_for_s)
        return None
    if not still_retried(job.due_at_s, now + delay_s, worker.retry_for_s):
        await store.refund(job.account_id, CREDITS_PER_EVENT, request_id)
        log.warning("webhook_delivery_given_up", webhook_id=job.webhook_id, event_id=job.event_id, attempts=attempt)
        return None
    return delay_s
