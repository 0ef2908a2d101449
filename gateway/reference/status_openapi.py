"""The OpenAPI description of ``GET /v1/status`` (the public status page's figures,
``gateway/status_page.py``): free, no key, not an RPC (the gateway answers it from the store)."""

from __future__ import annotations

from typing import Any

from gateway.operation_classes import OPERATION_CLASSES
from gateway.reference.openapi_schemas import ref
from gateway.status_report import WINDOWS

STATUS_PATH = "/v1/status"

_MS = {"type": ["number", "null"], "minimum": 0}
_SHARE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}


def status_schemas() -> dict[str, dict[str, Any]]:
    """Return the named schemas of ``/v1/status``'s answer (components/schemas)."""
    window = {
        "type": "object",
        "required": ["window", "requests", "p50_ms", "p95_ms", "p99_ms", "server_error_share"],
        "additionalProperties": False,
        "properties": {
            "window": {"type": "string", "enum": list(WINDOWS)},
            "requests": {"type": "integer", "minimum": 0, "description": "Answers counted in the window."},
            "p50_ms": {**_MS, "description": "Median time in the gateway, ms (null without answers)."},
            "p95_ms": {**_MS, "description": "95th percentile, ms (null without answers)."},
            "p99_ms": {**_MS, "description": "99th percentile, ms (null without answers)."},
            "server_error_share": {
                **_SHARE,
                "description": "Share of the answers that were 5xx (null without answers).",
            },
        },
    }
    operation_class = {
        "type": "object",
        "required": ["name", "description", "windows"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "enum": list(OPERATION_CLASSES)},
            "description": {"type": "string"},
            "windows": {"type": "array", "items": ref("StatusWindow")},
        },
    }
    day = {
        "type": "object",
        "required": ["date", "probed_minutes", "down_minutes", "uptime"],
        "additionalProperties": False,
        "properties": {
            "date": {"type": "string", "format": "date"},
            "probed_minutes": {"type": "integer", "minimum": 0, "maximum": 1440},
            "down_minutes": {"type": "integer", "minimum": 0, "maximum": 1440},
            "uptime": {**_SHARE, "description": "Share of the probed minutes that were up (null: none probed)."},
        },
    }
    data = {
        "type": "object",
        "required": ["classes", "uptime"],
        "additionalProperties": False,
        "properties": {
            "classes": {"type": "array", "items": ref("StatusClass")},
            "uptime": {
                "type": "object",
                "required": ["probe_interval_s", "days"],
                "additionalProperties": False,
                "properties": {
                    "probe_interval_s": {
                        "type": "number",
                        "minimum": 0,
                        "description": "0: this gateway does not probe.",
                    },
                    "days": {"type": "array", "items": ref("StatusDay")},
                },
            },
        },
    }
    meta = {
        "type": "object",
        "required": ["request_id", "as_of"],
        "additionalProperties": False,
        "properties": {
            "request_id": {"type": "string"},
            "as_of": {"type": "string", "format": "date-time", "description": "When the figures were read."},
        },
    }
    success = {
        "type": "object",
        "required": ["data", "meta"],
        "additionalProperties": False,
        "properties": {"data": ref("StatusData"), "meta": ref("StatusMeta")},
    }
    return {
        "StatusResponse": success,
        "StatusData": data,
        "StatusClass": operation_class,
        "StatusWindow": window,
        "StatusDay": day,
        "StatusMeta": meta,
    }


def status_path_item() -> dict[str, Any]:
    """Return the OpenAPI path item of ``GET /v1/status``."""
    return {
        "get": {
            "summary": "The service's latency, errors and uptime",
            "description": (
                "The latency percentiles, share of 5xx and daily uptime of each operation class. For each class, "
                "p50, p95 and p99 of the time in the gateway and the share of 5xx over the last hour, day and 30 "
                "days, and the uptime per day the gateways' own probes saw; the same figures on every gateway. "
                "Free, no key. The page: /status; how each figure is measured: /docs/guides/status."
            ),
            "operationId": "get_status",
            "tags": ["status"],
            "security": [],
            "x-credits": 0,
            "parameters": [],
            "responses": {
                "200": {"description": "Success", "content": {"application/json": {"schema": ref("StatusResponse")}}},
                "400": {
                    "description": "A parameter was sent: the figures take none (invalid_parameter).",
                    "content": {"application/json": {"schema": ref("Error")}},
                },
            },
        }
    }
