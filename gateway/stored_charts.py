"""Stored charts (issue 40, part 1): ``/v1/charts`` keeps an account's births, and every
endpoint that takes a birth takes ``chart=<id>`` in its place.

A chart is stored from the parameters ``/v1/natal-chart`` takes, sent as a JSON body with a
``name``: the birth (``datetime`` or ``jd``, ``tz``, ``fold``, ``place`` or ``lat`` and
``lon``, ``alt``) and any other of its parameters as the chart's settings (``bodies``,
``house_system`` ...). It is checked as that natal chart would be, and its place is read once,
then: what the store keeps to send is the birth with the place's coordinates and, for a
datetime without an offset, its zone (``parameters``), so a chart names the same instant and
place whatever later becomes of the gazetteer, and reaches endpoints that take no ``place``.

Where a request names ``chart`` (or ``chart_a``, ``chart_b``: the request message's
``(message).stored_charts``), the gateway puts the stored parameters the endpoint takes in its
place, and, for ``chart``, each stored setting the endpoint takes and the request did not send.
Naming a chart and sending a birth parameter it stands for is ``conflicting_parameters``.

Every route is free and counts under the account's limits like any request (429 before 400);
a birth is personal data, so no route logs a parameter (the access log has the path only).
``POST /v1/charts`` takes an ``Idempotency-Key`` (a retry answers the first chart), and
deleting a chart ends the webhook subscriptions naming it (``chart_deleted``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from starlette.responses import Response

from celestial.v1 import account_service_pb2, ephemeris_service_pb2, options_pb2
from gateway.account_resources import Answer, Call, account_routes
from gateway.idempotency import LEASE_MARGIN_S, created_once
from gateway.utc_text import iso
from shared.errors import (
    ChartLimitReached,
    ChartNotFound,
    ConflictingParameters,
    InvalidBody,
    InvalidParameter,
)
from shared.runtime.request_model import FieldSpec, message_spec
from shared.runtime.stored_chart_parameters import stand_in, stored_chart_names
from shared.runtime.transcoder import refuse_nulls, request_from_json
from shared.runtime.validation import validate
from shared.runtime.wire import birth_from, local_readings
from store import chart_records
from store.chart_records import MAX_NAME_CHARS, MAX_PAGE, StoredChart, is_chart_id, new_chart_id
from store.records import utc_now

CHARTS_PATH = "/v1/charts"
CHART_PATH = "/v1/charts/{chart_id}"
#: The parameters of a birth (suffixed ``_a`` and ``_b`` in a two-person request).
BIRTH_PARAMETERS = ("datetime", "jd", "tz", "fold", "place", "lat", "lon", "alt")
#: The parameters that relocate a chart (docs/charts.md, Relocation): a request's, never a stored chart's.
RELOCATION_PARAMETERS = ("relocate_lat", "relocate_lon", "relocate")
#: What a chart is checked as: the natal chart of its birth and settings.
NATAL_CHART = ephemeris_service_pb2.ComputeNatalChartRequest
#: A listing's page when the request names none: its ``limit``'s default (account_service.proto).
DEFAULT_PAGE = int(
    account_service_pb2.ListStoredChartsRequest.DESCRIPTOR.fields_by_name["limit"]
    .GetOptions()
    .Extensions[options_pb2.field]
    .default
)


def _natal_fields() -> dict[str, FieldSpec]:
    return message_spec(NATAL_CHART.DESCRIPTOR).fields


# --- reading a chart ---------------------------------------------------------------------------


def _text(name: str, value: Any) -> str:
    """Return a JSON value of parameter ``name`` as the query-string text the API takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(
        isinstance(item, (str, int, float)) and not isinstance(item, bool) for item in value
    ):
        return ",".join(_text(name, item) for item in value)
    raise InvalidParameter(
        f"'{name}' must be a string, a number, a boolean or an array of them.",
        suggestion=f"Send {name} as /v1/natal-chart takes it.",
        param=name,
    )


def _canonical(field: FieldSpec, text: str) -> str:
    """Return a parameter's text with a fixed choice in its canonical spelling (choices are
    read in any case and written back canonically, docs/conventions.md), so a stored setting
    is one of the values its schema lists."""
    if field.repeated or not field.rule.choices:
        return text
    return next((choice for choice in field.rule.choices if choice.lower() == text.lower()), text)


def _typed(field: FieldSpec | None, text: str) -> Any:
    """Return a stored parameter as JSON shows it: numbers and booleans as such, the rest as text."""
    if field is None or field.repeated:
        return text
    if field.descriptor.type == FieldDescriptor.TYPE_BOOL:
        return text == "true"
    if field.is_numeric:
        number = float(text)
        return (
            int(number)
            if field.descriptor.type not in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
            else number
        )
    return text


def read_chart_body(body: Any) -> tuple[str | None, dict[str, str], dict[str, str]]:
    """Return (name or None when not sent, birth, settings) of a chart body: a JSON object of
    ``name`` and /v1/natal-chart's parameters; null values are dropped. 400 for anything else."""
    if not isinstance(body, dict):
        raise InvalidBody(
            "The body must be a JSON object.",
            suggestion='Send {"name": "Ada", "datetime": "1985-07-13T14:05:00", "place": "Lyon, FR"}.',
        )
    name = body.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME_CHARS):
        raise InvalidParameter(
            f"'name' must be text of at most {MAX_NAME_CHARS} characters.",
            suggestion="Send a shorter name.",
            param="name",
        )
    fields = _natal_fields()
    birth: dict[str, str] = {}
    settings: dict[str, str] = {}
    for key, value in body.items():
        if key == "name" or value is None:
            continue
        if key not in fields:
            raise InvalidParameter(
                f"Unknown parameter '{key}' for a stored chart.",
                suggestion="Send name and the parameters /v1/natal-chart takes (its birth and its settings).",
                param=key,
            )
        if key in RELOCATION_PARAMETERS:
            raise InvalidParameter(
                f"A stored chart keeps the birth where it happened; '{key}' relocates a chart when it is cast.",
                suggestion=f"Leave out {key} here, and send it with the request that names the chart (chart=<id>).",
                param=key,
            )
        (birth if key in BIRTH_PARAMETERS else settings)[key] = _canonical(fields[key], _text(key, value))
    return name, birth, settings


def resolve(birth: Mapping[str, str], settings: Mapping[str, str]) -> dict[str, str]:
    """Return the parameters a request naming the chart receives: the birth checked as
    /v1/natal-chart would check it (with the settings), its place read into ``lat``, ``lon``
    and, for a datetime without an offset, ``tz``. Raises the natal chart's 400s."""
    reading = validate(request_from_json(NATAL_CHART, {**birth, **settings}, CHARTS_PATH))
    _moment, observer = birth_from(reading)
    resolved = {name: birth[name] for name in ("datetime", "jd", "fold") if name in birth}
    zone = local_readings(reading).get("datetime", {}).get("tz")
    if zone is not None:
        resolved["tz"] = zone
    resolved["lat"] = repr(observer.latitude_deg)
    resolved["lon"] = repr(observer.longitude_deg)
    if "alt" in birth:
        resolved["alt"] = birth["alt"]
    return resolved


def chart_view(chart: StoredChart) -> dict[str, Any]:
    """Return a stored chart as the API shows it: id, name, the birth and settings as stored,
    the ``parameters`` a request naming it receives, and when it was made and last changed."""
    fields = _natal_fields()
    return {
        "id": chart.chart_id,
        "name": chart.name,
        "birth": {name: _typed(fields.get(name), value) for name, value in chart.birth.items()},
        "settings": {name: _typed(fields.get(name), value) for name, value in chart.settings.items()},
        "parameters": {name: _typed(fields.get(name), value) for name, value in chart.parameters.items()},
        "created_at": iso(chart.created_at),
        "updated_at": iso(chart.updated_at),
    }


# --- chart= on the endpoints that take a birth --------------------------------------------------


def _suffix(name: str) -> str:
    return name[len("chart") :]


def _named_charts(names: tuple[str, ...], given: Iterable[str]) -> list[str]:
    return [name for name in names if name in given]


async def expand_query(items: list[tuple[str, str]], request_cls, account_id: str, store) -> list[tuple[str, str]]:
    """Return the query pairs of a GET with each ``chart``-like parameter replaced by the
    stored chart's parameters (see the module's docstring)."""
    names = stored_chart_names(request_cls)
    given = {name for name, _ in items}
    named = _named_charts(names, given)
    if not named:
        return items
    values = {name: [value for key, value in items if key == name] for name in named}
    kept = [(key, value) for key, value in items if key not in named]
    for name in named:
        if len(values[name]) > 1:
            raise InvalidParameter(f"'{name}' was given more than once.", suggestion=f"Send '{name}' once.", param=name)
        stand_in = await _stand_in(name, values[name][0], request_cls, given, account_id, store, len(named) == 1)
        kept += list(stand_in.items())
    return kept


async def expand_body(body: dict, request_cls, account_id: str, store) -> dict:
    """Return a JSON body with each ``chart``-like member replaced by the stored chart's
    parameters (see the module's docstring). A null member is refused first (400 naming
    it), as the request's own reading refuses it: a chart's parameters would otherwise fill it."""
    refuse_nulls(body)
    names = stored_chart_names(request_cls)
    given = set(body)
    named = _named_charts(names, given)
    if not named:
        return body
    expanded = {key: value for key, value in body.items() if key not in names}
    for name in named:
        if not isinstance(body[name], str):
            raise InvalidParameter(
                f"'{name}' must be a chart id (a string).", suggestion=f'Send {name} as "chart_...".', param=name
            )
        expanded.update(await _stand_in(name, body[name], request_cls, given, account_id, store, len(named) == 1))
    return expanded


async def _stand_in(
    name: str, chart_id: str, request_cls, given: set[str], account_id: str, store, with_settings: bool
) -> dict[str, str]:
    """Return the parameters stored chart ``chart_id`` gives a request through parameter ``name``."""
    suffix = _suffix(name)
    clashing = [f"{birth}{suffix}" for birth in BIRTH_PARAMETERS if f"{birth}{suffix}" in given]
    if clashing:
        raise ConflictingParameters(
            f"'{name}' names a stored birth; {', '.join(repr(c) for c in clashing)} would give another.",
            suggestion=f"Send either {name} or the birth's own parameters, not both.",
            param=name,
        )
    chart = await store.get_chart(account_id, chart_id) if is_chart_id(chart_id) else None
    if chart is None:
        raise ChartNotFound(f"'{name}' names no stored chart of this account.", param=name)
    return stand_in(
        chart.parameters, chart.settings, request_cls, name, given, with_settings=with_settings, chart_name=chart.name
    )


# --- the routes ----------------------------------------------------------------------------------


def _limit_of(values: Mapping[str, str]) -> int:
    text = values.get("limit")
    if text is None:
        return DEFAULT_PAGE
    # ASCII digits only: str.isdigit() takes "１０" and "٣", which no JSON number is.
    if re.fullmatch(r"[0-9]{1,4}", text) is None or not 1 <= int(text) <= MAX_PAGE:
        raise InvalidParameter(
            f"'limit' must be a whole number from 1 to {MAX_PAGE}.",
            suggestion=f"Send e.g. limit={DEFAULT_PAGE}.",
            param="limit",
        )
    return int(text)


def _list_query(values: Mapping[str, str]) -> tuple[int, str | None, bool]:
    export = values.get("export", "false")
    if export not in ("true", "false"):
        raise InvalidParameter(
            "'export' must be true or false.", suggestion="Send export=true for every chart at once.", param="export"
        )
    token = values.get("page_token")
    if token is not None and not is_chart_id(token):
        raise InvalidParameter(
            "'page_token' is not a token of this listing.",
            suggestion="Send the next_page_token of the last page, or leave it out.",
            param="page_token",
        )
    return _limit_of(values), token, export == "true"


async def _listing(call: Call) -> Answer:
    """GET /v1/charts: a page of the account's charts, or all of them with export=true."""
    limit, token, export = _list_query(call.query)
    store = call.gateway.store
    if export:
        charts, after = [], None
        while page := await store.list_charts(call.account.id, after, MAX_PAGE):
            charts += page
            after = page[-1].chart_id
        # One page holding every chart: no page follows it.
        return Answer(
            {"charts": [chart_view(c) for c in charts], "next_page_token": None},
            {"Content-Disposition": 'attachment; filename="charts.json"'},
        )
    page = await store.list_charts(call.account.id, token, limit + 1)
    following = page[limit - 1].chart_id if len(page) > limit else None
    return Answer({"charts": [chart_view(c) for c in page[:limit]], "next_page_token": following})


async def _creation(call: Call) -> Response:
    """POST /v1/charts: store a birth (once per Idempotency-Key)."""
    gateway, account = call.gateway, call.account

    async def create() -> Response:
        name, birth, settings = read_chart_body(call.body)
        chart = StoredChart(new_chart_id(), account.id, name or "", birth, settings, resolve(birth, settings))
        try:
            await gateway.store.create_chart(chart, gateway.settings.charts_per_account)
        except chart_records.ChartLimitReached as full:
            raise ChartLimitReached(f"This account keeps {full.limit} charts, the most it may.") from None
        return await call.answered(Answer(chart_view(chart), {"Location": f"{CHARTS_PATH}/{chart.chart_id}"}))

    lease_s = gateway.settings.fast_deadline_s + LEASE_MARGIN_S
    return await created_once(call.request, gateway.idempotency, account.id, CHARTS_PATH, call.body, lease_s, create)


async def _found(call: Call) -> StoredChart:
    chart_id = call.request.path_params["chart_id"]
    chart = await call.gateway.store.get_chart(call.account.id, chart_id) if is_chart_id(chart_id) else None
    if chart is None:
        raise ChartNotFound("No stored chart of this account has that id.")
    return chart


async def _reading(call: Call) -> Answer:
    """GET /v1/charts/{id}: one of the account's charts."""
    return Answer(chart_view(await _found(call)))


async def _change(call: Call) -> Answer:
    """PATCH /v1/charts/{id}: a JSON body of the members to change, null to remove one."""
    body = {} if call.body is None else call.body
    name, birth, settings = read_chart_body(body)
    removed = {key for key, value in body.items() if value is None}
    chart = await _found(call)
    kept = dict(chart.birth)
    # A new moment replaces the old one whole, and a new place the old place whole.
    for group in (("datetime", "jd", "fold"), ("place", "lat", "lon")):
        if set(group) & set(birth):
            kept = {key: value for key, value in kept.items() if key not in group}
    new_birth = {key: value for key, value in {**kept, **birth}.items() if key not in removed}
    new_settings = {key: value for key, value in {**chart.settings, **settings}.items() if key not in removed}
    changed = replace(
        chart,
        name=chart.name if name is None else name,
        birth=new_birth,
        settings=new_settings,
        parameters=resolve(new_birth, new_settings),
        updated_at=utc_now(),
    )
    if await call.gateway.store.replace_chart(changed) is None:
        raise ChartNotFound("No stored chart of this account has that id.")
    return Answer(chart_view(changed))


async def _deletion(call: Call) -> Answer:
    """DELETE /v1/charts/{id}: forget the chart, its webhook subscriptions ended first."""
    chart_id = call.request.path_params["chart_id"]
    if not is_chart_id(chart_id):
        raise ChartNotFound("No stored chart of this account has that id.")
    # Its subscriptions end first: a deletion interrupted between the two steps leaves the
    # chart with its subscriptions ended, and a retry of the DELETE finishes it; the other
    # order could leave subscriptions active on a chart no retry can name any more.
    await call.gateway.store.end_chart_webhooks(call.account.id, chart_id)
    if not await call.gateway.store.delete_chart(call.account.id, chart_id):
        raise ChartNotFound("No stored chart of this account has that id.")
    return Answer({"id": chart_id, "deleted": True})


#: The stored charts' routes: the collection, and one chart (account_service.proto).
ROUTES = account_routes(
    {
        "ListStoredCharts": _listing,
        "CreateStoredChart": _creation,
        "GetStoredChart": _reading,
        "UpdateStoredChart": _change,
        "DeleteStoredChart": _deletion,
    }
)
