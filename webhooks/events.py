"""The events a webhook subscription delivers, computed by the forecast's own code (issue 40,
part 3).

A chart subscription's events are /v1/forecast's: the request the API would make for
``chart=<id>`` (``gateway.stored_charts.expand_body``: the stored birth and its settings)
with the subscription's kinds, computed by the search service's own handler
(``services.search.forecast.compute`` through ``compute_reply``, validation included) and
written by the gateway's own renderer. Each event is computed over the UTC day of its
instant (start that day's 00:00Z, end the next day's), so a delivered event equals, member for
member, the event of the same id that ``/v1/forecast`` answers for that day with those kinds
(a transit window's ``clamped_*`` depend on the range asked for: the day fixes it).

A sky subscription's events (ingresses, stations, lunations, eclipses) concern no chart: they
are the forecast's for a reference birth with what concerns the birth removed, and ids of
their own (``webhooks/forecast_requests.py``, which writes the request and reads the answer).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celestial.v1 import search_service_pb2 as pb
from gateway.envelope import success_body
from gateway.stored_charts import expand_body
from gateway.transcoder import request_from_json
from kernel.deadline import Deadline
from services.search.forecast import compute
from shared.runtime.computation import compute_reply
from webhooks.forecast_requests import FORECAST_PATH, forecast_body, sky_event

#: Seconds one day's forecast may take before it is given up (retried at the next refresh).
DEADLINE_S = 60.0


async def day_events(store, account_id: str, chart_id: str | None, kinds: tuple[str, ...], day: datetime) -> list[dict[str, Any]]:
    """Return the events of ``kinds`` whose instant lies on UTC ``day``, as /v1/forecast
    writes them (see the module's docstring); a sky subscription's as a sky event."""
    body = forecast_body(day, kinds, chart_id)
    if chart_id is not None:
        body = await expand_body(body, pb.FindForecastRequest, account_id, store)
    request = request_from_json(pb.FindForecastRequest, body, FORECAST_PATH)
    events = success_body(compute_reply(compute, request, Deadline.after(DEADLINE_S)), {})["data"]["events"]
    return events if chart_id is not None else [sky_event(event) for event in events]
