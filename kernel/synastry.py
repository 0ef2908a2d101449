"""Synastry: the aspects and parallels from one person's chart to another's (interface.md, /v1/synastry)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel.aspects import AspectMatch, ParallelMatch, Point, find_aspects_between, find_parallels_between
from kernel.chart import Chart, ChartSettings


@dataclass(frozen=True)
class Overlay:
    """One body of one chart in a house (1-12; sector 1-36 for Gauquelin) of the other chart."""

    body: str
    house: int


@dataclass
class InterChart:
    """What links chart A to chart B: ``aspects`` and ``parallels`` with ``body_a`` always
    from chart A (A-major order: A's bodies in chart order, each against B's in order);
    ``parallels`` is empty when the settings do not ask for them. ``a_in_b`` holds A's bodies
    (in chart order) in B's houses, ``b_in_a`` B's in A's (empty for a chart without houses)."""

    aspects: list[AspectMatch]
    parallels: list[ParallelMatch]
    a_in_b: list[Overlay] = field(default_factory=list)
    b_in_a: list[Overlay] = field(default_factory=list)


def inter_chart(chart_a: Chart, chart_b: Chart, settings: ChartSettings) -> InterChart:
    """Return the inter-aspects, inter-parallels and house overlays of two charts cast with
    ``settings``.

    ``applying`` says whether the distance shrinks with each body moving at its own daily
    motion at its own birth. A body's house in the other chart is found by the other chart's
    own placement rule (``house_position_mode``: the zodiacal cusp span holding its longitude,
    or the floor of its mundane house position from its longitude and ecliptic latitude), as
    that chart places its own bodies; the longitude is the one the body has in its own chart.
    """
    points_a, points_b = _points(chart_a), _points(chart_b)
    aspects = find_aspects_between(
        points_a, points_b, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying
    )
    parallels = (
        find_parallels_between(points_a, points_b, orb_deg=settings.parallel_orb_deg) if settings.parallels else []
    )
    return InterChart(aspects, parallels, overlays(chart_a, chart_b), overlays(chart_b, chart_a))


def overlays(guest: Chart, host: Chart) -> list[Overlay]:
    """Return ``guest``'s bodies, in chart order, each in the house of ``host`` that ``host``'s
    placement puts a point at its longitude and ecliptic latitude (degrees); none when
    ``host`` has no houses."""
    if host.placement is None:
        return []
    return [Overlay(p.body, host.placement.house(p.longitude, p.latitude)) for p in guest.positions]


def _points(chart: Chart) -> list[Point]:
    return [Point(p.body, p.longitude, p.speed, p.declination) for p in chart.positions]
