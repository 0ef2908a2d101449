"""The OpenAPI path items of GET /v1/usage and GET /v1/account, written by hand: they are
gateway routes (``gateway/account_api.py``), not RPCs, so no proto describes them. The
generated clients get them from here like any operation."""

from __future__ import annotations

from typing import Any

from gateway.account_api import ACCOUNT_PATH, DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, USAGE_PATH, USAGE_STALE_MAX_S
from gateway.reference.openapi_schemas import ref

#: The named schemas of these answers (components/schemas), short names for the typed clients.
ACCOUNT_SCHEMAS: dict[str, dict[str, Any]] = {
    "UsageFigures": {
        "type": "object",
        "required": ["credits", "requests"],
        "properties": {
            "credits": {"type": "integer", "description": "Credits charged, less any refund."},
            "requests": {"type": "integer", "description": "Charged requests."},
        },
    },
}
_BREAKDOWN = {
    "by_key": {"type": "object", "description": "Key id to its figures.", "additionalProperties": ref("UsageFigures")},
    "by_endpoint": {
        "type": "object",
        "description": "Endpoint path to its figures.",
        "additionalProperties": ref("UsageFigures"),
    },
}
_TOTALS = {
    "type": "object",
    "required": ["credits", "requests", "by_key", "by_endpoint"],
    "properties": {**ACCOUNT_SCHEMAS["UsageFigures"]["properties"], **_BREAKDOWN},
}
ACCOUNT_SCHEMAS["UsageTotals"] = _TOTALS
ACCOUNT_SCHEMAS["UsageDay"] = {
    **_TOTALS,
    "required": ["date", *_TOTALS["required"]],
    "properties": {"date": {"type": "string", "format": "date"}, **_TOTALS["properties"]},
}

USAGE_SCHEMA = {
    "type": "object",
    "required": ["start", "end", "key", "total", "days"],
    "properties": {
        "start": {"type": "string", "format": "date"},
        "end": {"type": "string", "format": "date"},
        "key": {
            "type": ["string", "null"],
            "description": "The key id the figures are limited to, or null for every key.",
        },
        "total": ref("UsageTotals"),
        "days": {
            "type": "array",
            "items": ref("UsageDay"),
            "description": "Every UTC day of the range, oldest first, days without requests included.",
        },
    },
}

_PERIOD_CAP = {
    "type": "object",
    "required": ["cap", "spent", "resets_at"],
    "properties": {
        "cap": {"type": ["integer", "null"], "description": "The most credits the period allows; null: no cap."},
        "spent": {"type": "integer", "description": "Credits spent in the current period (refunds taken off)."},
        "resets_at": {
            "type": "string",
            "format": "date-time",
            "description": "When the period ends (UTC midnight, or the 1st of the next month).",
        },
    },
}
_SPEND_CAPS = {
    "type": "object",
    "description": "Spend caps (docs/limits.md): a request that would pass one is 402 spend_cap_reached.",
    "required": ["daily", "monthly"],
    "properties": {"daily": _PERIOD_CAP, "monthly": _PERIOD_CAP},
}

ACCOUNT_SCHEMA = {
    "type": "object",
    "required": ["account", "key"],
    "properties": {
        "account": {
            "type": "object",
            "required": ["id", "name", "balance", "limits", "spend_caps"],
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "balance": {"type": "integer"},
                "limits": {
                    "type": "object",
                    "required": ["rate_per_minute", "max_concurrent"],
                    "properties": {"rate_per_minute": {"type": "integer"}, "max_concurrent": {"type": "integer"}},
                },
                "spend_caps": _SPEND_CAPS,
                "created_at": {"type": "string", "format": "date-time"},
            },
        },
        "key": {
            "type": "object",
            "description": "The calling key's own settings; never the key nor its hash.",
            "required": [
                "key_id",
                "name",
                "prefix",
                "mode",
                "state",
                "created_at",
                "expires_at",
                "allowed_origins",
                "browser_only",
                "spend_caps",
            ],
            "properties": {
                "key_id": {"type": "string"},
                "name": {"type": "string"},
                "account_id": {"type": "string"},
                "prefix": {
                    "type": "string",
                    "description": "The key's first characters, e.g. svc_live_AbCd... (svc_test_ for a test key)",
                },
                "mode": {
                    "type": "string",
                    "enum": ["live", "test"],
                    "description": (
                        "live: charged credits; test: real answers that cost nothing, under the account's test limits."
                    ),
                },
                "state": {"type": "string", "enum": ["active", "revoked", "expired"]},
                "created_at": {"type": "string", "format": "date-time"},
                "expires_at": {"type": ["string", "null"], "format": "date-time"},
                "revoked_at": {"type": ["string", "null"], "format": "date-time"},
                "allowed_origins": {"type": "array", "items": {"type": "string"}},
                "browser_only": {"type": "boolean"},
                "spend_caps": _SPEND_CAPS,
            },
        },
    },
}

_REFUSALS = {
    "400": "invalid_parameter (an unknown or repeated parameter, a date not YYYY-MM-DD, an end before the start, "
    "a key not of this account) or range_too_long",
    "401": "invalid_api_key",
    "403": "origin_not_allowed or origin_required",
    "429": "rate_limit_exceeded (with Retry-After)",
    "503": "service_unavailable (with Retry-After)",
}


def _envelope(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["data", "meta"], "properties": {"data": data, "meta": ref("Meta")}}


def _responses(name: str) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {"description": "Success", "content": {"application/json": {"schema": ref(name)}}}
    }
    for status, text in _REFUSALS.items():
        responses[status] = {
            "description": text,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    return responses


def _date_parameter(name: str, text: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": text,
        "schema": {"type": "string", "format": "date"},
    }


def account_paths() -> dict[str, Any]:
    """Return the OpenAPI path items of /v1/usage and /v1/account, keyed by path."""
    usage = {
        "get": {
            "summary": "Credits and requests per day, key and endpoint",
            "description": (
                "The account's credits and requests per day, in all, per key and per endpoint. It covers the UTC days "
                f"of up to {MAX_USAGE_DAYS} days (default: the last {DEFAULT_USAGE_DAYS}, today included), each day "
                "with its credits and requests in all, per key id and per endpoint; the range's totals the same way. "
                "A request counts on the UTC day it was charged and costs "
                "what it was charged less any refund; free endpoints are not in the ledger. Any key of the account "
                f"reads it; figures are at most {USAGE_STALE_MAX_S:g} s old (`meta.as_of`). Free; counts in the rate "
                f"limit."
            ),
            "operationId": "get_usage",
            "tags": ["account"],
            "x-credits": 0,
            "parameters": [
                _date_parameter("start", "First UTC day (YYYY-MM-DD); default: 29 days before end."),
                _date_parameter("end", "Last UTC day (YYYY-MM-DD), included; default: today."),
                {
                    "name": "key",
                    "in": "query",
                    "required": False,
                    "description": "Only this key's requests (a key id of the account).",
                    "schema": {"type": "string"},
                },
            ],
            "responses": _responses("UsageResponse"),
        }
    }
    account = {
        "get": {
            "summary": "The account's balance, limits and spend caps, and the calling key's settings",
            "description": (
                "The account's balance, limits and spend caps now, and the calling key's own settings. The spend caps "
                "come with what was spent in the current UTC day and month; the key's settings are its name, prefix, "
                "expiry, "
                "origins, browser-only and spend caps, never a key nor its hash. Free; counts in the rate limit."
            ),
            "operationId": "get_account",
            "tags": ["account"],
            "x-credits": 0,
            "parameters": [],
            "responses": _responses("AccountResponse"),
        }
    }
    return {USAGE_PATH: usage, ACCOUNT_PATH: account}


ACCOUNT_SCHEMAS["Usage"] = USAGE_SCHEMA
ACCOUNT_SCHEMAS["UsageResponse"] = _envelope(ref("Usage"))
ACCOUNT_SCHEMAS["Account"] = ACCOUNT_SCHEMA
ACCOUNT_SCHEMAS["AccountResponse"] = _envelope(ref("Account"))
