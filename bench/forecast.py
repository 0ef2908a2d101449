"""A year's forecast of one chart with every kind of event, service time in process, beside the
sum of the separate endpoints that give its events (/v1/transits, /v1/stations, /v1/calendar's
ingresses, /v1/lunations, both eclipse searches, /v1/void-of-course/periods, /v1/returns of the
Sun and the Moon, /v1/profections, /v1/zodiacal-releasing, /v1/firdaria) in the same run, and
the forecast's time kind by kind, and a year of /v1/calendar (its sky events without the chart's)
as a second reference. Goal: one year of one chart under 200 ms (issue 40), then at most
150 ms (issue 47). Beside it, the same year with the directions and the progressions too
(``forecast_directions_over_plain``, over the forecast of the default kinds, the least CPU
time of each, measured alternately in this run): goal at most 1.5 (issue 53).

The forecast runs each kind's own kernel function, so the ratio is what one request saves over
several; the separate returns also cast a chart at each return, which the forecast does not.
"""

from __future__ import annotations

import os
import time

from bench.figures import record
from bench.timing import median_ms
from celestial.v1 import search_service_pb2 as pb
from celestial.v1 import timelords_service_pb2 as timelords_pb
from kernel import engine
from kernel import forecast as kernel
from kernel.deadline import Deadline
from services.search import (
    calendar,
    eclipses,
    forecast,
    lunations,
    returns,
    stations,
    transits,
    void_of_course_periods,
)
from services.timelords import firdaria, profections, releasing
from shared.runtime.config import load_settings
from shared.runtime.forecast_input import forecast_settings
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate

ROUNDS = 3
GOAL_MS = 150.0
DIRECTIONS_GOAL_RATIO = 1.5
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
YEAR = {"start": "2024-01-01T00:00:00Z", "end": "2025-01-01T00:00:00Z"}


def _request(cls, path: str, fields: dict):
    return validate(request_from_json(cls, fields, path))


def _least_cpu_ms(work, rounds: int = 7) -> float:
    """Return the least CPU time of this process (ms) over ``rounds`` runs of ``work``: on a
    machine shared with other work the wall time counts the waits for a core, the CPU time
    does not (it still rises some when the cores' caches are shared)."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times) * 1e3


def _median_ms(work) -> float:
    return median_ms(work, ROUNDS)


def _separate_requests() -> list:
    """Return (handler, request) of the separate endpoints' calls that give a year's forecast's events."""
    timeline = {**BIRTH, **YEAR}
    return [
        (transits.compute, _request(pb.FindTransitsRequest, "/v1/transits", {**timeline, "moon": "exclude"})),
        (stations.compute, _request(pb.FindStationsRequest, "/v1/stations", YEAR)),
        (calendar.compute, _request(pb.FindCalendarEventsRequest, "/v1/calendar", {**YEAR, "events": ["ingresses"]})),
        (lunations.compute, _request(pb.FindLunationsRequest, "/v1/lunations", YEAR)),
        (
            eclipses.solar,
            _request(pb.FindSolarEclipsesRequest, "/v1/eclipses/solar", {"datetime": YEAR["start"], "count": 2}),
        ),
        (
            eclipses.lunar,
            _request(pb.FindLunarEclipsesRequest, "/v1/eclipses/lunar", {"datetime": YEAR["start"], "count": 2}),
        ),
        (
            void_of_course_periods.compute,
            _request(pb.FindVoidOfCoursePeriodsRequest, "/v1/void-of-course/periods", YEAR),
        ),
        (
            returns.compute,
            _request(
                pb.FindReturnsRequest,
                "/v1/returns",
                {**BIRTH, "body": "sun", "search_start": YEAR["start"], "count": 1},
            ),
        ),
        (
            returns.compute,
            _request(
                pb.FindReturnsRequest,
                "/v1/returns",
                {**BIRTH, "body": "moon", "search_start": YEAR["start"], "count": 13},
            ),
        ),
        (profections.compute, _request(timelords_pb.ComputeProfectionsRequest, "/v1/profections", timeline)),
        (releasing.compute, _request(timelords_pb.ComputeZodiacalReleasingRequest, "/v1/zodiacal-releasing", timeline)),
        (firdaria.compute, _request(timelords_pb.ComputeFirdariaRequest, "/v1/firdaria", timeline)),
    ]


def _kinds_ms(query) -> dict[str, float]:
    """Return the kernel's milliseconds for each kind alone over the forecast's range."""
    settings = forecast_settings()
    chart = kernel.natal_chart(query.birth, query.place, settings)
    start, end = query.start.jd_ut1, query.end.jd_ut1
    return {
        kind: _median_ms(lambda kind=kind: kernel.forecast(chart, start, end, [kind], settings, Deadline.never()))
        for kind in kernel.KINDS
    }


def _directions_ms(plain_request) -> tuple[float, float]:
    """Return the least CPU times (ms, :func:`_least_cpu_ms`) of the forecast of
    ``plain_request`` (the default kinds) and of the same forecast with the directions and the
    progressions, run alternately so the machine's load weighs on both alike."""
    kinds = [*plain_request.kinds, kernel.DIRECTION, kernel.PROGRESSION]
    directed_request = _request(pb.FindForecastRequest, "/v1/forecast", {**BIRTH, **YEAR, "kinds": kinds})
    plain, directed = [], []
    for _ in range(ROUNDS):
        plain.append(_least_cpu_ms(lambda: forecast.compute(plain_request, Deadline.never()), rounds=3))
        directed.append(_least_cpu_ms(lambda: forecast.compute(directed_request, Deadline.never()), rounds=3))
    return min(plain), min(directed)


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print(
        "a year's forecast of one chart, every kind, service time in process (median of rounds) beside the separate "
        "endpoints"
    )
    request = _request(pb.FindForecastRequest, "/v1/forecast", {**BIRTH, **YEAR})
    events = len(forecast.compute(request, Deadline.never()).data.json.events)
    ours = _median_ms(lambda: forecast.compute(request, Deadline.never()))
    ics_request = _request(pb.FindForecastRequest, "/v1/forecast", {**BIRTH, **YEAR, "format": "ics"})
    ics = _median_ms(lambda: forecast.compute(ics_request, Deadline.never()))
    calls = _separate_requests()
    separate = _median_ms(lambda: [handler(call, Deadline.never()) for handler, call in calls])
    calendar_request = _request(pb.FindCalendarEventsRequest, "/v1/calendar", YEAR)
    sky = _median_ms(lambda: calendar.compute(calendar_request, Deadline.never()))
    kinds = _kinds_ms(request.query)
    plain, directed = _directions_ms(request)
    cpu = _least_cpu_ms(lambda: forecast.compute(request, Deadline.never()))
    record("forecast_year_ms", ours)
    record("forecast_year_cpu_ms", cpu)
    record("forecast_year_ics_ms", ics)
    record("forecast_separate_ms", separate)
    record("forecast_over_separate", ours / separate)
    record("forecast_over_calendar", ours / sky)
    record("forecast_directions_over_plain", directed / plain)
    print(
        f"  one year, {events} events: forecast {ours:7.1f} ms (goal {GOAL_MS:g} ms; as iCalendar {ics:7.1f} ms); "
        f"the separate endpoints, {len(calls)} calls: {separate:7.1f} ms; forecast / separate {ours / separate:5.2f}"
    )
    print(f"  /v1/calendar's year in the same run: {sky:7.1f} ms; forecast / calendar {ours / sky:5.2f}")
    print(f"  the forecast's least CPU time over 7 rounds: {cpu:7.1f} ms (load average {os.getloadavg()[0]:.1f})")
    print(
        f"  least CPU time with directions and progressions {directed:7.1f} ms, the default kinds {plain:7.1f} ms: "
        f"forecast_directions_over_plain {directed / plain:5.2f} (goal {DIRECTIONS_GOAL_RATIO:g})"
    )
    print("  kernel time by kind: " + ", ".join(f"{kind} {ms:.1f} ms" for kind, ms in kinds.items()))


if __name__ == "__main__":
    main()
