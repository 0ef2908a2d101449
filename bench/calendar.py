"""A year's calendar with every kind of event, service time in process, beside the sum of the
separate endpoints that give the same events (/v1/ingresses once per body and sign entered,
/v1/stations, /v1/lunations, both eclipse searches, /v1/void-of-course/periods) in the same run.

The calendar computes each kind with the code of its endpoint, so the ratio is what one request
saves over several: validation, the assembly, and a caller's round trips are left out of both.
"""

from __future__ import annotations

from bench.figures import record
from bench.timing import median_ms
from celestial.v1 import search_service_pb2 as pb
from kernel import engine
from kernel.deadline import Deadline
from services.search import calendar, eclipses, ingresses, lunations, stations, void_of_course_periods
from shared.runtime.config import load_settings
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate

ROUNDS = 3
YEAR = {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z"}
BODIES = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]


def _request(cls, path: str, fields: dict):
    return validate(request_from_json(cls, fields, path))


def _median_ms(work) -> float:
    return median_ms(work, ROUNDS)


def _separate_requests(events: list[pb.Event]) -> list:
    """Return (handler, request) of the separate endpoints' calls that give the calendar's events:
    /v1/ingresses for each body and sign entered (as many as the calendar holds, at most 10 a
    call), then one call each for the stations, lunations, eclipses and void-of-course periods."""
    entries: dict[tuple[str, str], list[float]] = {}
    for event in events:
        if event.kind == "ingress":
            entries.setdefault((event.ingress.body, event.ingress.sign.lower()), []).append(event.ingress.jd)
    calls = []
    for (body, sign), jds in entries.items():
        # At most 10 a call: the next call searches on from the last entry found.
        for first in range(0, len(jds), 10):
            moment = {"jd": jds[first - 1]} if first else {"datetime": YEAR["start"]}
            fields = {**moment, "body": body, "sign": sign, "count": min(10, len(jds) - first)}
            calls.append((ingresses.compute, _request(pb.FindIngressesRequest, "/v1/ingresses", fields)))
    calls += [
        (stations.compute, _request(pb.FindStationsRequest, "/v1/stations", {**YEAR, "bodies": BODIES[2:]})),
        (lunations.compute, _request(pb.FindLunationsRequest, "/v1/lunations", YEAR)),
        (
            void_of_course_periods.compute,
            _request(pb.FindVoidOfCoursePeriodsRequest, "/v1/void-of-course/periods", YEAR),
        ),
    ]
    # The year's eclipses, four of them, each kind searched for as many as the year holds.
    for handler, cls, path, kind in (
        (eclipses.solar, pb.FindSolarEclipsesRequest, "/v1/eclipses/solar", "solar"),
        (eclipses.lunar, pb.FindLunarEclipsesRequest, "/v1/eclipses/lunar", "lunar"),
    ):
        count = sum(1 for e in events if e.kind == "eclipse" and e.eclipse.kind == kind)
        calls.append((handler, _request(cls, path, {"datetime": YEAR["start"], "count": count})))
    return calls


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print("a year's calendar of every kind, service time in process (median of rounds) beside the separate endpoints")
    request = _request(pb.FindCalendarEventsRequest, "/v1/calendar", YEAR)
    events = list(calendar.compute(request, Deadline.never()).data.json.events)
    ours = _median_ms(lambda: calendar.compute(request, Deadline.never()))
    calls = _separate_requests(events)
    separate = _median_ms(lambda: [handler(call, Deadline.never()) for handler, call in calls])
    ics = _median_ms(
        lambda: calendar.compute(
            _request(pb.FindCalendarEventsRequest, "/v1/calendar", {**YEAR, "format": "ics"}), Deadline.never()
        )
    )
    record("calendar_year_ms", ours)
    record("calendar_year_ics_ms", ics)
    record("calendar_separate_ms", separate)
    record("calendar_over_separate", ours / separate)
    print(
        f"  one year, {len(events)} events: calendar {ours:7.1f} ms (as iCalendar {ics:7.1f} ms); "
        f"the separate endpoints, {len(calls)} calls: {separate:7.1f} ms; calendar / separate {ours / separate:5.2f}"
    )


if __name__ == "__main__":
    main()
