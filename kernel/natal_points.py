"""The points of a natal chart that the time-lords and transit scans read: each body's
longitude, the Ascendant and the Midheaven, the Hermetic lots its bodies allow, and its sect.

They are read from the chart :func:`kernel.chart.cast_chart` casts, the one builder
of every chart the service gives, so a natal point is the natal chart's own value.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from kernel.ayanamshas import Ayanamsha
from kernel.chart import ChartSettings, cast_chart
from kernel.chart_extras import NO_EXTRAS, ChartExtras
from kernel.conditions import Condition
from kernel.houses import FALLBACK_SYSTEM_NAME, parse_house_system
from kernel.lots import LOTS, bodies_needed, parse_lots
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment

ASCENDANT, MIDHEAVEN = "ascendant", "midheaven"

#: The house system of a natal chart cast for a request that names none (the time-lords and
#: transit targets read only its Ascendant and Midheaven). The Ascendant is the same in every
#: system; so is the Midheaven, but for Regiomontanus, Campanus, Polich-Page, Sunshine (Treindl)
#: and APC inside the polar circles, where Swiss Ephemeris may give the IC in its place. Cast in
#: Porphyrius, the angles are those of the natal chart's default system, Placidus, which falls
#: back to Porphyrius there; and the chart never falls back nor warns at any latitude
#: (tests/unit/kernel/test_houses.py proves each of these).
ANGLES_ONLY_SYSTEM = parse_house_system(FALLBACK_SYSTEM_NAME)


@dataclass(frozen=True)
class NatalPoints:
    """A birth's points: ``birth``, its zodiac (``ayanamsha``; None: tropical), the longitude
    (degrees [0, 360) on that zodiac, the natal chart's own) of each point by name, in this
    order: the bodies in chart order, the Ascendant and the Midheaven (with a place), then the
    lots (when asked for) whose bodies are all among the bodies, in evaluation order; the
    conditions the chart met (``warnings``); and the chart's sect (``is_day``: the Sun on or
    above the horizon), None without the Sun or a place."""

    birth: Moment
    ayanamsha: Ayanamsha | None
    longitudes: dict[str, float]
    warnings: list[Condition]
    is_day: bool | None = None


def natal_points(
    birth: Moment,
    place: Observer | None,
    bodies: Sequence[str],
    *,
    sidereal: Ayanamsha | None = None,
    lots: bool = False,
) -> NatalPoints:
    """Return the natal points of ``bodies`` (resolved names) born at ``birth`` and ``place``
    (None: the bodies alone, no angles nor lots), tropical or ``sidereal``, with the lots when
    ``lots`` is set.

    The chart is :func:`cast_chart`'s with no flag but ``sidereal`` (apparent geocentric
    longitudes of date), cast in :data:`ANGLES_ONLY_SYSTEM`. A lot is computed as the natal
    chart's derived points compute it (:mod:`kernel.chart_extras`, by the chart's sect), here only
    when every body of its formula, and of the lots it is built on, is among ``bodies``.
    """
    settings = ChartSettings(
        tuple(bodies), ANGLES_ONLY_SYSTEM, CalcFlags(sidereal=sidereal), aspect_types=(), parallels=False
    )
    # Every lot is built on Fortune or Spirit, so a chart with lots has the Sun among its bodies.
    available = lots_allowed((*bodies, ASCENDANT, MIDHEAVEN)) if lots and place is not None else ()
    extras = ChartExtras(derived=True, midpoints=False, antiscia=False, lots=available) if available else NO_EXTRAS
    chart = cast_chart(birth, place, settings, extras=extras)
    longitudes = {p.body: p.longitude for p in chart.positions}
    if chart.houses is not None:
        longitudes[ASCENDANT], longitudes[MIDHEAVEN] = chart.houses.ascendant_deg, chart.houses.midheaven_deg
    longitudes.update((lot.id, lot.longitude) for lot in chart.lots)
    return NatalPoints(birth, sidereal, longitudes, list(chart.warnings), chart.day_chart)


def lots_allowed(points: Collection[str]) -> tuple[str, ...]:
    """Return the ids of the lots a chart holding ``points`` (resolved body names and angles)
    computes, in evaluation order: those every body of whose formula, and of the lots it is
    built on, is among ``points``."""
    return parse_lots([lot.id for lot in LOTS if set(bodies_needed(parse_lots([lot.id]))) <= set(points)])


def point_names(bodies: Sequence[str], *, place: bool, lots: bool = False) -> tuple[str, ...]:
    """Return the names of the points :func:`natal_points` gives for ``bodies`` (resolved
    names), with a place or without, with the lots or without, in its order: known from the
    request alone, before anything is cast."""
    names = tuple(bodies) + ((ASCENDANT, MIDHEAVEN) if place else ())
    return names + (lots_allowed(names) if lots and place else ())
