"""Service time of /v1/natal-chart/sensitivity over ±2 h beside a natal chart's, in the same run.

The search service's handler, in process, for 50 births (bench.natal_chart's, 1900 to 2050,
latitudes within ±60°): the whole chart (the ten planets and the mean node, Placidus, the
Major 7 aspects to the angles, the Moon's nakshatra, the profection at an instant given)
over ±2 h of birth time. Beside it, the ephemeris service's natal chart for the same births,
so the ratio says what the sensitivity costs in charts whatever the machine's load; and the
same requests with format=svg (``sensitivity_timeline_svg_ms``: the JSON's work, then the
timeline laid out and written), beside the JSON's time of the same run. Goal
(issue 52): sensitivity_2h_ms <= 20, CPU time (the compute path is one thread, so the figure is
the service's own whatever else the machine runs; the clock's is printed beside it).
"""

from __future__ import annotations

import time

from bench.figures import record
from bench.natal_chart import _requests, births
from celestial.v1 import search_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel import engine
from kernel.deadline import Deadline
from services.ephemeris import natal
from services.search import birth_time_sensitivity
from shared.runtime.config import load_settings
from shared.runtime.validation import validate

BIRTHS = 50
ROUNDS = 3
# Read for a profection decades after every bench birth (the last is in 2050).
AT = "2090-01-01T00:00:00Z"


def _sensitivity_requests(moments, format: str = "json") -> list:
    return [
        validate(
            pb.FindBirthTimeSensitivityRequest(
                birth=Birth(
                    moment=Moment(datetime=moment.strftime("%Y-%m-%dT%H:%M:%SZ")), location=Place(lat=lat, lon=lon)
                ),
                at=Moment(datetime=AT),
                format=format,
            )
        )
        for moment, lat, lon in moments
    ]


def _median_seconds(compute, requests) -> tuple[float, float]:
    """Return the median seconds per request of ``compute`` over ROUNDS rounds: the process's
    CPU time (the compute path is one thread, so other work on the machine does not swell it)
    and the clock's."""
    cpu, clock = [], []
    for _ in range(ROUNDS):
        started, started_cpu = time.perf_counter(), time.process_time()
        for request in requests:
            compute(request, Deadline.never())
        cpu.append((time.process_time() - started_cpu) / len(requests))
        clock.append((time.perf_counter() - started) / len(requests))
    return sorted(cpu)[len(cpu) // 2], sorted(clock)[len(clock) // 2]


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    moments = births(BIRTHS)
    chart, chart_clock = _median_seconds(natal.compute, _requests(moments, parallels=False))
    sensitivity, clock = _median_seconds(birth_time_sensitivity.compute, _sensitivity_requests(moments))
    svg, svg_clock = _median_seconds(birth_time_sensitivity.compute, _sensitivity_requests(moments, "svg"))
    print(
        f"birth-time sensitivity over ±2 h, service time ({BIRTHS} births, median of {ROUNDS} rounds, in process, "
        "CPU time; the clock's beside it)"
    )
    print(f"  natal chart (reference):   {chart * 1e3:7.3f} ms  (clock {chart_clock * 1e3:.3f})")
    print(
        f"  sensitivity, whole chart:  {record('sensitivity_2h_ms', sensitivity * 1e3):7.3f} ms  (clock "
        f"{clock * 1e3:.3f}; goal <= 20 ms)  = {record('sensitivity_2h_over_natal_chart', sensitivity / chart):5.1f} "
        "natal charts"
    )
    print(
        f"  timeline, format=svg:      {record('sensitivity_timeline_svg_ms', svg * 1e3):7.3f} ms  (clock "
        f"{svg_clock * 1e3:.3f})  = {record('sensitivity_timeline_svg_over_json', svg / sensitivity):5.2f} x the JSON's"
    )


if __name__ == "__main__":
    main()
