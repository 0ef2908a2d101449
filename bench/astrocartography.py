"""Astrocartography service time in process (request read, lines computed, reply built) and
the lines alone, beside a per-point loop of our own measured in the same run: the same lines found row by row
in plain Python, one Swiss Ephemeris call per latitude row (the body's house position at the
point, the check a point-by-point solver makes). Goals: the default request under 20 ms, the
largest (80 lines with cusp lines, 0.5° rows) under 300 ms, both 20x faster than the loop."""

from __future__ import annotations

import math
import statistics
import time

from bench.figures import record
from celestial.v1 import astrocartography_service_pb2 as pb
from celestial.v1 import common_pb2
from kernel import engine
from kernel.astrocartography import CIRCUMPOLAR, Sky, equatorial, latitude_rows, line_segments
from kernel.deadline import Deadline
from kernel.earth_rotation import sidereal_time
from kernel.positions import CalcFlags, compute_positions, obliquity_deg
from kernel.timescale import Moment
from services.astrocartography import lines
from shared.runtime.astro_targets import targets_from
from shared.runtime.config import load_settings
from shared.runtime.validation import validate

ROUNDS = 7
MOMENT = "2024-03-20T12:00:00Z"
PLANETS = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]


def default_request() -> pb.ComputeAstrocartographyRequest:
    return validate(pb.ComputeAstrocartographyRequest(moment=common_pb2.Moment(datetime=MOMENT)))


def largest_request() -> pb.ComputeAstrocartographyRequest:
    """80 lines: ten planets, each on the four angles and four Placidus cusps, rows every 0.5°."""
    targets = [pb.AstroTarget(body=body, angles=["asc", "dsc", "mc", "ic"], cusps=[2, 3, 11, 12]) for body in PLANETS]
    return validate(
        pb.ComputeAstrocartographyRequest(moment=common_pb2.Moment(datetime=MOMENT), targets=targets, latitude_step=0.5)
    )


def _service_ms(request) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        lines.compute(request, Deadline.never())
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _kernel_ms(request) -> float:
    """The lines alone (positions, sky and every line's segments), without building the reply."""
    targets = targets_from(request)
    rows = latitude_rows(request.latitude_step, request.max_latitude)
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        moment = Moment.from_iso(MOMENT)
        sky = Sky(sidereal_time(moment).gast_degrees, obliquity_deg(moment))
        places = {
            r.body: (r.longitude, r.latitude)
            for r in compute_positions(moment, [t.body for t in targets], CalcFlags(speed=False)).records
        }
        for target in targets:
            lam, beta = places[target.body]
            for angle in target.angles:
                line_segments(sky, rows, lam, beta, angle=angle)
            for cusp in target.cusps:
                line_segments(sky, rows, lam, beta, cusp=cusp)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _loop_ms(request) -> float:
    """The same lines point by point: scalar math per row and one engine call per row."""
    targets = targets_from(request)
    rows = [float(x) for x in latitude_rows(request.latitude_step or 1.0, request.max_latitude or 89.0)]
    times = []
    for _ in range(3):
        start = time.perf_counter()
        moment = Moment.from_iso(MOMENT)
        sky = Sky(sidereal_time(moment).gast_degrees, obliquity_deg(moment))
        places = {
            r.body: (r.longitude, r.latitude)
            for r in compute_positions(moment, [t.body for t in targets], CalcFlags(speed=False)).records
        }
        points = []
        for target in targets:
            lam, _ = places[target.body]
            alpha, delta = (float(v) for v in equatorial(lam, 0.0, sky.obliquity_deg))
            for item in (*target.angles, *target.cusps):
                for phi in rows:
                    cos_h = -math.tan(math.radians(phi)) * math.tan(math.radians(delta))
                    if abs(cos_h) > 1.0:
                        points.append(CIRCUMPOLAR)
                        continue
                    semi = math.degrees(math.acos(cos_h))
                    if isinstance(item, str):
                        hour = {"ascendant": -semi, "descendant": semi, "midheaven": 0.0, "imum_coeli": 180.0}[item]
                    else:
                        hour = -semi * ((item - 10.0) % 12.0) / 3.0
                    east = (alpha + hour - sky.gast_deg + 180.0) % 360.0 - 180.0
                    points.append(
                        engine.house_position((sky.gast_deg + east) % 360.0, phi, sky.obliquity_deg, "P", lam, 0.0)
                    )
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    print("astrocartography service time (in process, median of rounds)")
    for figure, label, request, goal in (
        ("acg_default", "default (planets x 4 angles, 1° rows)", default_request(), 20.0),
        ("acg_largest", "largest (80 lines with cusps, 0.5° rows)", largest_request(), 300.0),
    ):
        ours, kernel, loop = _service_ms(request), _kernel_ms(request), _loop_ms(request)
        record(f"{figure}_service_ms", ours)
        record(f"{figure}_service_over_lines", ours / kernel)
        print(
            f"  {label:42s} service {ours:7.2f} ms (goal < {goal:g} ms)  per-point loop {loop:7.2f} ms  loop/service "
            f"{loop / ours:5.1f}  (goal >= 20)"
        )
        print(
            f"  {'':42s} of which the lines {kernel:7.2f} ms: loop/lines {loop / kernel:5.1f}; the rest builds the "
            "reply's points"
        )


if __name__ == "__main__":
    main()
