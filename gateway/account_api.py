"""``GET /v1/usage`` and ``GET /v1/account``: what an account's own programs may read of it,
with any of its keys, free (issue 39, part 4).

Both authenticate as a paid request does (``Authorization: Bearer`` or ``X-API-Key``, the
key's origin rules) and count in the account's rate window and concurrency slots like any
authenticated request (docs/limits.md: a free request is still a request, and a usage read
that ran a 90-day ledger scan uncounted would be the cheapest way to load the store); they
charge nothing and write nothing to the ledger.

The usage figures come from the store's ``daily_usage`` (the ledger's debits, each with the
key and endpoint its note names), kept per account and query for at most
:func:`usage_cache_s` seconds, never more than :data:`USAGE_STALE_MAX_S`: ``meta.as_of`` is
the moment the store was read, so a client sees how old its figures are.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from celestial.v1 import account_service_pb2
from gateway.account_resources import Answer, Call, account_routes, single_values
from gateway.admin.operations import key_view
from gateway.admin.spend_caps import line_view
from gateway.utc_text import iso
from kernel.errors import RangeTooLong
from shared.errors import InvalidParameter
from store.records import Account, KeyRecord, UsageRow, utc_now
from store.spend_caps import SpendStatus

USAGE_PATH = "/v1/usage"
ACCOUNT_PATH = "/v1/account"
#: The longest range /v1/usage answers, in days, its two ends included (issue 39).
MAX_USAGE_DAYS = 90
#: The range /v1/usage answers when given none: the last 30 UTC days, today included.
DEFAULT_USAGE_DAYS = 30
#: The oldest a usage figure may be when it is answered (issue 39: "at most 60 s stale").
USAGE_STALE_MAX_S = 60.0
#: Usage queries remembered at once across every account (the oldest used is forgotten first).
USAGE_CACHE_ENTRIES = 4096
#: What a debit made before the ledger kept notes is counted under, as key and as endpoint.
NOT_RECORDED = "(not recorded)"
#: The parameters of /v1/usage: its request message's fields (account_service.proto).
USAGE_PARAMETERS = tuple(fd.name for fd in account_service_pb2.GetUsageRequest.DESCRIPTOR.fields)


@dataclass(frozen=True)
class UsageQuery:
    """A /v1/usage query: UTC days ``first_day`` to ``last_day`` (both included), one key or all."""

    first_day: date
    last_day: date
    key_id: str | None = None


def usage_cache_s(configured_s: float) -> float:
    """Return how long a usage figure is served from the cache: CELESTIAL_USAGE_CACHE_S,
    never below 0 nor above :data:`USAGE_STALE_MAX_S`."""
    return min(max(0.0, configured_s), USAGE_STALE_MAX_S)


def _day(values: Mapping[str, str], name: str) -> date | None:
    """Return the UTC date of parameter ``name`` (YYYY-MM-DD), None when absent; 400 otherwise."""
    text = values.get(name)
    if text is None:
        return None
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidParameter(
            f"'{name}' must be a date written YYYY-MM-DD (a UTC day), not {text[:40]!r}.",
            suggestion=f"Send e.g. {name}=2026-05-01.",
            param=name,
        ) from None


def read_usage_query(items: Iterable[tuple[str, str]], today: date) -> UsageQuery:
    """Return the query of /v1/usage's parameters (``start``, ``end``: UTC dates; ``key``: a
    key id), as :func:`usage_query` reads them; 400 ``invalid_parameter`` for an unknown or
    repeated parameter."""
    return usage_query(single_values(items, USAGE_PARAMETERS, USAGE_PATH), today)


def usage_query(values: Mapping[str, str], today: date) -> UsageQuery:
    """Return the query of /v1/usage's parameters by name; ``end`` defaults to ``today``,
    ``start`` to the 30 days ending with ``end``.

    Raises 400 ``invalid_parameter`` (a date not YYYY-MM-DD, an end before the start, an
    empty key) and ``range_too_long`` past 90 days.
    """
    last_day = _day(values, "end") or today
    first_day = _day(values, "start") or last_day - timedelta(days=DEFAULT_USAGE_DAYS - 1)
    if last_day < first_day:
        raise InvalidParameter(
            f"The range ends ({last_day}) before it starts ({first_day}).",
            suggestion="Send an end on or after the start.",
            param="end",
        )
    days = (last_day - first_day).days + 1
    if days > MAX_USAGE_DAYS:
        raise RangeTooLong(
            f"The range covers {days} days; /v1/usage answers at most {MAX_USAGE_DAYS}.",
            suggestion=(
                f"Ask for {MAX_USAGE_DAYS} days or fewer, e.g. start={last_day - timedelta(days=MAX_USAGE_DAYS - 1)}"
                f"&end={last_day}, and ask again for the days before."
            ),
            param="start",
        )
    key_id = values.get("key")
    if key_id is not None and not key_id.strip():
        raise InvalidParameter(
            "'key' is empty.",
            suggestion="Send a key id (GET /v1/account shows yours), or leave 'key' out.",
            param="key",
        )
    return UsageQuery(first_day, last_day, key_id)


def _add(totals: dict[str, dict[str, int]], name: str, row: UsageRow) -> None:
    figures = totals.setdefault(name or NOT_RECORDED, {"credits": 0, "requests": 0})
    figures["credits"] += row.credits
    figures["requests"] += row.requests


def usage_data(rows: Iterable[UsageRow], query: UsageQuery) -> dict[str, Any]:
    """Return the ``data`` of a /v1/usage answer: the range, its totals, and every day of it
    (oldest first, days without requests included), each with its credits and requests in
    all, per key id and per endpoint path."""
    days: dict[date, dict[str, Any]] = {}
    day = query.first_day
    while day <= query.last_day:
        days[day] = {"date": day.isoformat(), "credits": 0, "requests": 0, "by_key": {}, "by_endpoint": {}}
        day += timedelta(days=1)
    total: dict[str, Any] = {"credits": 0, "requests": 0, "by_key": {}, "by_endpoint": {}}
    for row in rows:
        for figures in (days[row.day], total):
            figures["credits"] += row.credits
            figures["requests"] += row.requests
            _add(figures["by_key"], row.key_id, row)
            _add(figures["by_endpoint"], row.endpoint, row)
    return {
        "start": query.first_day.isoformat(),
        "end": query.last_day.isoformat(),
        "key": query.key_id,
        "total": total,
        "days": list(days.values()),
    }


def account_data(account: Account, key: KeyRecord, spend: SpendStatus) -> dict[str, Any]:
    """Return the ``data`` of a /v1/account answer: the account (id, name, balance, limits,
    spend caps) and the calling key's own settings and spend caps (never its hash:
    ``key_view`` is built field by field). Each ``spend_caps`` holds, per period (``daily``,
    ``monthly``), the ``cap`` (null: none), what was ``spent`` in the current UTC day or month
    and when it ``resets_at``."""
    return {
        "account": {
            "id": account.id,
            "name": account.name,
            "balance": account.balance,
            "limits": {"rate_per_minute": account.rate_per_minute, "max_concurrent": account.max_concurrent},
            "spend_caps": line_view(spend.account, spend),
            "created_at": iso(account.created_at),
        },
        "key": {**key_view(key), "spend_caps": line_view(spend.key(key.key_id), spend)},
    }


class UsageCache:
    """Usage rows per (account, query), each served for ``max_age_s`` seconds after the store
    read that made it began, so no figure answered is older than that."""

    def __init__(
        self, max_age_s: float, *, max_entries: int = USAGE_CACHE_ENTRIES, clock: Callable[[], float] = time.monotonic
    ):
        """``clock`` returns seconds (monotonic) and exists so tests can move time."""
        self._max_age_s = max_age_s
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[tuple[str, UsageQuery], tuple[float, datetime, list[UsageRow]]] = OrderedDict()

    async def rows(
        self, account_id: str, query: UsageQuery, read: Callable[[], Awaitable[list[UsageRow]]]
    ) -> tuple[datetime, list[UsageRow]]:
        """Return (the moment the rows were read from the store, the rows): remembered ones
        younger than ``max_age_s``, else what ``read`` returns now."""
        key = (account_id, query)
        cached = self._entries.get(key)
        started_s = self._clock()
        if cached is not None and started_s - cached[0] < self._max_age_s:
            self._entries.move_to_end(key)
            return cached[1], cached[2]
        # Stamped before the read: whatever the store wrote after this moment may be missing.
        as_of = utc_now()
        found = await read()
        if self._max_age_s > 0:
            self._entries[key] = (started_s, as_of, found)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)
        return as_of, found


async def _usage(call: Call) -> Answer:
    """GET /v1/usage: the account's credits and requests per UTC day, key and endpoint."""
    gateway, account = call.gateway, call.account
    query = usage_query(call.query, utc_now().date())
    if query.key_id is not None:
        named = await gateway.store.get_key(query.key_id)
        if named is None or named.account_id != account.id:
            # The same answer for a key of another account as for none: nothing is told of it.
            raise InvalidParameter(
                "'key' names no key of this account.",
                suggestion=(
                    "Send the id of one of your keys (GET /v1/account shows the calling key's), or leave 'key' out."
                ),
                param="key",
            )
    as_of, rows = await gateway.usage_cache.rows(
        account.id, query, lambda: gateway.store.daily_usage(account.id, query.first_day, query.last_day, query.key_id)
    )
    return Answer(usage_data(rows, query), meta={"as_of": iso(as_of)})


async def _account(call: Call) -> Answer:
    """GET /v1/account: the account's balance and limits, and the calling key's settings."""
    # Read now, not the key cache's copy: the balance and limits as the store has them.
    fresh = await call.gateway.store.get_account(call.account.id) or call.account
    spend = await call.gateway.store.spend_status(call.account.id)
    return Answer(account_data(fresh, call.key, spend), balance=fresh.balance)


#: The routes of the account's own figures (account_service.proto: GetUsage, GetAccount).
ROUTES = account_routes({"GetUsage": _usage, "GetAccount": _account})
