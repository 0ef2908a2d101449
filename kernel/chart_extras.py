"""What a chart adds to its positions, houses and aspects when asked: the patterns its aspects
form, its derived points (midpoints, antiscia and lots, each placed in a house as the chart
places its bodies), the midpoint trees of its bodies, each body's dignities, the dispositors of
its bodies, and the chart's sect.

:func:`kernel.chart.cast_chart` applies them to the chart it casts; a chart made from
others (a composite) applies them with :func:`with_extras` and an operand source of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kernel.bodies import SUN
from kernel.dignities import Dignity, Dispositors, assess, dispositors
from kernel.lots import Lot, bodies_needed, compute_lots, is_day_chart
from kernel.midpoints import DEFAULT_MODULUS_DEG, DEFAULT_TREE_ORB_DEG, Tree, derived_points, midpoint_trees
from kernel.patterns import Pattern, find_patterns, missing_aspect_warnings
from kernel.positions import Observer, compute_positions
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg, sign_of

if TYPE_CHECKING:  # chart.py imports this module to cast a chart's extras
    from kernel.chart import Chart

#: Longitudes (degrees, on a chart's zodiac) of the bodies named, for a chart that lacks them.
OperandSource = Callable[[tuple[str, ...]], dict[str, float]]


@dataclass(frozen=True)
class ChartExtras:
    """The extras wanted of a chart.

    ``patterns``: the pattern types to find (None: none), stelliums of at least
    ``stellium_min`` bodies within ``stellium_scope``; with ``derived``, the ``midpoints``, the
    ``antiscia`` and the ``lots`` (ids) as derived points, midpoints taking the ``resolution``
    arc of an exact opposition; with ``trees``, each body's midpoint tree on the dial of
    ``tree_modulus_deg`` degrees, hits within ``tree_orb_deg`` degrees (midpoints by the same
    ``resolution``); with ``dignities``, each body assessed under ``rulers`` by the sect
    ``day_chart`` (None: the chart's own); with ``dispositors``, the dispositorship of the
    chart's bodies under ``rulers``. ``unused`` names the derived-point parameters a request
    sent without ``derived_points`` (a note says they were not used).
    """

    patterns: tuple[str, ...] | None = None
    stellium_min: int = 3
    stellium_scope: str = "sign"
    derived: bool = False
    midpoints: bool = True
    antiscia: bool = True
    lots: tuple[str, ...] = ()
    resolution: str = "lower"
    trees: bool = False
    tree_modulus_deg: float = DEFAULT_MODULUS_DEG
    tree_orb_deg: float = DEFAULT_TREE_ORB_DEG
    dignities: bool = False
    dispositors: bool = False
    rulers: tuple[str, ...] = ()
    day_chart: bool | None = None
    unused: tuple[str, ...] = ()


#: A chart with nothing added.
NO_EXTRAS = ChartExtras()


@dataclass(frozen=True)
class PlacedPoint:
    """A derived point of a chart: ``kind`` (midpoint, antiscion, contra_antiscion, lot),
    ``name``, ``constituents``, ``longitude`` in degrees [0, 360) on the chart's zodiac, its
    ``sign`` (lowercase) and ``sign_degree`` [0, 30), the ``house`` the chart places it in (as
    a point of latitude 0; None in a chart without a place) and its ``declination`` in degrees
    (None for midpoints and lots)."""

    kind: str
    name: str
    constituents: tuple[str, ...]
    longitude: float
    sign: str
    sign_degree: float
    house: int | None
    declination: float | None = None


def operands_at(chart: Chart, moment: Moment) -> OperandSource:
    """Return the operand source of ``chart`` cast at ``moment``: each body computed there with
    the chart's flags, on the chart's zodiac (turned back as the chart is, for a draconic one)."""
    flags = replace(chart.settings.flags, equatorial=False)
    place = Observer(chart.metadata.latitude, chart.metadata.longitude, chart.metadata.altitude)

    def longitudes(bodies: tuple[str, ...]) -> dict[str, float]:
        records = compute_positions(moment, list(bodies), flags, place if flags.topocentric else None).records
        return {r.body: normalize_deg(r.longitude - chart.turn_deg) for r in records}

    return longitudes


def known_operands(longitudes: dict[str, float], turn_deg: float = 0.0) -> OperandSource:
    """Return the operand source of bodies computed already: each one's longitude of
    ``longitudes`` (degrees, on the zodiac of the chart they were computed with) turned back by
    ``turn_deg`` as the chart the source serves is (a draconic chart's node; 0 otherwise)."""

    def turned(bodies: tuple[str, ...]) -> dict[str, float]:
        return {body: normalize_deg(longitudes[body] - turn_deg) for body in bodies}

    return turned


def operand_bodies(extras: ChartExtras, bodies: tuple[str, ...], *, placed: bool) -> tuple[str, ...]:
    """Return the bodies the ``extras`` need that a chart of ``bodies`` lacks, in the order
    first used: a lot's (with derived points), and the Sun of the sect when the lots or the
    dignities are assessed by the chart's own sect (a chart with a place, ``placed``, only)."""
    needed = list(bodies_needed(extras.lots)) if extras.derived else []
    if placed and extras.day_chart is None and (extras.dignities or needed) and SUN not in needed:
        needed.insert(0, SUN)
    return tuple(body for body in needed if body not in bodies)


def sect(chart: Chart, operands: OperandSource) -> bool | None:
    """Return whether ``chart`` is a day chart: its own sect, or, when it has no Sun, the Sun
    from ``operands`` on or above the horizon along the ecliptic from its Ascendant; None for a
    chart without houses (no place, so no horizon)."""
    if chart.day_chart is not None:
        return chart.day_chart
    if chart.houses is None:
        return None
    return is_day_chart(operands((SUN,))[SUN], chart.houses.ascendant_deg)


def with_extras(
    chart: Chart, extras: ChartExtras, operands: OperandSource, *, patterns_of: Chart | None = None
) -> Chart:
    """Return ``chart`` with the extras wanted: its ``patterns``, ``derived_points`` (midpoints
    and antiscia, then lots; the ``lots`` also as the kernel's Lot values), ``trees`` (one per
    body, in chart order), ``dignities`` (one per body, in chart order), ``dispositors``, its
    sect (``day_chart``, when lots or dignities needed it) and ``notes``, the prose warnings of
    its extras (derived-point parameters not used; a pattern type whose forming aspects were
    not asked for). ``operands`` gives the longitudes of bodies the lots or the sect need that
    the chart lacks. The patterns are ``patterns_of``'s when given (a draconic chart reports its
    natal chart's patterns), else ``chart``'s. A stellium by house in a chart without houses is
    the kernel's MissingValue (:func:`kernel.patterns.require_houses`); lots in one are the
    caller's error (ValueError): a lot is measured from the Ascendant."""
    notes: list[str] = []
    if extras.unused:
        names = extras.unused
        notes.append(
            f"{', '.join(names)} {'was' if len(names) == 1 else 'were'} not used: "
            f"{'it applies' if len(names) == 1 else 'they apply'} to derived points, which need derived_points=true."
        )
    patterns: list[Pattern] = []
    if extras.patterns is not None:
        source = patterns_of if patterns_of is not None else chart
        notes += missing_aspect_warnings(extras.patterns, chart.settings.aspect_types, extras.stellium_scope)
        patterns = find_patterns(
            [p.body for p in source.positions],
            source.aspects,
            extras.patterns,
            longitudes={p.body: p.longitude for p in source.positions},
            houses={p.body: p.house for p in source.positions} if source.houses is not None else None,
            stellium_min=extras.stellium_min,
            stellium_scope=extras.stellium_scope,
        )
    day = extras.day_chart
    if day is None and (extras.dignities or (extras.derived and extras.lots)):
        day = sect(chart, operands)
    elif day is None:
        day = chart.day_chart
    points: list[PlacedPoint] = []
    lots: list[Lot] = []
    if extras.derived:
        found = derived_points(
            [(p.body, p.longitude, p.declination) for p in chart.positions],
            midpoints=extras.midpoints,
            antiscia=extras.antiscia,
            resolution=extras.resolution,
        )
        points = [_placed(chart, p.kind, p.name, p.constituents, p.longitude, p.declination) for p in found]
        if extras.lots:
            if chart.houses is None or day is None:
                raise ValueError("lots are measured from the Ascendant: a chart without a place has none")
            lots = _lots(chart, extras.lots, operands, day)
            points += [
                _placed(chart, "lot", lot.name, (lot.body_a, lot.body_b, "ascendant"), lot.longitude, None)
                for lot in lots
            ]
    trees: list[Tree] = (
        midpoint_trees(
            [(p.body, p.longitude) for p in chart.positions],
            modulus_deg=extras.tree_modulus_deg,
            orb_deg=extras.tree_orb_deg,
            resolution=extras.resolution,
        )
        if extras.trees
        else []
    )
    dignities: list[Dignity] = (
        [assess(p.body, p.longitude, extras.rulers, day) for p in chart.positions] if extras.dignities else []
    )
    disposition: Dispositors | None = (
        dispositors([(p.body, p.longitude) for p in chart.positions], extras.rulers) if extras.dispositors else None
    )
    return replace(
        chart,
        patterns=patterns,
        derived_points=points,
        lots=lots,
        trees=trees,
        dignities=dignities,
        dispositors=disposition,
        day_chart=day,
        notes=notes,
    )


def _lots(chart: Chart, lot_ids: tuple[str, ...], operands: OperandSource, day: bool) -> list[Lot]:
    longitudes = _longitudes_with(chart, bodies_needed(lot_ids), operands)
    return compute_lots(lot_ids, longitudes, chart.houses.ascendant_deg, day)  # type: ignore[union-attr]  # with_extras checked the houses


def _longitudes_with(chart: Chart, needed: tuple[str, ...], operands: OperandSource) -> dict[str, float]:
    """Return the chart's longitudes, with any ``needed`` body it lacks taken from ``operands``."""
    longitudes = {p.body: p.longitude for p in chart.positions}
    missing = tuple(body for body in needed if body not in longitudes)
    if missing:
        longitudes.update(operands(missing))
    return longitudes


def _placed(
    chart: Chart, kind: str, name: str, constituents: tuple[str, ...], longitude: float, declination: float | None
) -> PlacedPoint:
    sign, degree = sign_of(longitude)
    house = chart.placement.house(longitude) if chart.placement is not None else None
    return PlacedPoint(kind, name, tuple(constituents), longitude, sign, degree, house, declination)
