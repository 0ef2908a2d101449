"""The OpenAPI text of stored charts (issue 40, part 1): the path items of ``/v1/charts`` and
``/v1/charts/{chart_id}``, written by hand as gateway routes (``gateway/stored_charts.py``), and
the ``chart`` parameters of every operation whose request names them (``(message).stored_charts``).
"""

from __future__ import annotations

from typing import Any

from gateway.reference.openapi_schemas import ref
from gateway.stored_charts import BIRTH_PARAMETERS, CHART_PATH, CHARTS_PATH, DEFAULT_PAGE
from shared.runtime.stored_chart_parameters import stored_chart_names
from store.chart_records import DEFAULT_CHARTS_PER_ACCOUNT, MAX_PAGE

_ID = {"type": "string", "pattern": "^chart_[0-9a-f]{21}$", "description": "A stored chart's id (POST /v1/charts)."}
_PARAMETERS = {
    "type": "object",
    "description": (
        "Parameters as /v1/natal-chart takes them, by name: a number or a boolean where the parameter is one, else "
        "text."
    ),
    "additionalProperties": {},
}

CHART_SCHEMA = {
    "type": "object",
    "required": ["id", "name", "birth", "settings", "parameters", "created_at", "updated_at"],
    "properties": {
        "id": _ID,
        "name": {"type": "string"},
        "birth": {
            **_PARAMETERS,
            "description": "The birth as it was sent: datetime or jd, tz, fold, place or lat and lon, alt.",
        },
        "settings": {
            **_PARAMETERS,
            "description": "The chart's settings as sent: any other parameter of /v1/natal-chart.",
        },
        "parameters": {
            **_PARAMETERS,
            "description": (
                "What a request naming the chart receives in its place: the birth with its place read into lat, lon "
                "and, for a datetime without an offset, tz (as the gazetteer read it when the chart was stored)."
            ),
        },
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    },
}

DELETED_SCHEMA = {
    "type": "object",
    "required": ["id", "deleted"],
    "properties": {"id": _ID, "deleted": {"type": "boolean", "const": True}},
}

_BODY = {
    "type": "object",
    "description": (
        "name, and the parameters /v1/natal-chart takes: the birth (datetime or jd, tz, fold, place or lat and lon, "
        "alt) and any of its settings (system, bodies, sidereal ...). In a PATCH, only the members to change; "
        "null removes one; a new datetime or jd replaces the moment whole, a new place or lat and lon the place whole."
    ),
    "properties": {"name": {"type": "string", "maxLength": 200}},
    "additionalProperties": True,
}

_REFUSALS = {
    "400": (
        "invalid_parameter, missing_parameter, invalid_datetime, invalid_body ... (the birth is checked as "
        "/v1/natal-chart checks it)"
    ),
    "401": "invalid_api_key",
    "403": "origin_not_allowed or origin_required",
    "404": "chart_not_found",
    "409": "chart_limit_reached",
    "429": "rate_limit_exceeded (with Retry-After)",
    "503": "service_unavailable (with Retry-After)",
}


def _envelope(data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["data", "meta"], "properties": {"data": data, "meta": ref("Meta")}}


def _responses(name: str, refusals: tuple[str, ...]) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {"description": "Success", "content": {"application/json": {"schema": ref(name)}}}
    }
    for code in refusals:
        responses[code] = {
            "description": _REFUSALS[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    return responses


def _operation(operation_id: str, summary: str, description: str, **rest: Any) -> dict[str, Any]:
    # x-resource: each method is an operation of its own (list, create, read, change, delete),
    # not one computation offered as GET and POST; the client generators name it by its operationId.
    return {
        "summary": summary,
        "description": description,
        "operationId": operation_id,
        "tags": ["charts"],
        "x-credits": 0,
        "x-resource": True,
        **rest,
    }


_ALWAYS = ("401", "403", "429", "503")
_PATH_ID = {"name": "chart_id", "in": "path", "required": True, "schema": _ID}


def chart_paths() -> dict[str, Any]:
    """Return the OpenAPI path items of /v1/charts and /v1/charts/{chart_id}, keyed by path."""
    charts = {
        "get": _operation(
            "list_stored_charts",
            "The account's stored charts, page by page",
            f"The account's stored charts, page by page, or all at once with export=true. In the order they were made, "
            f"{DEFAULT_PAGE} a page by default; export=true answers every chart as a JSON download (a birth is "
            f"personal data: "
            "the account can take all of it away). Free.",
            parameters=[
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "schema": {
                        "type": "integer",
                        "format": "int32",
                        "minimum": 1,
                        "maximum": MAX_PAGE,
                        "default": DEFAULT_PAGE,
                    },
                },
                {
                    "name": "page_token",
                    "in": "query",
                    "required": False,
                    "schema": _ID,
                    "description": "next_page_token of the page before.",
                },
                {"name": "export", "in": "query", "required": False, "schema": {"type": "boolean", "default": False}},
            ],
            responses=_responses("StoredChartListResponse", ("400", *_ALWAYS)),
        ),
        "post": _operation(
            "create_stored_chart",
            "Store a birth to name by id",
            "Stores a birth and its chart settings for the account, and answers its id. Every endpoint that takes a "
            "birth then "
            "takes chart=<id> (chart_a, chart_b for two) in place of datetime, tz, place or lat and lon. The birth is "
            "checked as "
            f"/v1/natal-chart checks it. An account keeps up to {DEFAULT_CHARTS_PER_ACCOUNT} charts "
            f"(CELESTIAL_CHARTS_PER_ACCOUNT). "
            "With an Idempotency-Key, a retry answers the first chart instead of storing another. "
            'Free. Example body: {"name": "Ada", "datetime": "1985-07-13T14:05:00", "place": "2996944"}.',
            requestBody={"required": True, "content": {"application/json": {"schema": _BODY}}},
            responses=_responses("StoredChartResponse", ("400", "409", *_ALWAYS)),
        ),
    }
    chart = {
        "get": _operation(
            "get_stored_chart",
            "One stored chart",
            "The chart, as stored. Free.",
            parameters=[_PATH_ID],
            responses=_responses("StoredChartResponse", ("404", *_ALWAYS)),
        ),
        "patch": _operation(
            "update_stored_chart",
            "Change a stored chart",
            "Changes the members the body names (null removes one); the result is checked as a new chart is. Free.",
            parameters=[_PATH_ID],
            requestBody={"required": True, "content": {"application/json": {"schema": _BODY}}},
            responses=_responses("StoredChartResponse", ("400", "404", *_ALWAYS)),
        ),
        "delete": _operation(
            "delete_stored_chart",
            "Forget a stored chart",
            "Deletes the chart at once: nothing of the birth is kept. Requests naming it are 404 chart_not_found "
            "afterwards, "
            "and every webhook subscription naming it ends (state ended, paused_reason chart_deleted). Free.",
            parameters=[_PATH_ID],
            responses=_responses("DeletedStoredChartResponse", ("404", *_ALWAYS)),
        ),
    }
    return {CHARTS_PATH: charts, CHART_PATH: chart}


#: The named schemas of these answers (components/schemas).
CHART_SCHEMAS: dict[str, dict[str, Any]] = {
    "StoredChart": CHART_SCHEMA,
    "StoredChartResponse": _envelope(ref("StoredChart")),
    "StoredChartList": {
        "type": "object",
        "required": ["charts"],
        "properties": {
            "charts": {"type": "array", "items": ref("StoredChart")},
            "next_page_token": {
                "type": ["string", "null"],
                "description": "Send as page_token for the next page; null on the last (absent with export=true).",
            },
        },
    },
    "StoredChartListResponse": _envelope(ref("StoredChartList")),
    "DeletedStoredChart": DELETED_SCHEMA,
    "DeletedStoredChartResponse": _envelope(ref("DeletedStoredChart")),
}


def stood_in_for(request_cls) -> set[str]:
    """Return the parameters of a request that a stored chart can give (so none of them is
    required in the schema: ``chart`` may come instead)."""
    return {f"{birth}{name[len('chart') :]}" for name in stored_chart_names(request_cls) for birth in BIRTH_PARAMETERS}


def chart_parameters(request_cls) -> dict[str, dict[str, Any]]:
    """Return the schema of each parameter of a request that names a stored chart, by name."""
    described = {}
    for name in stored_chart_names(request_cls):
        suffix = name[len("chart") :]
        birth = f"datetime{suffix}, tz{suffix}, place{suffix}, lat{suffix}, lon{suffix}"
        described[name] = {
            **_ID,
            "description": f"A stored chart's id (POST /v1/charts) in place of {birth} ...: its birth, "
            + ("and its settings where this request sends none." if not suffix else "without its settings."),
        }
    return described


def with_chart_members(schema: dict[str, Any], request_cls) -> dict[str, Any]:
    """Return a request body's schema with its stored-chart members added, and the birth
    parameters a chart stands in for no longer required."""
    named = chart_parameters(request_cls)
    if not named:
        return schema
    optional = stood_in_for(request_cls)
    required = [name for name in schema.get("required", []) if name not in optional]
    changed = {**schema, "properties": {**schema["properties"], **named}}
    changed.pop("required", None)
    return {**changed, "required": required} if required else changed
