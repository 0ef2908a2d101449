"""Webhook subscriptions (issue 40, part 3): ``/v1/webhooks`` asks Celestial to POST events to
a URL, ``lead_minutes`` before each event's instant, signed with a secret of the subscription.

- ``POST /v1/webhooks`` ``{url, events, chart?, lead_minutes?}``: ``events`` are kinds of
  ``/v1/forecast`` for a subscription naming a stored ``chart``, and of :data:`SKY_KINDS` for
  the sky in general (no chart). The answer holds the ``secret``, shown this once (and in its
  replay to a retry under the same ``Idempotency-Key``: ``gateway/idempotency.py``
  ``created_once``).
- ``GET /v1/webhooks`` (the account's subscriptions), ``GET``/``PATCH``/``DELETE
  /v1/webhooks/{id}`` (``PATCH {"state": "paused"}`` pauses, ``{"state": "active"}`` resumes),
  ``POST /v1/webhooks/{id}/rotate-secret`` (a new secret, shown once; the old one signs
  nothing from then on), ``POST /v1/webhooks/{id}/test`` (one signed delivery now of the
  subscription's next event, marked as a test: ``gateway/upcoming_events.py``; answered with
  its outcome; free) and ``GET /v1/webhooks/{id}/deliveries`` (the recent attempts, newest
  first, with status and response time).
- A subscription whose stored chart was deleted has ended (``DELETE /v1/charts/{id}`` ends
  them): it is read, listed and deleted, and 409 ``webhook_ended`` to anything else.

The URL must be ``https`` to a host whose every address is public (``webhooks/egress.py``,
checked here when a subscription is made and again at every delivery); development mode
(``CELESTIAL_MODE``, which ``make run`` is) also takes the loopback (``localhost``,
``127.0.0.0/8``, ``::1``), over ``http`` too, for a receiver on the developer's machine.
Every route is free and counts under the account's limits like any request; the deliveries
cost 1 credit each (``docs/webhooks.md``).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from starlette.responses import Response

from celestial.v1 import account_service_pb2
from gateway.account_resources import Answer, Call, account_routes
from gateway.errors import request_id_of
from gateway.idempotency import LEASE_MARGIN_S, created_once
from gateway.rate_limit_fields import WEBHOOK_DELIVERIES_POLICY
from gateway.upcoming_events import WINDOW_ENDS_DAYS, as_test, forecast_asker, next_event
from gateway.utc_text import iso
from kernel.forecast import ECLIPSE, INGRESS, KINDS, LUNATION, STATION
from shared.errors import (
    ChartNotFound,
    InvalidBody,
    InvalidParameter,
    MissingParameter,
    NoUpcomingEvent,
    RateLimitExceeded,
    WebhookEnded,
    WebhookLimitReached,
    WebhookNotFound,
)
from store import webhook_records
from store.chart_records import is_chart_id
from store.records import Account, utc_now
from store.webhook_records import (
    ACTIVE,
    BY_OWNER,
    ENDED,
    KEEP_DELIVERIES,
    MAX_LEAD_MINUTES,
    PAUSED,
    Delivery,
    Webhook,
    is_webhook_id,
    new_secret,
    new_webhook_id,
)
from webhooks.delivery import delivery_body, send
from webhooks.egress import EgressRefused, Resolver, Target, checked_addresses, read_url, system_resolver

WEBHOOKS_PATH = "/v1/webhooks"
WEBHOOK_PATH = "/v1/webhooks/{webhook_id}"
WEBHOOK_TEST_PATH = "/v1/webhooks/{webhook_id}/test"
WEBHOOK_ROTATE_PATH = "/v1/webhooks/{webhook_id}/rotate-secret"
WEBHOOK_DELIVERIES_PATH = "/v1/webhooks/{webhook_id}/deliveries"
#: The kinds a subscription to the sky in general may want: the events that concern no chart.
SKY_KINDS = (INGRESS, STATION, LUNATION, ECLIPSE)
#: The kinds a subscription naming a stored chart may want: every kind of /v1/forecast.
CHART_KINDS = KINDS
#: The members of a subscription's body: its request's fields (account_service.proto).
MEMBERS = tuple(account_service_pb2.CreateWebhookRequest.DESCRIPTOR.fields_by_name)


def webhook_view(webhook: Webhook) -> dict[str, Any]:
    """Return a subscription as the API shows it (never its secret)."""
    return {
        "id": webhook.webhook_id,
        "url": webhook.url,
        "events": list(webhook.events),
        "chart": webhook.chart_id,
        "lead_minutes": webhook.lead_minutes,
        "state": webhook.state,
        "paused_reason": webhook.paused_reason or None,
        "failing_since": iso(webhook.failing_since) if webhook.failing_since else None,
        "created_at": iso(webhook.created_at),
        "updated_at": iso(webhook.updated_at),
    }


def delivery_view(delivery: Delivery) -> dict[str, Any]:
    """Return one delivery attempt as the API shows it."""
    return {
        "event_id": delivery.event_id,
        "attempt": delivery.attempt,
        "status": delivery.status,
        "succeeded": delivery.succeeded,
        "response_ms": delivery.response_ms,
        "error": delivery.error or None,
        "test": delivery.test,
        "sent_at": iso(delivery.at),
    }


# --- reading a subscription ---------------------------------------------------------------------


def read_target(url: Any, development: bool) -> Target:
    """Return what ``url`` names when a subscription may deliver to it whatever its host
    resolves to (webhooks/egress.py, read without the network). 400 naming the rule otherwise."""
    try:
        return read_url(url, development)
    except EgressRefused as refused:
        raise _invalid_url(refused) from None


async def check_addresses(target: Target, development: bool, resolve: Resolver) -> None:
    """Return when every address ``target``'s host resolves to (``resolve``; none asked for
    an IP literal) may be delivered to; 400 naming the rule otherwise."""
    try:
        await checked_addresses(target, development, resolve)
    except EgressRefused as refused:
        raise _invalid_url(refused) from None


def _invalid_url(refused: EgressRefused) -> InvalidParameter:
    return InvalidParameter(refused.message, suggestion=refused.suggestion, param="url")


def check_events(events: Any, chart_id: str | None) -> tuple[str, ...]:
    """Return the kinds wanted, in the forecast's order: a non-empty array of the forecast's
    kinds for a chart subscription, of :data:`SKY_KINDS` for a sky one. 400 otherwise."""
    allowed = CHART_KINDS if chart_id is not None else SKY_KINDS
    whose = "a chart subscription" if chart_id is not None else "a sky subscription (no chart)"
    suggestion = f"Send events as an array of {', '.join(allowed)}."
    if not isinstance(events, list) or not events or not all(isinstance(kind, str) for kind in events):
        raise InvalidParameter(
            "'events' must be a non-empty array of event kinds.", suggestion=suggestion, param="events"
        )
    unknown = [kind for kind in events if kind not in allowed]
    if unknown:
        raise InvalidParameter(
            f"'{unknown[0][:40]}' is not a kind of event for {whose}.", suggestion=suggestion, param="events"
        )
    return tuple(kind for kind in allowed if kind in events)


def check_lead(lead: Any) -> int:
    """Return the lead in minutes, a whole number from 0 to :data:`MAX_LEAD_MINUTES`; 400 otherwise."""
    if isinstance(lead, bool) or not isinstance(lead, int) or not 0 <= lead <= MAX_LEAD_MINUTES:
        raise InvalidParameter(
            f"'lead_minutes' must be a whole number from 0 to {MAX_LEAD_MINUTES} (a week).",
            suggestion="Send e.g. lead_minutes=60 for an hour before each event, 0 for the instant itself.",
            param="lead_minutes",
        )
    return lead


async def read_subscription(
    body: Any,
    account: Account,
    store,
    development: bool,
    resolve: Resolver = system_resolver,
) -> tuple[str, tuple[str, ...], str | None, int]:
    """Return (url, events, chart id or None, lead) of a subscription's body, its URL's host
    resolved with ``resolve`` and every address checked. 400 or 404."""
    if not isinstance(body, dict):
        raise InvalidBody(
            "The body must be a JSON object.",
            suggestion='Send {"url": "https://example.com/hook", "events": ["lunation"], "lead_minutes": 60}.',
        )
    for key in body:
        if key not in MEMBERS:
            raise InvalidParameter(
                f"Unknown member '{str(key)[:40]}' for a webhook subscription.",
                suggestion=f"Send {', '.join(MEMBERS)}.",
                param=str(key)[:40],
            )
    for required in ("url", "events"):
        if body.get(required) is None:
            raise MissingParameter(
                f"'{required}' is required.", suggestion=f"Send {required} in the body.", param=required
            )
    chart_id = body.get("chart")
    if chart_id is not None:
        if not isinstance(chart_id, str):
            raise InvalidParameter(
                "'chart' must be a stored chart's id (a string).",
                suggestion='Send chart as "chart_...".',
                param="chart",
            )
        if not is_chart_id(chart_id) or await store.get_chart(account.id, chart_id) is None:
            raise ChartNotFound("'chart' names no stored chart of this account.", param="chart")
    target = read_target(body["url"], development)
    events = check_events(body["events"], chart_id)
    lead = check_lead(body.get("lead_minutes", 0))
    # Resolved last, once the body is otherwise sound: the one step that may wait on DNS.
    await check_addresses(target, development, resolve)
    return target.url, events, chart_id, lead


# --- the routes ----------------------------------------------------------------------------------


async def _found(gateway, account: Account, webhook_id: str) -> Webhook:
    webhook = await gateway.store.get_webhook(account.id, webhook_id) if is_webhook_id(webhook_id) else None
    if webhook is None:
        raise WebhookNotFound("No webhook subscription of this account has that id.")
    return webhook


async def _named(call: Call) -> Webhook:
    """Return the subscription the call's path names; 404 ``webhook_not_found``."""
    return await _found(call.gateway, call.account, call.request.path_params["webhook_id"])


def _not_ended(webhook: Webhook) -> Webhook:
    """Return ``webhook`` unless it has ended (its chart was deleted): 409 ``webhook_ended``,
    since an ended subscription is never resumed, changed or tested."""
    if webhook.state == ENDED:
        raise WebhookEnded(
            f"This subscription ended ({webhook.paused_reason}): the stored chart it named was deleted, so it is never "
            "resumed, changed or tested again.",
        )
    return webhook


async def _replaced(gateway, account: Account, changed: Webhook) -> Webhook:
    """Return ``changed`` once the store has written it over the subscription; 404 when the
    subscription was deleted meanwhile, 409 ``webhook_ended`` when it ended meanwhile."""
    if await gateway.store.replace_webhook(changed) is None:
        _not_ended(await _found(gateway, account, changed.webhook_id))
        raise WebhookNotFound("No webhook subscription of this account has that id.")
    return changed


async def _listing(call: Call) -> Answer:
    """GET /v1/webhooks: the account's subscriptions."""
    return Answer({"webhooks": [webhook_view(w) for w in await call.gateway.store.list_webhooks(call.account.id)]})


async def _creation(call: Call) -> Response:
    """POST /v1/webhooks: subscribe (once per Idempotency-Key)."""
    gateway, account = call.gateway, call.account

    async def create() -> Response:
        url, events, chart_id, lead = await read_subscription(
            call.body, account, gateway.store, not gateway.settings.production, gateway.resolve
        )
        webhook = Webhook(new_webhook_id(), account.id, url, events, chart_id, lead, new_secret())
        try:
            await gateway.store.create_webhook(webhook, gateway.settings.webhooks_per_account)
        except webhook_records.WebhookLimitReached as full:
            raise WebhookLimitReached(
                f"This account keeps {full.limit} webhook subscriptions, the most it may."
            ) from None
        data = {**webhook_view(webhook), "secret": webhook.secret}
        return await call.answered(Answer(data, {"Location": f"{WEBHOOKS_PATH}/{webhook.webhook_id}"}))

    # A retry under the same Idempotency-Key answers the first subscription, its secret
    # included: only the key's holder, within its 24 hours, sees that answer again.
    lease_s = gateway.settings.fast_deadline_s + LEASE_MARGIN_S
    return await created_once(call.request, gateway.idempotency, account.id, WEBHOOKS_PATH, call.body, lease_s, create)


async def _reading(call: Call) -> Answer:
    """GET /v1/webhooks/{id}: one subscription."""
    return Answer(webhook_view(await _named(call)))


async def _change(call: Call) -> Answer:
    """PATCH /v1/webhooks/{id}: ``{"state": "paused"|"active"}``."""
    body = call.body
    suggestion = 'Send {"state": "paused"} to pause, {"state": "active"} to resume.'
    if not isinstance(body, dict):
        raise InvalidBody("The body must be a JSON object.", suggestion=suggestion)
    for key in body:
        if key != "state":
            raise InvalidParameter(
                f"Unknown member '{str(key)[:40]}': a subscription changes only its state.",
                suggestion=suggestion,
                param=str(key)[:40],
            )
    if body.get("state") not in (ACTIVE, PAUSED):
        raise InvalidParameter("'state' must be active or paused.", suggestion=suggestion, param="state")
    webhook = _not_ended(await _named(call))
    if body["state"] == PAUSED:
        changed = replace(webhook, state=PAUSED, paused_reason=BY_OWNER, updated_at=utc_now())
    else:
        # Resuming starts afresh: the failures that paused it no longer count.
        changed = replace(webhook, state=ACTIVE, paused_reason="", failing_since=None, updated_at=utc_now())
    return Answer(webhook_view(await _replaced(call.gateway, call.account, changed)))


async def _deletion(call: Call) -> Answer:
    """DELETE /v1/webhooks/{id}."""
    webhook_id = call.request.path_params["webhook_id"]
    if not (is_webhook_id(webhook_id) and await call.gateway.store.delete_webhook(call.account.id, webhook_id)):
        raise WebhookNotFound("No webhook subscription of this account has that id.")
    return Answer({"id": webhook_id, "deleted": True})


async def _rotation(call: Call) -> Answer:
    """POST /v1/webhooks/{id}/rotate-secret: a new secret, shown this once."""
    webhook = _not_ended(await _named(call))
    rotated = await _replaced(call.gateway, call.account, replace(webhook, secret=new_secret(), updated_at=utc_now()))
    return Answer({**webhook_view(rotated), "secret": rotated.secret})


async def _sent_under_the_accounts_bound(gateway, account: Account, webhook: Webhook, body: bytes, event_id: str):
    """Return the outcome of the test delivery, sent as the worker sends (one deadline, the
    egress checked), holding one of the account's slots of this gateway process; 429 at once,
    never waiting, when the account has them all in flight."""
    slots = gateway.webhook_slots
    timeout_s = gateway.settings.webhook_timeout_s
    if not slots.take(account.id):
        raise RateLimitExceeded(
            f"This account has {slots.per_account} webhook deliveries in flight on this server, the most it may have "
            f"at once.",
            suggestion=(
                f"Retry after the number of seconds in Retry-After: a delivery ends within its {timeout_s:g} s "
                f"deadline."
            ),
            retry_after_s=math.ceil(timeout_s),
            violated_policies=(WEBHOOK_DELIVERIES_POLICY,),
        )
    try:
        return await send(
            webhook.url,
            body,
            webhook.secret,
            event_id,
            1,
            timeout_s,
            development=not gateway.settings.production,
            resolve=gateway.resolve,
        )
    finally:
        slots.give_back(account.id)


async def _testing(call: Call) -> Answer:
    """POST /v1/webhooks/{id}/test: one signed test delivery sent now, paused or not, of the
    subscription's next event (``gateway/upcoming_events.py``: its real shape, ``test: true``
    and an id of its own), recorded among the recent deliveries, answered with its outcome;
    409 ``no_upcoming_event`` (nothing sent) when none falls in the next ten years. Free."""
    gateway, account = call.gateway, call.account
    webhook = _not_ended(await _named(call))
    # The next event still to be delivered: those due before now (their instant within the
    # lead) are being delivered already.
    from_s = time.time() + 60.0 * webhook.lead_minutes
    ask = forecast_asker(gateway, account, webhook.chart_id, request_id_of(call.request))
    upcoming = await next_event(ask, webhook.events, webhook.chart_id, from_s)
    if upcoming is None:
        raise NoUpcomingEvent(
            f"No event of this subscription's kinds ({', '.join(webhook.events)}) falls in the next "
            f"{WINDOW_ENDS_DAYS[-1] // 365} years, so there is none to test with; nothing was sent.",
        )
    event = as_test(upcoming)
    event_id = event["id"]
    body = delivery_body(webhook.webhook_id, event, webhook.chart_id, 1, test=True)
    outcome = await _sent_under_the_accounts_bound(gateway, account, webhook, body, event_id)
    delivery = Delivery(
        webhook.webhook_id, event_id, 1, outcome.status, outcome.response_ms, test=True, error=outcome.error
    )
    await gateway.store.record_delivery(delivery)
    return Answer(delivery_view(delivery))


async def _deliveries(call: Call) -> Answer:
    """GET /v1/webhooks/{id}/deliveries: the recent attempts, newest first."""
    webhook = await _named(call)
    deliveries = await call.gateway.store.recent_deliveries(webhook.webhook_id, KEEP_DELIVERIES)
    return Answer({"deliveries": [delivery_view(d) for d in deliveries]})


#: The webhook subscriptions' routes (account_service.proto).
ROUTES = account_routes(
    {
        "ListWebhooks": _listing,
        "CreateWebhook": _creation,
        "GetWebhook": _reading,
        "UpdateWebhook": _change,
        "DeleteWebhook": _deletion,
        "RotateWebhookSecret": _rotation,
        "TestWebhook": _testing,
        "ListWebhookDeliveries": _deliveries,
    }
)
