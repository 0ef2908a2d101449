"""The kernel's small costs, computed in process: a natal set of positions and the aspects of a
dozen bodies. Goals: a natal set (the planets, tropical) well under 1 ms; aspects of a dozen
bodies with every type under 0.2 ms. (These were timing assertions in tests/unit; a test now
checks what they guarded, the engine calls a natal set makes.)"""

from __future__ import annotations

import statistics
import time

from kernel import engine
from kernel.aspects import ASPECT_NAMES, Point, find_aspects
from kernel.bodies import resolve_bodies
from kernel.positions import CalcFlags, compute_positions
from kernel.timescale import Moment
from shared.runtime.config import load_settings

NATAL_SET_GOAL_S = 1e-3
ASPECTS_GOAL_S = 0.2e-3
J2000 = 2451545.0


def natal_set_s(samples: int = 50) -> float:
    """Return the median seconds of one natal set of positions (the planets, tropical)."""
    moment = Moment.from_jd_ut1(J2000 + 0.137 * 20)
    bodies = resolve_bodies(["planets"])
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        compute_positions(moment, bodies, CalcFlags())
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def aspects_s(runs: int = 200, rounds: int = 5) -> float:
    """Return the best of ``rounds`` mean seconds of the aspects of a dozen bodies with every type."""
    points = [Point(f"b{i}", (i * 37.3) % 360.0, 1.0 - i * 0.2, 0.0) for i in range(12)]
    types = list(ASPECT_NAMES)
    find_aspects(points, types)  # warm the plan cache
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(runs):
            find_aspects(points, types)
        best = min(best, (time.perf_counter() - started) / runs)
    return best


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print("kernel costs, in process")
    for name, seconds, goal in (
        ("natal set of positions", natal_set_s(), NATAL_SET_GOAL_S),
        ("aspects of a dozen bodies, every type", aspects_s(), ASPECTS_GOAL_S),
    ):
        verdict = "meets" if seconds < goal else "MISSES"
        print(f"  {name}: {seconds * 1e3:.3f} ms ({verdict} the goal of {goal * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
