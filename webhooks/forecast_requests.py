"""What a webhook subscription asks ``/v1/forecast`` for, and how it reads the answer: pure
functions shared by the worker (``webhooks/events.py``) and the gateway's test delivery
(``gateway/upcoming_events.py``).

A chart subscription asks for its kinds with ``chart=<id>``; a sky subscription (ingresses,
stations, lunations, eclipses) concerns no chart: it asks with a reference birth
(:data:`SKY_BIRTH`) and removes what concerns that birth (``point`` and ``natal_house`` null,
as in a calendar's events, and the natal house out of the summary), and its events
carry ids of their own: ``sky_`` and 24 hex digits of the SHA-256 of the kind, phase, bodies
and the minute of the instant, the same for every sky subscription.
"""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime, timedelta
from typing import Any

FORECAST_PATH = "/v1/forecast"
#: The birth a sky subscription's events are found with (any would do: ingresses, stations,
#: lunations and eclipses do not depend on it): J2000.0 on the equator at Greenwich.
SKY_BIRTH = {"jd": "2451545.0", "lat": "0", "lon": "0"}
#: What a sky event sets to null, as a calendar's event does: what concerns the reference birth.
NATAL_MEMBERS = ("point", "natal_house")
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


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def window_body(start: datetime, end: datetime, kinds: tuple[str, ...], chart_id: str | None) -> dict[str, Any]:
    """Return the /v1/forecast body of the events of ``kinds`` in [start, end) (aware UTC
    instants), ``chart`` naming the stored chart, or the sky's reference birth."""
    birth = {"chart": chart_id} if chart_id is not None else dict(SKY_BIRTH)
    return {**birth, "start": _iso(start), "end": _iso(end), "kinds": ",".join(kinds)}


def forecast_body(day: datetime, kinds: tuple[str, ...], chart_id: str | None) -> dict[str, Any]:
    """Return the /v1/forecast body of one UTC day's events of ``kinds`` (the range a
    delivered event is computed over: a transit window's ``clamped_*`` depend on it)."""
    return window_body(day, day + timedelta(days=1), kinds, chart_id)


def sky_event(event: dict[str, Any]) -> dict[str, Any]:
    """Return a forecast event of the reference birth as a sky event: its own id, its natal
    members null and its summary without the natal house (as /v1/calendar writes it)."""
    summary = event["summary"]
    if event.get("natal_house") is not None:
        # The forecast appends the house last (services/search/forecast.py summary).
        summary = summary.removesuffix(f" in natal house {event['natal_house']}")
    return {
        **event,
        **dict.fromkeys(NATAL_MEMBERS),
        "id": sky_event_id(event["kind"], event["phase"], event["bodies"], event["instant"]["jd"]),
        "summary": summary,
    }


def sky_event_id(kind: str, phase: str, bodies: list[str], jd: float) -> str:
    """Return a sky event's id: ``sky_`` and 24 hex digits of the SHA-256 of its kind, phase,
    bodies and the minute (UT1, floored) of its instant ``jd``."""
    text = "|".join(("sky", kind, phase, ",".join(bodies), str(math.floor(jd * _MINUTES_PER_DAY))))
    return "sky_" + hashlib.sha256(text.encode()).hexdigest()[:24]


def instant_s(event: dict[str, Any]) -> float:
    """Return an event's instant in Unix seconds (from its ISO UTC datetime)."""
    return datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")).timestamp()
