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
are the forecast's for a reference birth (:data:`SKY_BIRTH`) with what concerns the birth
removed (``natal_house``), and ids of their own: ``sky_`` and 24 hex digits of the SHA-256 of
the kind, phase, bodies and the minute of the instant, the same for every sky subscription.
"""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime, timedelta
from typing import Any

from celestial.v1 import search_service_pb2 as pb
from gateway.envelope import success_body
from gateway.stored_charts import expand_body
from gateway.transcoder import request_from_json
from kernel.deadline import Deadline
from services.search.forecast import compute
from shared.runtime.computation import compute_reply

FORECAST_PATH = "/v1/forecast"
#: The birth a sky subscription's events are found with (any would do: ingresses, stations,
#: lunations and eclipses do not depend on it): J2000.0 on the equator at Greenwich.
SKY_BIRTH = {"jd": "2451545.0", "lat": "0", "lon": "0"}
#: What a sky event leaves out: what concerns the reference birth.
NATAL_MEMBERS = ("natal_house",)
#: Seconds one day's forecast may take before it is given up (retried at the next refresh).
DEADLINE_S = 60.0
_MINUTES_PER_DAY = 1440


def day_of(instant_s: float) -> datetime:
    """Return the start (00:00 UTC) of the UTC day holding ``instant_s`` (Unix seconds)."""
    moment = datetime.fromtimestamp(instant_s, UTC)
    return datetime(moment.year, moment.month, moment.day, tzinfo=UTC)


def days_between(start_s: float, end_s: float) -> list[datetime]:
    """Return the UTC days (their starts) that hold any instant of [start_s, end_s]."""
    day, last = day_of(start_s), day_of(end_s)
    days = []
    while day <= last:
        days.append(day)
        day += timedelta(days=1)
    return days


def _iso(day: datetime) -> str:
    return day.strftime("%Y-%m-%dT%H:%M:%SZ")


def forecast_body(day: datetime, kinds: tuple[str, ...], chart_id: str | None) -> dict[str, Any]:
    """Return the /v1/forecast body of one UTC day's events of ``kinds`` (``chart`` naming
    the stored chart, or the sky's reference birth)."""
    birth = {"chart": chart_id} if chart_id is not None else dict(SKY_BIRTH)
    return {**birth, "start": _iso(day), "end": _iso(day + timedelta(days=1)), "kinds": ",".join(kinds)}


async def day_events(store, account_id: str, chart_id: str | None, kinds: tuple[str, ...], day: datetime) -> list[dict[str, Any]]:
    """Return the events of ``kinds`` whose instant lies on UTC ``day``, as /v1/forecast
    writes them (see the module's docstring); a sky subscription's as a sky event."""
    body = forecast_body(day, kinds, chart_id)
    if chart_id is not None:
        body = await expand_body(body, pb.FindForecastRequest, account_id, store)
    request = request_from_json(pb.FindForecastRequest, body, FORECAST_PATH)
    events = success_body(compute_reply(compute, request, Deadline.after(DEADLINE_S)), {})["data"]["events"]
    return events if chart_id is not None else [sky_event(event) for event in events]


def sky_event(event: dict[str, Any]) -> dict[str, Any]:
    """Return a forecast event of the reference birth as a sky event: its own id, no natal member."""
    kept = {key: value for key, value in event.items() if key not in NATAL_MEMBERS}
    return {**kept, "id": sky_event_id(event["kind"], event["phase"], event["bodies"], event["instant"]["jd"])}


def sky_event_id(kind: str, phase: str, bodies: list[str], jd: float) -> str:
    """Return a sky event's id: ``sky_`` and 24 hex digits of the SHA-256 of its kind, phase,
    bodies and the minute (UT1, floored) of its instant ``jd``."""
    text = "|".join(("sky", kind, phase, ",".join(bodies), str(math.floor(jd * _MINUTES_PER_DAY))))
    return "sky_" + hashlib.sha256(text.encode()).hexdigest()[:24]


def instant_s(event: dict[str, Any]) -> float:
    """Return an event's instant in Unix seconds (from its ISO UTC datetime)."""
    return datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")).timestamp()
