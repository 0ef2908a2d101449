"""Synastry: the aspects and parallels from one person's chart to another's (interface.md, /v1/synastry)."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.aspects import AspectMatch, ParallelMatch, Point, find_aspects_between, find_parallels_between
from kernel.chart import Chart, ChartSettings


@dataclass
class InterChart:
    """What links chart A to chart B: ``aspects`` and ``parallels`` with ``body_a`` always
    from chart A (A-major order: A's bodies in chart order, each against B's in order);
    ``parallels`` is empty when the settings do not ask for them."""

    aspects: list[AspectMatch]
    parallels: list[ParallelMatch]


def inter_chart(chart_a: Chart, chart_b: Chart, settings: ChartSettings) -> InterChart:
    """Return the inter-aspects and inter-parallels of two charts cast with ``settings``.

    ``applying`` says whether the distance shrinks with each body moving at its own daily
    motion at its own birth.
    """
    points_a, points_b = _points(chart_a), _points(chart_b)
    aspects = find_aspects_between(
        points_a, points_b, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying
    )
    parallels = (
        find_parallels_between(points_a, points_b, orb_deg=settings.parallel_orb_deg) if settings.parallels else []
    )
    return InterChart(aspects, parallels)


def _points(chart: Chart) -> list[Point]:
    return [Point(p.body, p.longitude, p.speed, p.declination) for p in chart.positions]
