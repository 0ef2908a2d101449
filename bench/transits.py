"""Transit-scan service time in process, beside a brute-force scan of the same request in the
same run (every moving body sampled every 10 minutes, the Moon every minute, each window and
exact found by sign changes between samples). Goals: the default one-year natal scan under
100 ms and the widest shape under 1 s, both 50x faster than the brute force (issue 28: 60 ms;
500 ms and 20x).

Beside them, the scan's own Swiss Ephemeris calls replayed bare, one after another: the time
no change short of fewer calls can go below."""

from __future__ import annotations

import statistics
import time
from collections import defaultdict

import numpy as np

from bench.figures import record
from celestial.v1 import search_service_pb2 as pb
from kernel import engine
from kernel.aspects import ASPECT_TYPES
from kernel.bodies import engine_number
from kernel.deadline import Deadline
from services.search import transits
from shared.runtime.config import load_settings
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate

ROUNDS = 3
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
DEFAULT = {**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-12-31T00:00:00Z"}
WIDEST = {
    **BIRTH,
    "start": "2024-01-01T00:00:00Z",
    "end": "2024-07-01T00:00:00Z",
    "orb": 10.0,
    "moon": "include",
    "bodies": ["all"],
    "moving": [
        "sun",
        "moon",
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
        "mean_node",
        "true_node",
        "chiron",
        "ceres",
        "pallas",
        "juno",
        "vesta",
    ],
    "aspects": list(ASPECT_TYPES),
}
STEP_DAYS, MOON_STEP_DAYS = 10.0 / 1440.0, 1.0 / 1440.0


def _service_ms(request) -> tuple[float, int]:
    times, events = [], 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        events = len(transits.compute(request, Deadline.never()).data.events)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, events


def _engine_ms(request) -> tuple[float, int]:
    """Return the milliseconds of the scan's own engine calls (longitude and speed of a body at
    a Julian Day) made again bare, grouped by body, and how many there are."""
    real = engine.longitude_and_speed
    calls: dict[tuple[int, int], list[float]] = defaultdict(list)

    def recording(body_number: int, flags: int):
        at, jds = real(body_number, flags), calls[(body_number, flags)]

        def recorded(jd: float):
            jds.append(jd)
            return at(jd)

        return recorded

    engine.longitude_and_speed = recording
    try:
        transits.compute(request, Deadline.never())
    finally:
        engine.longitude_and_speed = real
    start = time.perf_counter()
    for (body_number, flags), jds in calls.items():
        at = real(body_number, flags)
        for jd in jds:
            at(jd)
    return (time.perf_counter() - start) * 1e3, sum(map(len, calls.values()))


def _brute_force_ms(request) -> tuple[float, int]:
    """The same scan by sampling: longitudes every 10 minutes (Moon: every minute), windows
    and exacts where the distance to each aspect changes sign."""
    start_time = time.perf_counter()
    reply = transits.compute(request, Deadline.never())  # for the natal points and the moving list it used
    points = [(p.body, p.longitude) for p in reply.data.points]
    begin, end = reply.data.start.jd, reply.data.end.jd
    windows = 0
    for body in reply.data.moving:
        step = MOON_STEP_DAYS if body == "moon" else STEP_DAYS
        times = np.arange(begin, end, step)
        number = engine_number(body)
        longitudes = np.array([engine.calc_body(float(t), number, 0).values[0] for t in times])
        # The same pairs the service scanned: under moon=returns_only on a long range only the
        # Moon's conjunction to the natal Moon.
        lunar_return_only = body == "moon" and any("returns_only" in w for w in reply.warnings)
        for target, longitude in points:
            if lunar_return_only and target != "moon":
                continue
            for aspect in ["conjunction"] if lunar_return_only else reply.data.aspects:
                angle = ASPECT_TYPES[aspect].angle_deg
                for signed in [angle] if angle in (0.0, 180.0) else [angle, -angle]:
                    distance = (longitudes - longitude - signed + 180.0) % 360.0 - 180.0
                    inside = np.abs(distance) <= reply.data.orb
                    windows += int(np.count_nonzero(inside[1:] & ~inside[:-1])) + int(inside[0])
    return (time.perf_counter() - start_time) * 1e3, windows


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print("transit scans, service time in process (median of rounds) beside a brute-force scan of the same request")
    for figure, label, fields, goal in (
        ("transits_default", "default one-year natal scan", DEFAULT, 100.0),
        ("transits_widest", "widest (17 moving, all points, 15 aspects, orb 10, 183 days, Moon)", WIDEST, 1000.0),
    ):
        request = validate(request_from_json(pb.FindTransitsRequest, fields, "/v1/transits"))
        ours, events = _service_ms(request)
        brute, windows = _brute_force_ms(request)
        engine_ms, engine_calls = _engine_ms(request)
        record(f"{figure}_ms", ours)
        record(f"{figure}_speedup", brute / ours)
        record(f"{figure}_engine_ms", engine_ms)
        record(f"{figure}_engine_share", engine_ms / ours)
        print(
            f"  {label}: ours {ours:8.1f} ms, {events} events (goal < {goal:g} ms); brute force {brute:9.1f} ms, "
            f"{windows} windows; speed-up {brute / ours:6.1f}x (goal >= 50)"
        )
        print(
            f"    its {engine_calls} engine calls made again bare: {engine_ms:8.1f} ms, {engine_ms / ours:.0%} of ours"
        )


if __name__ == "__main__":
    main()
