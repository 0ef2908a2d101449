"""A webhook subscription's next event, found by asking ``/v1/forecast``'s computation of the
search pool over gRPC, as any forecast request is (issue 46, part 5): what
``POST /v1/webhooks/{id}/test`` delivers, marked as a test, in exactly the shape of the real
delivery to come.

The search runs over windows from the start of the UTC day the event may fall from
(:data:`WINDOW_ENDS_DAYS`), each beginning where the last ended, and stops at the first window
holding an event of the subscription's kinds. The event is then the one the worker delivers:
computed over the UTC day of its instant (``webhooks/forecast_requests.forecast_body``), since
a transit window's ``clamped_*`` depend on the range asked for.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from gateway.envelope import success_body
from gateway.stored_charts import expand_body
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate
from store.records import Account
from webhooks.forecast_requests import (
    FORECAST_PATH,
    day_of,
    forecast_body,
    instant_s,
    sky_event,
    window_body,
)

#: Where each window of the search ends, in days from the start of the UTC day searched from:
#: that day (whose events are the very ones delivered), a week, a quarter, a year, then the ten
#: years /v1/forecast's range allows at most (docs/forecast.md). Kinds that come every few days
#: cost one day's search; the rare ones (eclipses, time-lord periods) still find theirs.
WINDOW_ENDS_DAYS = (1, 8, 100, 400, 3650)
#: What a test delivery's event id starts with; a random part follows, then the real event's id.
TEST_ID_PREFIX = "test_"

#: ``ask(body)``: the events /v1/forecast answers to JSON ``body``, as the subscription delivers them.
Ask = Callable[[dict[str, Any]], Awaitable[list[dict[str, Any]]]]


async def next_event(ask: Ask, kinds: tuple[str, ...], chart_id: str | None, from_s: float) -> dict[str, Any] | None:
    """Return the first event of ``kinds`` (of stored chart ``chart_id``, or the sky's) whose
    instant is at or after ``from_s`` (Unix seconds), as the worker delivers it; None when none
    falls within ``WINDOW_ENDS_DAYS[-1]`` days of the day of ``from_s``."""
    first_day = day_of(from_s)
    start = first_day
    for days in WINDOW_ENDS_DAYS:
        end = first_day + timedelta(days=days)
        events = await ask(window_body(start, end, kinds, chart_id))
        found = next((event for event in events if instant_s(event) >= from_s), None)
        if found is not None:
            if end - start == timedelta(days=1):
                return found  # asked over its own UTC day already
            delivered = await ask(forecast_body(day_of(instant_s(found)), kinds, chart_id))
            # The same event over another range has the same id (kernel/forecast.py event_id).
            return next((event for event in delivered if event["id"] == found["id"]), found)
        start = end
    return None


def as_test(event: dict[str, Any]) -> dict[str, Any]:
    """Return ``event`` marked as a test's: its members unchanged but its ``id``, which becomes
    ``test_``, 8 random hex digits, ``_`` and the event's own id, so a receiver deduplicating on
    ids never takes it for the real delivery to come, nor one test for another."""
    return {**event, "id": f"{TEST_ID_PREFIX}{secrets.token_hex(4)}_{event['id']}"}


def forecast_asker(gateway, account: Account, chart_id: str | None, request_id: str) -> Ask:
    """Return the :data:`Ask` of a subscription: the forecast request (``chart`` read as
    ``/v1/forecast`` reads it), validated, sent to the search pool in the account's turn
    (``Gateway.call_in_turn``: free, counted in the pool's fair share), its events rendered as
    the API renders them, a sky subscription's as sky events."""
    endpoint = gateway.endpoints[FORECAST_PATH]

    async def ask(body: dict[str, Any]) -> list[dict[str, Any]]:
        if chart_id is not None:
            body = await expand_body(body, endpoint.request_cls, account.id, gateway.store)
        reading = validate(request_from_json(endpoint.request_cls, body, endpoint.path))
        reply = await gateway.call_in_turn(account, endpoint, reading.message, request_id)
        events = success_body(reply, {})["data"]["events"]
        return events if chart_id is not None else [sky_event(event) for event in events]

    return ask
