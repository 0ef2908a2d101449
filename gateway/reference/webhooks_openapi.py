"""The OpenAPI text of webhook subscriptions (issue 40, part 3): the path items of
``/v1/webhooks`` and below, written by hand as gateway routes (``gateway/webhooks.py``)."""

from __future__ import annotations

from typing import Any

from gateway.reference.openapi_schemas import ref
from gateway.upcoming_events import WINDOW_ENDS_DAYS
from gateway.webhooks import (
    CHART_KINDS,
    SKY_KINDS,
    WEBHOOK_DELIVERIES_PATH,
    WEBHOOK_PATH,
    WEBHOOK_ROTATE_PATH,
    WEBHOOK_TEST_PATH,
    WEBHOOKS_PATH,
)
from store.webhook_records import (
    BY_OWNER,
    CHART_DELETED,
    DEFAULT_WEBHOOKS_PER_ACCOUNT,
    FAILING,
    KEEP_DELIVERIES,
    MAX_LEAD_MINUTES,
    MAX_URL_CHARS,
    NO_CREDITS,
    STATES,
)
from webhooks.signing import TOLERANCE_S

_ID = {
    "type": "string",
    "pattern": "^wh_[0-9a-f]{21}$",
    "description": "A webhook subscription's id (POST /v1/webhooks).",
}
_INSTANT = {"type": "string", "format": "date-time"}

WEBHOOK_SCHEMA = {
    "type": "object",
    "required": [
        "id",
        "url",
        "events",
        "chart",
        "lead_minutes",
        "state",
        "paused_reason",
        "failing_since",
        "created_at",
        "updated_at",
    ],
    "properties": {
        "id": _ID,
        "url": {"type": "string", "format": "uri"},
        "events": {"type": "array", "items": {"type": "string", "enum": list(CHART_KINDS)}},
        "chart": {
            "type": ["string", "null"],
            "description": "The stored chart whose events are delivered; null: the sky's.",
        },
        "lead_minutes": {"type": "integer", "minimum": 0, "maximum": MAX_LEAD_MINUTES},
        "state": {
            "type": "string",
            "enum": list(STATES),
            "description": (
                "ended: its stored chart was deleted; an ended subscription delivers nothing, is never resumed, and "
                "can be read, listed and deleted."
            ),
        },
        "paused_reason": {
            "type": ["string", "null"],
            "enum": [BY_OWNER, FAILING, NO_CREDITS, CHART_DELETED, None],
            "description": (
                f"Why it is not active: paused ({BY_OWNER}, {FAILING}, {NO_CREDITS}) or ended ({CHART_DELETED}); null "
                f"while active."
            ),
        },
        "failing_since": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "When the current run of failed attempts began.",
        },
        "created_at": _INSTANT,
        "updated_at": _INSTANT,
    },
}
WITH_SECRET_SCHEMA = {
    **WEBHOOK_SCHEMA,
    "required": [*WEBHOOK_SCHEMA["required"], "secret"],
    "properties": {
        **WEBHOOK_SCHEMA["properties"],
        "secret": {
            "type": "string",
            "description": (
                "The signing secret, whsec_ and the base64 of its bytes (Standard Webhooks' form), shown this once: "
                "keep it to verify deliveries."
            ),
        },
    },
}
DELIVERY_SCHEMA = {
    "type": "object",
    "required": ["event_id", "attempt", "status", "succeeded", "response_ms", "error", "test", "at"],
    "properties": {
        "event_id": {
            "type": "string",
            "description": (
                "The event's id, the same as in /v1/forecast (test_<8 hex>_<the event's id>: a test delivery)."
            ),
        },
        "attempt": {"type": "integer", "minimum": 1},
        "status": {"type": ["integer", "null"], "description": "The receiver's HTTP status; null when no answer came."},
        "succeeded": {"type": "boolean", "description": "Whether the status was 2xx."},
        "response_ms": {"type": "number", "description": "Milliseconds to the receiver's answer."},
        "error": {
            "type": ["string", "null"],
            "description": (
                "Why no answer came: the rule the destination broke (egress refused: <rule>), or a short phrase "
                "(timeout, connection refused, tls: certificate verify failed ...)."
            ),
        },
        "test": {"type": "boolean"},
        "at": _INSTANT,
    },
}
DELETED_SCHEMA = {
    "type": "object",
    "required": ["id", "deleted"],
    "properties": {"id": _ID, "deleted": {"type": "boolean", "const": True}},
}

_BODY = {
    "type": "object",
    "required": ["url", "events"],
    "additionalProperties": False,
    "properties": {
        "url": {
            "type": "string",
            "maxLength": MAX_URL_CHARS,
            "description": (
                "Where deliveries are POSTed: an https URL whose host is, or resolves only to, public unicast "
                "addresses "
                "(no loopback, private, link-local, carrier-grade NAT, unique-local, multicast, reserved or "
                "documentation "
                "address, in any spelling; no localhost, *.local or *.internal name), with no credentials, no "
                "fragment, no "
                "space or control character. Checked when subscribing and again at every delivery, which connects to "
                "the "
                "address checked. Development mode also takes the loopback (localhost, 127.0.0.0/8, ::1), over http "
                "too. "
                "A refused URL is 400 invalid_parameter naming the rule (docs/webhooks.md, Egress)."
            ),
        },
        "events": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "string", "enum": list(CHART_KINDS)},
            "description": (
                f"The kinds wanted: any of /v1/forecast's for a chart; {', '.join(SKY_KINDS)} for the sky (no chart)."
            ),
        },
        "chart": {
            "type": "string",
            "pattern": "^chart_[0-9a-f]{21}$",
            "description": "A stored chart of the account; leave out for the sky's events.",
        },
        "lead_minutes": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_LEAD_MINUTES,
            "default": 0,
            "description": "Deliver this long before each event's instant.",
        },
    },
}
_PATCH_BODY = {
    "type": "object",
    "required": ["state"],
    "additionalProperties": False,
    "properties": {
        "state": {"type": "string", "enum": ["active", "paused"], "description": "paused pauses, active resumes."}
    },
}

#: The body of a POST that takes none (rotation, a test): any body sent is ignored.
_NO_BODY = {
    "required": False,
    "content": {"application/json": {"schema": {"type": "object", "maxProperties": 0, "description": "No body."}}},
}

_REFUSALS = {
    "400": "invalid_parameter, missing_parameter, invalid_body",
    "401": "invalid_api_key",
    "403": "origin_not_allowed or origin_required",
    "404": "webhook_not_found (chart_not_found for a chart that names no stored chart)",
    "409": "webhook_limit_reached",
    "409-ended": "webhook_ended (the subscription ended: its chart was deleted)",
    "409-test": (
        f"webhook_ended (the subscription ended), or no_upcoming_event (no event of its kinds in the next "
        f"{WINDOW_ENDS_DAYS[-1] // 365} years: nothing sent)"
    ),
    "429": "rate_limit_exceeded (with Retry-After)",
    "503": "service_unavailable (with Retry-After)",
}
_ALWAYS = ("401", "403", "429", "503")
_PATH_ID = {"name": "webhook_id", "in": "path", "required": True, "schema": _ID}


def _envelope(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["data", "meta"], "properties": {"data": data, "meta": ref("Meta")}}


def _responses(data: dict[str, Any], refusals: tuple[str, ...]) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {"description": "Success", "content": {"application/json": {"schema": _envelope(data)}}}
    }
    for refusal in refusals:
        # "409-ended" is the 409 of an operation that refuses an ended subscription: the status is before the dash.
        responses[refusal.split("-")[0]] = {
            "description": _REFUSALS[refusal],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    return responses


def _operation(operation_id: str, summary: str, description: str, **rest: Any) -> dict[str, Any]:
    # x-resource: each method is an operation of its own, named by its operationId.
    return {
        "summary": summary,
        "description": description,
        "operationId": operation_id,
        "tags": ["webhooks"],
        "x-credits": 0,
        "x-resource": True,
        **rest,
    }


def webhook_paths() -> dict[str, Any]:
    """Return the OpenAPI path items of /v1/webhooks and its sub-paths, keyed by path."""
    signature = (
        "Each delivery is a POST signed as Standard Webhooks 1.0 says (https://www.standardwebhooks.com): webhook-id "
        "(the event's id, "
        "the same on every retry: deduplicate on it), webhook-timestamp (Unix seconds, when sent) and "
        "webhook-signature: "
        'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" '
        "keyed with the base64-decoded secret after whsec_>; "
        f"refuse a timestamp more than {TOLERANCE_S} s from your clock. Any Standard Webhooks library verifies it. "
        f"Delivered at least "
        "once, in no particular order. The body is {webhook_id, event, chart, attempt, test}, the event as "
        "/v1/forecast writes it."
    )
    listing = {
        "type": "object",
        "required": ["webhooks"],
        "properties": {"webhooks": {"type": "array", "items": ref("Webhook")}},
    }
    deliveries = {
        "type": "object",
        "required": ["deliveries"],
        "properties": {"deliveries": {"type": "array", "items": ref("WebhookDelivery")}},
    }
    return {
        WEBHOOKS_PATH: {
            "get": _operation(
                "list_webhooks",
                "The account's webhook subscriptions",
                "Every subscription of the account, in the order they were made (no secrets). Free.",
                parameters=[],
                responses=_responses(listing, _ALWAYS),
            ),
            "post": _operation(
                "create_webhook",
                "Subscribe a URL to events",
                "Delivers each event of the kinds wanted, of a stored chart or of the sky, lead_minutes before its "
                "instant. "
                "Answers the subscription with its secret, shown this once (and in the replay of this answer to a "
                "retry under the "
                f"same Idempotency-Key within 24 hours). An account keeps up to {DEFAULT_WEBHOOKS_PER_ACCOUNT} "
                "subscriptions (CELESTIAL_WEBHOOKS_PER_ACCOUNT). Retried with exponential backoff and jitter for 72 "
                "hours on any non-2xx or "
                "timeout; a subscription failing for 72 hours, or whose account runs out of credits, pauses itself, "
                "with an email. "
                f"Free to keep; each event delivered costs 1 credit. {signature}",
                requestBody={"required": True, "content": {"application/json": {"schema": _BODY}}},
                responses=_responses(ref("WebhookWithSecret"), ("400", "404", "409", *_ALWAYS)),
            ),
        },
        WEBHOOK_PATH: {
            "get": _operation(
                "get_webhook",
                "One webhook subscription",
                "One subscription, without its secret. Free.",
                parameters=[_PATH_ID],
                responses=_responses(ref("Webhook"), ("404", *_ALWAYS)),
            ),
            "patch": _operation(
                "update_webhook",
                "Pause or resume a webhook subscription",
                'Pauses or resumes the subscription. {"state": "paused"} pauses; {"state": "active"} resumes, '
                "and forgets the failures that paused it. "
                "A subscription ended (its chart deleted) is never resumed: 409 webhook_ended; subscribe again. Free.",
                parameters=[_PATH_ID],
                requestBody={"required": True, "content": {"application/json": {"schema": _PATCH_BODY}}},
                responses=_responses(ref("Webhook"), ("400", "404", "409-ended", *_ALWAYS)),
            ),
            "delete": _operation(
                "delete_webhook",
                "Delete a webhook subscription",
                "Deletes the subscription (an ended one too): nothing more is delivered to it. Free.",
                parameters=[_PATH_ID],
                responses=_responses(ref("DeletedWebhook"), ("404", *_ALWAYS)),
            ),
        },
        WEBHOOK_ROTATE_PATH: {
            "post": _operation(
                "rotate_webhook_secret",
                "A new signing secret",
                "Answers the subscription with a new secret, shown this once; every delivery from then on is signed "
                "with it. Free.",
                parameters=[_PATH_ID],
                requestBody=_NO_BODY,
                responses=_responses(ref("WebhookWithSecret"), ("404", "409-ended", *_ALWAYS)),
            ),
        },
        WEBHOOK_TEST_PATH: {
            "post": _operation(
                "test_webhook",
                "Send a test delivery now",
                "POSTs one signed test delivery of the subscription's next event now (paused or not) and answers its "
                "outcome. "
                "The event is the first of its kinds whose delivery is still to come (its instant at least "
                "lead_minutes from "
                "now), exactly as it will be delivered, with test: true in the body and the event's id prefixed "
                "test_<8 hex>_ "
                "so a receiver deduplicating on ids never takes it for the real delivery. When no event of its kinds "
                "falls in the next "
                f"{WINDOW_ENDS_DAYS[-1] // 365} years, nothing is sent: 409 no_upcoming_event. Free.\n\n"
                "Sent as every delivery is, all of it within the delivery's deadline (10 s). An account has at most "
                "CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY (4) deliveries in flight on one server: past them, 429 at "
                "once, with Retry-After.",
                parameters=[_PATH_ID],
                requestBody=_NO_BODY,
                responses=_responses(ref("WebhookDelivery"), ("404", "409-test", *_ALWAYS)),
            ),
        },
        WEBHOOK_DELIVERIES_PATH: {
            "get": _operation(
                "list_webhook_deliveries",
                "The recent deliveries",
                f"The last {KEEP_DELIVERIES} attempts, newest first, with their status and response time. Free.",
                parameters=[_PATH_ID],
                responses=_responses(deliveries, ("404", *_ALWAYS)),
            ),
        },
    }


#: The named schemas of these answers (components/schemas).
WEBHOOK_SCHEMAS: dict[str, dict[str, Any]] = {
    "Webhook": WEBHOOK_SCHEMA,
    "WebhookWithSecret": WITH_SECRET_SCHEMA,
    "WebhookDelivery": DELIVERY_SCHEMA,
    "DeletedWebhook": DELETED_SCHEMA,
}
