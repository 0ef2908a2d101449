"""What a chart request may add to its chart: patterns, derived points (midpoints, antiscia,
lots) and dignities, read from the chart options and computed from the cast chart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from celestial.v1 import common_pb2
from shared.errors import InvalidParameter
from shared.runtime.wire import sent_or_default
from shared.runtime.chart_options import chart_request_options
from shared.runtime.chart_record import aspect_record
from shared.kernel.chart import Chart
from shared.kernel.composite import composite_longitude
from shared.kernel.dignities import Dignity, assess, parse_rulership
from shared.kernel.lots import Lot, bodies_needed, compute_lots, is_day_chart, parse_lots
from shared.kernel.midpoints import derived_points
from shared.kernel.patterns import find_patterns, missing_aspect_warnings, parse_pattern_types
from shared.kernel.positions import Observer, compute_positions
from shared.kernel.timescale import Moment
from shared.kernel.zodiac import normalize_deg, sign_of

#: Longitudes (degrees, on a chart's zodiac) of the bodies named, for a chart that lacks them.
OperandSource = Callable[[tuple[str, ...]], dict[str, float]]


@dataclass(frozen=True)
class ChartExtras:
    """The extras a chart request asks for, read once from its options."""

    patterns: tuple[str, ...] | None  # pattern types, or None when patterns=false
    stellium_min: int
    stellium_scope: str
    derived: bool
    midpoints: bool
    antiscia: bool
    lots: tuple[str, ...]
    resolution: str
    dignities: bool
    rulers: tuple[str, ...]
    day_chart: bool | None
    unused: tuple[str, ...] = ()  # derived-point parameters sent without derived_points=true


def chart_extras_from(request, *, dignities: bool, resolution: str = "lower", resolution_sent: bool = False) -> ChartExtras:
    """Return the extras of a chart request: its options, and the request's own ``dignities``
    switch and midpoint ``resolution`` (``lower`` where the request has none of its own).

    Lots need geocentric positions: with ``heliocentric`` a request whose derived points would
    hold lots is refused (InvalidParameter naming ``lots``). ``unused`` names the derived-point
    parameters sent without ``derived_points=true`` (``lots``, ``midpoints``, ``antiscia``,
    ``resolution``: validation leaves those absent when not sent, ``default_by_reader``).
    """
    options = chart_request_options(request).options
    lots = parse_lots(list(options.lots)) if options.lots else ()
    if options.derived_points and lots and options.heliocentric:
        # A lot adds and subtracts geocentric longitudes to the Ascendant; a heliocentric
        # chart has no such longitudes to give it.
        raise InvalidParameter(
            "Lots are built from geocentric longitudes and the Ascendant; a heliocentric chart has none.",
            suggestion="Drop heliocentric, or drop lots.",
            param="lots",
        )
    midpoints, midpoints_sent = sent_or_default(request, "midpoints")
    antiscia, antiscia_sent = sent_or_default(request, "antiscia")
    sent = (("lots", bool(lots)), ("midpoints", midpoints_sent), ("antiscia", antiscia_sent), ("resolution", resolution_sent))
    return ChartExtras(
        patterns=parse_pattern_types(list(options.pattern_types), param="pattern_types") if options.patterns else None,
        stellium_min=options.stellium_min,
        stellium_scope=options.stellium_scope,
        derived=options.derived_points,
        midpoints=midpoints,
        antiscia=antiscia,
        lots=lots,
        resolution=resolution,
        dignities=dignities,
        rulers=parse_rulership(options.rulership),
        day_chart=options.day_chart if options.HasField("day_chart") else None,
        unused=() if options.derived_points else tuple(name for name, was_sent in sent if was_sent),
    )


def chart_operands(chart: Chart, moment: Moment) -> OperandSource:
    """Return the operand source of a chart cast at ``moment``: each body computed there with
    the chart's flags, on the chart's zodiac (turned back as the chart is, for a draconic one)."""
    flags = replace(chart.settings.flags, equatorial=False)
    place = Observer(chart.metadata.latitude, chart.metadata.longitude, chart.metadata.altitude)

    def longitudes(bodies: tuple[str, ...]) -> dict[str, float]:
        records = compute_positions(moment, list(bodies), flags, place if flags.topocentric else None).records
        return {r.body: normalize_deg(r.longitude - chart.turn_deg) for r in records}

    return longitudes


def composite_operands(chart_a: Chart, moment_a: Moment, chart_b: Chart, moment_b: Moment, resolution: str) -> OperandSource:
    """Return the operand source of the composite of two charts: each body's composite
    longitude (``resolution`` nearest or far) of its two natal longitudes."""
    source_a, source_b = chart_operands(chart_a, moment_a), chart_operands(chart_b, moment_b)

    def longitudes(bodies: tuple[str, ...]) -> dict[str, float]:
        a, b = source_a(bodies), source_b(bodies)
        return {body: composite_longitude(a[body], b[body], resolution) for body in bodies}

    return longitudes


def add_extras(record: common_pb2.Chart, chart: Chart, extras: ChartExtras, operands: OperandSource, *, patterns_of: Chart | None = None) -> list[str]:
    """Fill ``record``'s patterns, derived points and dignities as ``extras`` ask; return the
    prose warnings they add (a pattern type whose forming aspects were not asked for;
    derived-point parameters sent without ``derived_points=true``). ``operands`` gives the
    longitudes of bodies the lots or the sect need that the chart lacks. The patterns are
    ``patterns_of``'s when given (a draconic chart reports its natal chart's), else ``chart``'s.
    Every derived point is placed in a house as the chart places its bodies (latitude 0)."""
    warnings: list[str] = []
    if extras.unused:
        names = extras.unused
        warnings.append(
            f"{', '.join(names)} {'was' if len(names) == 1 else 'were'} not used: "
            f"{'it applies' if len(names) == 1 else 'they apply'} to derived points, which need derived_points=true."
        )
    if extras.patterns is not None:
        source = patterns_of if patterns_of is not None else chart
        warnings += missing_aspect_warnings(extras.patterns, chart.settings.aspect_types, extras.stellium_scope)
        for pattern in find_patterns(
            [p.body for p in source.positions],
            source.aspects,
            extras.patterns,
            longitudes={p.body: p.longitude for p in source.positions},
            houses={p.body: p.house for p in source.positions},
            stellium_min=extras.stellium_min,
            stellium_scope=extras.stellium_scope,
        ):
            item = common_pb2.PatternRecord(
                pattern=pattern.pattern,
                bodies=pattern.bodies,
                aspects=[aspect_record(a) for a in pattern.aspects],
                tightness=pattern.tightness,
            )
            if pattern.focal is not None:
                item.focal = pattern.focal
            record.patterns.append(item)
    if extras.derived:
        points = derived_points(
            [(p.body, p.longitude, p.declination) for p in chart.positions],
            midpoints=extras.midpoints,
            antiscia=extras.antiscia,
            resolution=extras.resolution,
        )
        for point in points:
            record.derived_points.append(_derived(point.kind, point.name, point.constituents, point.longitude, point.declination, chart))
        if extras.lots:
            for lot in _lots(chart, extras, operands):
                record.derived_points.append(
                    _derived("lot", lot.name, (lot.body_a, lot.body_b, "ascendant"), lot.longitude, None, chart)
                )
    if extras.dignities:
        day = extras.day_chart if extras.day_chart is not None else chart_is_day(chart, operands)
        for position in chart.positions:
            record.dignities.append(dignity_record(assess(position.body, position.longitude, extras.rulers, day)))
    return warnings


def chart_is_day(chart: Chart, operands: OperandSource) -> bool:
    """Return the chart's sect: the Sun on or above the horizon along the ecliptic from the Ascendant."""
    return is_day_chart(_longitudes_with(chart, ("sun",), operands)["sun"], chart.houses.ascendant_deg)


def _lots(chart: Chart, extras: ChartExtras, operands: OperandSource) -> list[Lot]:
    longitudes = _longitudes_with(chart, bodies_needed(extras.lots), operands)
    day = extras.day_chart if extras.day_chart is not None else chart_is_day(chart, operands)
    return compute_lots(extras.lots, longitudes, chart.houses.ascendant_deg, day)


def _longitudes_with(chart: Chart, needed: tuple[str, ...], operands: OperandSource) -> dict[str, float]:
    """Return the chart's longitudes, with any ``needed`` body it lacks taken from ``operands``."""
    longitudes = {p.body: p.longitude for p in chart.positions}
    missing = tuple(body for body in needed if body not in longitudes)
    if missing:
        longitudes.update(operands(missing))
    return longitudes


def _derived(kind: str, name: str, constituents: tuple[str, ...], longitude: float, declination: float | None, chart: Chart) -> common_pb2.DerivedPointRecord:
    sign, degree = sign_of(longitude)
    item = common_pb2.DerivedPointRecord(
        kind=kind, name=name, constituents=list(constituents), longitude=longitude, sign=sign, sign_degree=degree,
        house=chart.placement.house(longitude),
    )
    if declination is not None:
        item.declination = declination
    return item


def dignity_record(dignity: Dignity) -> common_pb2.DignityRecord:
    """Return the wire Dignity record of a kernel Dignity."""
    record = common_pb2.DignityRecord(
        body=dignity.body, sign=dignity.sign, sign_degree=dignity.sign_degree, domicile_ruler=dignity.domicile_ruler,
        in_domicile=dignity.in_domicile, in_detriment=dignity.in_detriment, in_exaltation=dignity.in_exaltation,
        in_fall=dignity.in_fall, in_triplicity=dignity.in_triplicity, term_ruler=dignity.term_ruler, in_term=dignity.in_term,
        face_ruler=dignity.face_ruler, in_face=dignity.in_face, peregrine=dignity.peregrine, score=dignity.score,
    )
    if dignity.exaltation_ruler is not None:
        record.exaltation_ruler = dignity.exaltation_ruler
        record.exaltation_degree = dignity.exaltation_degree
    if dignity.triplicity_ruler is not None:
        record.triplicity_ruler = dignity.triplicity_ruler
    return record
