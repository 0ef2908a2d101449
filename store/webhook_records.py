"""Webhook subscriptions (issue 40, part 3): what an account asks to be told, where, and the
deliveries made to it.

A subscription (:class:`Webhook`) names a URL, the event kinds wanted, a stored chart (or none:
the sky in general) and a lead in minutes; it is active, paused (by its owner, by 72 hours of
failed deliveries, or by an account out of credits) or ended (its chart was deleted). An ended
subscription is final: it can be read, listed and deleted, never changed again
(:func:`replacement`), so no write made from an earlier reading brings it back. Its ``secret``
signs every delivery with HMAC-SHA256, so the store must keep the secret itself, not a digest
of it: it is kept out of every repr (and so out of every log), shown to the owner once at
creation and once on each rotation, and never again.

A :class:`Delivery` is one attempt at one event (or a test), with its HTTP status (None: no
answer within the timeout, or no connection), response time and attempt number; a store keeps
the last :data:`KEEP_DELIVERIES` of each subscription. Once an event of a subscription was
answered 2xx it is marked delivered (``mark_delivered``) and never sent again.
"""

from __future__ import annotations

import base64
import re
import secrets
import time
from dataclasses import dataclass, field, replace
from datetime import datetime

from store.errors import StoreError
from store.records import from_unix_s, utc_now

#: A subscription id: ``wh_``, 13 hex digits of the creation time in microseconds (ids sort in
#: the order subscriptions were made), then 8 random hex digits.
WEBHOOK_ID_RE = re.compile(r"wh_[0-9a-f]{13}[0-9a-f]{8}")
#: An event id as the store takes it (the forecast's ``fc_`` ids, the sky's ``sky_`` ids, a
#: test's ``test_``): letters, digits, ``_`` and ``-``, so it is a NATS key token as it stands.
EVENT_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most subscriptions one account keeps (CELESTIAL_WEBHOOKS_PER_ACCOUNT may change it).
DEFAULT_WEBHOOKS_PER_ACCOUNT = 100
#: The deliveries kept per subscription, newest first (what the API and the dashboard show).
KEEP_DELIVERIES = 50
#: The longest URL, in characters.
MAX_URL_CHARS = 2000
#: The longest lead: a week, in minutes.
MAX_LEAD_MINUTES = 7 * 24 * 60
#: How long (seconds) an event stays marked delivered: past the longest lead plus the 72 hours
#: of retries (webhooks/timing.py's ``RETRY_FOR_S``, which the store may not import) and a day
#: to spare, no scheduler can bring the event back.
DELIVERED_MARK_S = (MAX_LEAD_MINUTES * 60) + 4 * 86400
#: The random bytes of a signing secret: Standard Webhooks asks for 24 to 64; 32 is the
#: HMAC-SHA256 output's length, the key length RFC 2104 (section 3) recommends as a minimum.
SECRET_BYTES = 32

ACTIVE, PAUSED, ENDED = "active", "paused", "ended"
STATES = (ACTIVE, PAUSED, ENDED)
#: Why a subscription is paused: its owner paused it, its deliveries failed for 72 hours, or
#: its account ran out of credits.
BY_OWNER, FAILING, NO_CREDITS = "paused_by_owner", "failing_for_72_hours", "out_of_credits"
PAUSE_REASONS = ("", BY_OWNER, FAILING, NO_CREDITS)
#: Reasons stored by earlier versions, and what they read as now: a subscription paused when
#: retries lasted 24 hours was paused for failing, as one is now.
FORMER_PAUSE_REASONS = {"failing_for_24_hours": FAILING}
#: Why a subscription ended: the stored chart it names was deleted (issue 46, part 5).
CHART_DELETED = "chart_deleted"
END_REASONS = (CHART_DELETED,)


class WebhookLimitReached(StoreError, ValueError):
    """The account keeps as many subscriptions as it may."""

    def __init__(self, limit: int):
        super().__init__(f"the account keeps {limit} webhook subscriptions, the most it may")
        self.limit = limit


@dataclass(frozen=True)
class Webhook:
    """A subscription: deliver ``events`` (kinds) of chart ``chart_id`` (None: the sky's) to
    ``url``, ``lead_minutes`` before each event's instant, signed with ``secret``. ``state`` is
    ``active``, ``paused`` or ``ended`` (``paused_reason`` says why it is not active: one of
    :data:`PAUSE_REASONS` or :data:`END_REASONS`); ``failing_since`` is when its current run of
    failed attempts began (None while deliveries succeed). Instants are aware UTC."""

    webhook_id: str
    account_id: str
    url: str
    events: tuple[str, ...]
    chart_id: str | None
    lead_minutes: int
    secret: str = field(repr=False)  # signs every delivery: never in a repr, so never in a log
    state: str = ACTIVE
    paused_reason: str = ""
    failing_since: datetime | None = None
    created_at: datetime = field(default_factory=utc_now)
    updated_at: datetime = field(default_factory=utc_now)


@dataclass(frozen=True)
class Delivery:
    """One attempt to deliver event ``event_id`` of subscription ``webhook_id``: its attempt
    number (1 first), the HTTP ``status`` answered (None: no answer or no connection, ``error``
    says which), the response time ``response_ms`` (milliseconds), when it was made, and
    whether it was a test (free, and never marks the event delivered)."""

    webhook_id: str
    event_id: str
    attempt: int
    status: int | None
    response_ms: float
    at: datetime = field(default_factory=utc_now)
    test: bool = False
    error: str = ""

    @property
    def succeeded(self) -> bool:
        """Return whether the receiver answered 2xx."""
        return self.status is not None and 200 <= self.status < 300


_last_micros = 0


def new_webhook_id() -> str:
    """Return a new subscription id (see :data:`WEBHOOK_ID_RE`), increasing within a process."""
    global _last_micros
    _last_micros = max(time.time_ns() // 1000, _last_micros + 1)
    return f"wh_{_last_micros:013x}{secrets.token_hex(4)}"


def new_secret() -> str:
    """Return a new signing secret as Standard Webhooks serializes one: ``whsec_`` and the
    base64 (padded) of :data:`SECRET_BYTES` random bytes. The HMAC is keyed with those bytes
    (webhooks/signing.py). Secrets made before issue 46 (``whsec_`` and 64 hex digits) are
    base64 too, of 48 bytes, and are kept until their owner rotates them."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def is_webhook_id(text: object) -> bool:
    """Return whether ``text`` has the shape of a subscription id."""
    return isinstance(text, str) and WEBHOOK_ID_RE.fullmatch(text) is not None


def is_event_id(text: object) -> bool:
    """Return whether ``text`` can name an event in the store."""
    return isinstance(text, str) and EVENT_ID_RE.fullmatch(text) is not None


def check_webhook(webhook: Webhook) -> Webhook:
    """Return ``webhook`` when it is within the store's bounds; raises ValueError otherwise
    (the gateway refuses such input, with its reasons, before it reaches the store)."""
    if not is_webhook_id(webhook.webhook_id):
        raise ValueError(f"not a webhook id: {webhook.webhook_id[:40]!r}")
    if not isinstance(webhook.url, str) or not 0 < len(webhook.url) <= MAX_URL_CHARS:
        raise ValueError(f"a webhook's url has 1 to {MAX_URL_CHARS} characters")
    if not webhook.events or not all(isinstance(kind, str) and kind for kind in webhook.events):
        raise ValueError("a webhook wants at least one kind of event")
    if not isinstance(webhook.lead_minutes, int) or not 0 <= webhook.lead_minutes <= MAX_LEAD_MINUTES:
        raise ValueError(f"a webhook's lead is 0 to {MAX_LEAD_MINUTES} minutes")
    if webhook.state not in STATES:
        raise ValueError(f"a webhook is one of {STATES}")
    reasons = END_REASONS if webhook.state == ENDED else PAUSE_REASONS
    if webhook.paused_reason not in reasons:
        raise ValueError(f"a webhook {webhook.state} is so for one of {reasons}")
    if not webhook.secret:
        raise ValueError("a webhook has a secret")
    return webhook


def replacement(kept: Webhook, wanted: Webhook) -> Webhook | None:
    """Return what a store writes over subscription ``kept`` when asked to write ``wanted``:
    ``wanted``, or None (nothing written) when ``kept`` has ended, which is final."""
    return None if kept.state == ENDED else wanted


def ended(webhook: Webhook, reason: str, now: datetime) -> Webhook:
    """Return ``webhook`` ended for ``reason`` at ``now``: nothing of it is delivered again, and
    it no longer counts as failing."""
    return replace(webhook, state=ENDED, paused_reason=reason, failing_since=None, updated_at=now)


def check_delivery(delivery: Delivery) -> Delivery:
    """Return ``delivery`` when its ids can be stored; raises ValueError otherwise."""
    if not is_webhook_id(delivery.webhook_id) or not is_event_id(delivery.event_id) or delivery.attempt < 1:
        raise ValueError("a delivery names a webhook, an event and an attempt from 1")
    return delivery


def _s(instant: datetime | None) -> float | None:
    return None if instant is None else instant.timestamp()


def webhook_document(webhook: Webhook) -> dict:
    """Return the subscription as the JSON document the stores keep (instants as Unix seconds)."""
    return {
        "webhook_id": webhook.webhook_id,
        "account_id": webhook.account_id,
        "url": webhook.url,
        "events": list(webhook.events),
        "chart_id": webhook.chart_id,
        "lead_minutes": webhook.lead_minutes,
        "secret": webhook.secret,
        "state": webhook.state,
        "paused_reason": webhook.paused_reason,
        "failing_since_s": _s(webhook.failing_since),
        "created_at_s": _s(webhook.created_at),
        "updated_at_s": _s(webhook.updated_at),
    }


def webhook_of(document: dict) -> Webhook:
    """Return the subscription a document of :func:`webhook_document` holds."""
    return Webhook(
        document["webhook_id"],
        document["account_id"],
        document["url"],
        tuple(document["events"]),
        document["chart_id"],
        document["lead_minutes"],
        document["secret"],
        document["state"],
        FORMER_PAUSE_REASONS.get(document["paused_reason"], document["paused_reason"]),
        from_unix_s(document["failing_since_s"]),
        from_unix_s(document["created_at_s"]),
        from_unix_s(document["updated_at_s"]),
    )


def delivery_document(delivery: Delivery) -> dict:
    """Return the delivery as the JSON document the stores keep."""
    return {
        "webhook_id": delivery.webhook_id,
        "event_id": delivery.event_id,
        "attempt": delivery.attempt,
        "status": delivery.status,
        "response_ms": delivery.response_ms,
        "at_s": delivery.at.timestamp(),
        "test": delivery.test,
        "error": delivery.error,
    }


def delivery_of(document: dict) -> Delivery:
    """Return the delivery a document of :func:`delivery_document` holds."""
    return Delivery(
        document["webhook_id"],
        document["event_id"],
        document["attempt"],
        document["status"],
        document["response_ms"],
        from_unix_s(document["at_s"]),
        document["test"],
        document["error"],
    )
