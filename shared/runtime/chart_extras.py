"""What a chart request may add to its chart: patterns, derived points (midpoints, antiscia,
lots) and dignities, read from the chart options and computed from the cast chart."""

from __future__ import annotations

from dataclasses import dataclass, replace

from celestial.v1 import common_pb2
from shared.errors import InvalidParameter
from shared.runtime.chart_record import aspect_record
from shared.kernel.chart import Chart, zodiacal_house
from shared.kernel.dignities import Dignity, assess, parse_rulership
from shared.kernel.lots import Lot, bodies_needed, compute_lots, is_day_chart, parse_lots
from shared.kernel.midpoints import derived_points
from shared.kernel.patterns import find_patterns, missing_aspect_warnings, parse_pattern_types
from shared.kernel.positions import Observer, compute_positions
from shared.kernel.timescale import Moment
from shared.kernel.zodiac import sign_of


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


def chart_extras_from(request, *, dignities: bool, resolution: str = "lower") -> ChartExtras:
    """Return the extras of a chart request: its options, and the request's own ``dignities``
    switch and midpoint ``resolution``."""
    options = request.options
    return ChartExtras(
        patterns=parse_pattern_types(list(options.pattern_types), param="pattern_types") if options.patterns else None,
        stellium_min=options.stellium_min,
        stellium_scope=options.stellium_scope,
        derived=options.derived_points,
        midpoints=options.midpoints,
        antiscia=options.antiscia,
        lots=parse_lots(list(options.lots)) if options.lots else (),
        resolution=resolution,
        dignities=dignities,
        rulers=parse_rulership(options.rulership),
        day_chart=options.day_chart if options.HasField("day_chart") else None,
    )


def add_extras(record: common_pb2.Chart, chart: Chart, extras: ChartExtras, moment: Moment | None) -> list[str]:
    """Fill ``record``'s patterns, derived points and dignities as ``extras`` ask; return the
    prose warnings they add (a pattern type whose forming aspects were not asked for).
    ``moment`` is the chart's own, to compute a body the lots or the sect need that the chart
    lacks; None for a chart of no moment (a composite), which then needs them among its bodies."""
    warnings: list[str] = []
    longitudes = {p.body: p.longitude for p in chart.positions}
    if extras.patterns is not None:
        warnings += missing_aspect_warnings(extras.patterns, chart.settings.aspect_types, extras.stellium_scope)
        for pattern in find_patterns(
            [p.body for p in chart.positions],
            chart.aspects,
            extras.patterns,
            longitudes=longitudes,
            houses={p.body: p.house for p in chart.positions},
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
            for lot in _lots(chart, extras, moment):
                record.derived_points.append(
                    _derived("lot", lot.name, (lot.body_a, lot.body_b, "ascendant"), lot.longitude, None, chart)
                )
    if extras.dignities:
        day = extras.day_chart if extras.day_chart is not None else chart_is_day(chart, moment)
        for position in chart.positions:
            record.dignities.append(dignity_record(assess(position.body, position.longitude, extras.rulers, day)))
    return warnings


def chart_is_day(chart: Chart, moment: Moment | None) -> bool:
    """Return the chart's sect: the Sun on or above the horizon along the ecliptic from the Ascendant."""
    return is_day_chart(_longitudes_with(chart, ("sun",), moment)["sun"], chart.houses.ascendant_deg)


def _lots(chart: Chart, extras: ChartExtras, moment: Moment | None) -> list[Lot]:
    longitudes = _longitudes_with(chart, bodies_needed(extras.lots), moment)
    day = extras.day_chart if extras.day_chart is not None else chart_is_day(chart, moment)
    return compute_lots(extras.lots, longitudes, chart.houses.ascendant_deg, day)


def _longitudes_with(chart: Chart, needed: tuple[str, ...], moment: Moment | None) -> dict[str, float]:
    """Return the chart's longitudes, with any ``needed`` body it lacks computed on its zodiac."""
    longitudes = {p.body: p.longitude for p in chart.positions}
    missing = [body for body in needed if body not in longitudes]
    if missing and moment is None:
        raise InvalidParameter(
            f"These lots need {', '.join(missing)} among the bodies.",
            suggestion=f"Add {', '.join(missing)} to bodies, or ask for fewer lots.",
            param="lots",
        )
    if missing:
        flags = replace(chart.settings.flags, equatorial=False)
        place = Observer(chart.metadata.latitude, chart.metadata.longitude, chart.metadata.altitude)
        for record in compute_positions(moment, missing, flags, place if flags.topocentric else None).records:
            longitudes[record.body] = record.longitude
    return longitudes


def _derived(kind: str, name: str, constituents: tuple[str, ...], longitude: float, declination: float | None, chart: Chart) -> common_pb2.DerivedPointRecord:
    sign, degree = sign_of(longitude)
    item = common_pb2.DerivedPointRecord(
        kind=kind, name=name, constituents=list(constituents), longitude=longitude, sign=sign, sign_degree=degree,
        house=zodiacal_house(longitude, chart.houses.cusps_deg),
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
