"""Bad requests of every kind the gateway refuses before calling a service, and the gateway's
answers to them, with or without the ephemeris files.

Run as ``python -m tests.api.refusals_without_ephemeris <folder>`` it starts the gateway app
in a fresh interpreter whose engine was never given the ephemeris files (the engine's folder
is process-wide, so only another process can be without it) and prints, as JSON, its answers,
the service calls it made and the engine's folder at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gateway.call_costs import CallCosts
from kernel import engine
from shared.runtime.config import SERVICE_NAMES
from tests.api.in_process_stack import AppStack, start_app_stack, stop_app_stack

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
AT = {**BIRTH, "at": "2024-03-20T12:00:00Z"}
WEEK = {"start": "2024-03-01T00:00:00Z", "end": "2024-03-08T00:00:00Z"}
NOW = {"datetime": "2024-03-20T12:00:00Z"}
ACG_TARGETS = "/v1/astrocartography"

#: (path, query parameters, error code, parameter blamed). Where the datetime is valid the
#: request fails on something checked after it (a place, a rule across fields), so the code
#: shows the datetime was read.
REFUSALS: list[tuple[str, dict[str, Any], str, str | None]] = [
    # datetimes: a real leap second is read (in UTC and through an offset), a false one is not
    ("/v1/positions", {"datetime": "2016-12-31T23:59:60Z", "lat": 91, "lon": 0}, "invalid_parameter", "lat"),
    # a time zone's history spans the years 1 to 9999: the instant (JD 1,000,000 is in 1975 BCE)
    # and its wall clock at the place (New York's local mean time, five hours behind at year 1)
    ("/v1/timezone", {"jd": 1_000_000.0, "lat": -47.34, "lon": 51.63}, "out_of_range", "jd"),
    ("/v1/timezone", {"datetime": "0001-01-01T02:00:00Z", "lat": 40.71, "lon": -74.01}, "out_of_range", "datetime"),
    ("/v1/positions", {"datetime": "2017-01-01T00:59:60.5+01:00", "lat": 91, "lon": 0}, "invalid_parameter", "lat"),
    ("/v1/positions", {"datetime": "1971-12-31T23:59:59.999Z", "lat": 91, "lon": 0}, "invalid_parameter", "lat"),
    ("/v1/positions", {"datetime": "-3001-02-03T00:00:00Z", "lat": 91, "lon": 0}, "invalid_parameter", "lat"),
    ("/v1/positions", {"datetime": "3000-01-01T00:00:00Z", "lat": 91, "lon": 0}, "invalid_parameter", "lat"),
    ("/v1/positions", {"datetime": "2016-12-30T23:59:60Z"}, "invalid_datetime", "datetime"),
    ("/v1/positions", {"datetime": "2015-12-31T23:59:60Z"}, "invalid_datetime", "datetime"),
    ("/v1/positions", {"datetime": "1960-12-31T23:59:60Z"}, "invalid_datetime", "datetime"),
    ("/v1/positions", {"datetime": "2024-02-30T00:00:00Z"}, "invalid_datetime", "datetime"),
    ("/v1/positions", {"datetime": "2024-03-20 noon"}, "invalid_datetime", "datetime"),
    # outside the supported span
    ("/v1/positions", {"datetime": "-3001-02-02T23:59:59Z"}, "invalid_parameter", "datetime"),
    ("/v1/positions", {"datetime": "3000-01-01T00:00:01Z"}, "invalid_parameter", "datetime"),
    ("/v1/positions", {"datetime": "+012000-01-01T00:00:00Z"}, "invalid_parameter", "datetime"),
    ("/v1/houses", {"datetime": "3000-06-01T00:00:00Z", "lat": 51.5, "lon": 0}, "invalid_parameter", "datetime"),
    # a day (sunrise to sunrise) searched from before the supported span's start
    ("/v1/planetary-hours", {"jd": 625000.5, "lat": 0, "lon": 0}, "out_of_range", "jd"),
    ("/v1/planetary-hours", {"jd": 625002.4, "lat": 51.5, "lon": 0}, "out_of_range", "jd"),
    ("/v1/vedic/panchang", {"jd": 625000.5, "lat": 0, "lon": 0}, "out_of_range", "jd"),
    (
        "/v1/vedic/panchang",
        {"datetime": "-3001-02-04T12:00:00Z", "lat": 13.08, "lon": 80.27},
        "out_of_range",
        "datetime",
    ),
    # bodies: fixed stars and numbered asteroids are known but not computed; unknown names
    ("/v1/positions", {**NOW, "bodies": "sun,aldebaran"}, "body_not_eligible", "bodies"),
    ("/v1/positions", {**NOW, "bodies": "Regulus"}, "body_not_eligible", "bodies"),
    ("/v1/positions", {**NOW, "bodies": ",alTau"}, "body_not_eligible", "bodies"),
    ("/v1/positions", {**NOW, "bodies": "433"}, "body_not_eligible", "bodies"),
    ("/v1/positions", {**NOW, "bodies": "vulcan"}, "body_not_found", "bodies"),
    ("/v1/positions", {**NOW, "bodies": "earth"}, "body_not_eligible", "bodies"),
    ("/v1/positions", {**NOW, "bodies": "sun", "heliocentric": "true"}, "body_not_eligible", "bodies"),
    ("/v1/aspects", {**NOW, "bodies": "spica"}, "body_not_eligible", "bodies"),
    (
        "/v1/returns",
        {**BIRTH, "body": "aldebaran", "search_start": "2024-01-01T00:00:00Z"},
        "body_not_eligible",
        "body",
    ),
    ("/v1/ingresses", {**NOW, "body": "regulus", "sign": "aries"}, "body_not_eligible", "body"),
    (
        "/v1/heliacal",
        {**NOW, "body": "sirius", "event": "morning_first", "lat": 30, "lon": 31},
        "body_not_eligible",
        "body",
    ),
    # house systems, ayanamshas, aspects
    ("/v1/houses", {**NOW, "lat": 51.5, "lon": 0, "system": "nope"}, "invalid_parameter", "system"),
    ("/v1/chart", {**NOW, "lat": 51.5, "lon": 0, "system": "aldebaran"}, "invalid_parameter", "system"),
    ("/v1/positions", {**NOW, "sidereal": "nonesuch"}, "invalid_parameter", "sidereal"),
    ("/v1/aspects", {**NOW, "aspects": "conjunction,nonesuch"}, "invalid_parameter", "aspects"),
    # time-lord ranges and their caps
    ("/v1/firdaria", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    ("/v1/profections", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    ("/v1/zodiacal-releasing", {**BIRTH, "at": "1980-01-01T00:00:00Z"}, "before_birth", "at"),
    (
        "/v1/firdaria",
        {**BIRTH, "start": "2000-01-01T00:00:00Z", "end": "1999-01-01T00:00:00Z"},
        "invalid_parameter",
        "end",
    ),
    (
        "/v1/firdaria",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2111-01-01T00:00:00Z"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/profections",
        {**BIRTH, "start": "1990-06-15T14:30:00Z", "end": "2111-01-01T00:00:00Z"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/zodiacal-releasing",
        {**BIRTH, "start": "2000-01-01T00:00:00Z", "end": "2011-01-01T00:00:00Z", "max_level": 3},
        "range_too_long",
        "end",
    ),
    (
        "/v1/firdaria",
        {**BIRTH, "start": "2016-12-31T23:59:60Z", "end": "2016-12-31T23:59:59Z"},
        "invalid_parameter",
        "end",
    ),
    ("/v1/firdaria", {**BIRTH, "at": "2016-12-30T23:59:60Z"}, "invalid_datetime", "at"),
    # transit ranges, their caps and their inputs
    (
        "/v1/transits",
        {**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2025-01-02T00:00:01Z"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/transits",
        {**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-07-03T00:00:00Z", "moon": "include"},
        "range_too_long",
        "end",
    ),
    (
        "/v1/transits",
        {**BIRTH, "start": "2016-12-31T23:59:60Z", "end": "2016-12-31T23:59:59Z"},
        "invalid_parameter",
        "end",
    ),
    (
        "/v1/transits",
        {**BIRTH, "start": "2999-12-01T00:00:00Z", "end": "3000-01-02T00:00:00Z"},
        "invalid_parameter",
        "end",
    ),
    ("/v1/transits", {**BIRTH, **WEEK, "moving": "sun,aldebaran"}, "body_not_eligible", "moving"),
    ("/v1/transits", {**BIRTH, **WEEK, "moving": "sun,vulcan"}, "body_not_found", "moving"),
    ("/v1/transits", {**WEEK}, "missing_parameter", "datetime"),
    # astrocartography targets
    (
        ACG_TARGETS,
        {**NOW, "targets": json.dumps([{"body": "aldebaran", "angles": ["mc"]}])},
        "body_not_eligible",
        "targets",
    ),
    (ACG_TARGETS, {**NOW, "targets": json.dumps([{"body": "vulcan", "angles": ["mc"]}])}, "body_not_found", "targets"),
    (
        ACG_TARGETS,
        {**NOW, "targets": json.dumps([{"body": "planets", "angles": ["mc"]}])},
        "invalid_parameter",
        "targets",
    ),
    (
        ACG_TARGETS,
        {**NOW, "targets": json.dumps([{"body": "sun", "angles": ["mc"]}] * 81)},
        "invalid_parameter",
        "targets",
    ),
    (
        ACG_TARGETS,
        {**NOW, "targets": json.dumps([{"body": "sun", "angles": ["mc"]}]), "bodies": "moon"},
        "conflicting_parameters",
        "targets",
    ),
    (ACG_TARGETS, {**NOW, "bodies": "sun", "angles": "nadir"}, "invalid_parameter", "angles"),
    (ACG_TARGETS, {"datetime": "2016-12-31T23:59:60Z", "bodies": "regulus"}, "body_not_eligible", "bodies"),
    (
        ACG_TARGETS,
        {**NOW, "system": "whole_sign", "targets": json.dumps([{"body": "sun", "cusps": [2]}])},
        "invalid_parameter",
        "system",
    ),
    # the chart requests' rules, and those of the small endpoints (a star is told from an
    # unknown name by the names listed in the kernel, without the star file)
    ("/v1/natal-chart", {**BIRTH, "system": "gauquelin", "j2000": "true"}, "invalid_parameter", "system"),
    ("/v1/draconic", {**BIRTH, "bodies": "sun,moon"}, "no_north_node", "bodies"),
    ("/v1/progressed", {**BIRTH, "target_datetime": "1980-01-01T00:00:00Z"}, "invalid_progression", "target_datetime"),
    ("/v1/ayanamsha", {**NOW, "system": "47"}, "invalid_parameter", "system"),
    ("/v1/stars", {**NOW, "star": "vulcan"}, "body_not_found", "star"),
]


class RefusingPool:
    """A service pool that records every call and answers none: a refusal must come before it."""

    def __init__(self, name: str, calls: list[str]):
        self.name = name
        self._calls = calls
        self.costs = CallCosts()

    async def call(
        self, method_path: str, request: Any, response_cls: Any, *, timeout_s: float, request_id: str
    ) -> Any:
        self._calls.append(method_path)
        raise AssertionError(f"the gateway called {method_path} with a request it should have refused")

    async def ready(self, timeout_s: float = 1.0) -> bool:
        return True

    async def implements(self, method_path: str) -> bool:
        return True

    async def close(self) -> None:
        return None


def refusing_pools(calls: list[str]) -> dict[str, RefusingPool]:
    """Return one refusing pool per service, all recording into ``calls``."""
    return {name: RefusingPool(name, calls) for name in SERVICE_NAMES}


def answers(stack: AppStack) -> list[dict[str, Any]]:
    """Return the gateway's answer to each of :data:`REFUSALS`: its status and its errors
    (the request id, different on every request, left out)."""
    _, key = stack.new_key()
    found = []
    with stack.client(key) as client:
        for path, params, _, _ in REFUSALS:
            response = client.get(path, params=params)
            found.append({"path": path, "status": response.status_code, "errors": response.json().get("errors")})
    return found


def main(folder: str) -> None:
    calls: list[str] = []
    stack = start_app_stack(Path(folder), pools=refusing_pools(calls))
    try:
        found = answers(stack)
    finally:
        stop_app_stack(stack)
    print(json.dumps({"answers": found, "calls": calls, "ephemeris_files_path": engine.ephemeris_files_path()}))


if __name__ == "__main__":
    main(sys.argv[1])
