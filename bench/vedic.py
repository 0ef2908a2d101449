"""Jyotish's service time, in process: what the time-lords service's compute child spends on
one request (validation with its reader, the handler, the reply), for a birth chart with its
navamsa (D9) and a three-level Vimshottari dasha over 120 years, and a day's panchang, beside a natal chart
(/v1/natal-chart, the planets) measured the same way in the same run. Goal (issue 41): the
chart and the dasha together within 10 ms (``vedic_chart_dasha_ms``). The chart drawn as the
North Indian rasi and navamsa (format=svg, issue 51) within 3 ms (``vedic_chart_image_svg_ms``),
printed beside the same chart as JSON."""

from __future__ import annotations

from bench.figures import record
from bench.timing import median_service_ms
from celestial.v1 import ephemeris_service_pb2, vedic_pb2
from kernel import engine
from services.ephemeris import natal
from services.timelords import panchang, vedic_chart, vimshottari_dasha
from shared.runtime.config import load_settings
from shared.runtime.transcoder import request_from_query

GOAL_MS = 10.0
IMAGE_GOAL_MS = 3.0
SAMPLES = 60
# A different birth per request (as real traffic has), so nothing is served from a cache.
BIRTHS = [
    {"datetime": f"1990-06-{1 + i % 28:02d}T{i % 24:02d}:{(7 * i) % 60:02d}:00Z", "lat": "51.5", "lon": "-0.13"}
    for i in range(SAMPLES)
]


def service_ms(handler, message_cls, path: str, extra: dict[str, str]) -> tuple[float, float]:
    """Return the median milliseconds, of CPU and of the clock, of each birth's request with
    ``extra`` (bench/timing.py)."""
    requests = (request_from_query(message_cls, list({**birth, **extra}.items()), path) for birth in BIRTHS)
    return median_service_ms(handler, requests)


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    chart = (
        "chart with D9",
        vedic_chart.compute,
        vedic_pb2.ComputeVedicChartRequest,
        "/v1/vedic/chart",
        {"vargas": "D9"},
    )
    dasha = (
        "dasha, 3 levels, 120 y",
        vimshottari_dasha.compute,
        vedic_pb2.ComputeVimshottariDashaRequest,
        "/v1/vedic/dasha",
        {"levels": "3", "start": "1990-06-01T00:00:00Z", "end": "2110-05-01T00:00:00Z"},
    )
    day = (
        "panchang (a day's, at sunrise)",
        panchang.compute,
        vedic_pb2.ComputePanchangRequest,
        "/v1/vedic/panchang",
        {},
    )
    drawn = (
        "chart drawn (svg, D1 + D9)",
        vedic_chart.compute,
        vedic_pb2.ComputeVedicChartRequest,
        "/v1/vedic/chart",
        {"format": "svg"},
    )
    natal_chart = (
        "natal chart (reference)",
        natal.compute,
        ephemeris_service_pb2.ComputeNatalChartRequest,
        "/v1/natal-chart",
        {},
    )
    cases = (chart, dasha, day, drawn, natal_chart)
    for _, handler, cls, path, extra in cases:
        service_ms(handler, cls, path, extra)  # warm
    medians = {name: service_ms(handler, cls, path, extra) for name, handler, cls, path, extra in cases}
    together = medians[chart[0]][0] + medians[dasha[0]][0]
    reference = medians[natal_chart[0]][0]
    image = medians[drawn[0]][0]
    record("vedic_chart_dasha_ms", together)
    record("vedic_chart_image_svg_ms", image)
    print(f"Jyotish service time, in process (median of {SAMPLES} births; CPU, and the clock's)")
    for name, (cpu, wall) in medians.items():
        print(f"  {name:32s} {cpu:7.3f} ms  (clock {wall:7.3f} ms)")
    verdict = "meets" if together <= GOAL_MS else "MISSES"
    print(
        f"  {'chart with D9 + dasha':32s} {together:7.3f} ms ({verdict} the goal of {GOAL_MS:g} ms; "
        f"{together / reference:.1f}x a natal chart)"
    )
    verdict = "meets" if image <= IMAGE_GOAL_MS else "MISSES"
    print(
        f"  {'chart drawn (svg)':32s} {image:7.3f} ms ({verdict} the goal of {IMAGE_GOAL_MS:g} ms; "
        f"{image / medians[chart[0]][0]:.1f}x the chart with D9 as JSON)"
    )


if __name__ == "__main__":
    main()
