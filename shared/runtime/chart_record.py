"""Kernel charts to the wire's Chart message (interface.md, Chart object; decisions.md, Charts):
the cast chart rendered whole, computing nothing."""

from __future__ import annotations

from celestial.v1 import common_pb2
from kernel.aspects import AspectMatch, ParallelMatch
from kernel.chart import Chart, ChartMetadata, ChartPosition
from kernel.chart_extras import PlacedPoint
from kernel.dignities import Dignity
from kernel.houses import HouseSet
from kernel.patterns import Pattern


def chart_record(chart: Chart) -> common_pb2.Chart:
    """Return the Chart message of ``chart``: positions, houses, aspects and parallels, the
    patterns, derived points and dignities it was cast with, metadata and typed warnings."""
    return common_pb2.Chart(
        chart_type=chart.chart_type,
        positions=[position_record(p) for p in chart.positions],
        houses=houses_record(chart.houses),
        aspects=[aspect_record(a) for a in chart.aspects],
        parallels=[parallel_record(p) for p in chart.parallels],
        patterns=[pattern_record(p) for p in chart.patterns],
        derived_points=[derived_point_record(p) for p in chart.derived_points],
        dignities=[dignity_record(d) for d in chart.dignities],
        metadata=metadata_record(chart.metadata),
        warnings=[common_pb2.Condition(kind=c.kind, details=c.message) for c in chart.warnings],
    )


def position_record(position: ChartPosition) -> common_pb2.ChartPosition:
    """Return one ``positions[]`` member (``house_position`` and ``right_ascension`` only when set)."""
    record = common_pb2.ChartPosition(
        body=position.body,
        longitude=position.longitude,
        latitude=position.latitude,
        distance_au=position.distance_au,
        speed=position.speed,
        retrograde=position.retrograde,
        sign=position.sign,
        sign_degree=position.sign_degree,
        house=position.house,
        declination=position.declination,
        out_of_bounds=position.out_of_bounds,
    )
    if position.house_position is not None:
        record.house_position = position.house_position
    if position.right_ascension is not None:
        record.right_ascension = position.right_ascension
    return record


def houses_record(houses: HouseSet) -> common_pb2.ChartHouses:
    """Return the Houses object: ``cusps`` with slot 0 a placeholder (0.0) and the cusps from slot 1."""
    return common_pb2.ChartHouses(
        cusps=[0.0, *houses.cusps_deg],
        ascendant=houses.ascendant_deg,
        midheaven=houses.midheaven_deg,
        vertex=houses.vertex_deg,
    )


def aspect_record(aspect: AspectMatch) -> common_pb2.AspectRecord:
    """Return a chart's aspect record: ``angle`` the actual separation, ``max_orb`` the orb
    that admitted it, ``applying`` only when computed."""
    record = common_pb2.AspectRecord(
        body_a=aspect.body_a,
        body_b=aspect.body_b,
        aspect=aspect.aspect,
        angle=aspect.separation_deg,
        orb=aspect.orb_deg,
        max_orb=aspect.max_orb_deg,
    )
    if aspect.applying is not None:
        record.applying = aspect.applying
    return record


def parallel_record(parallel: ParallelMatch) -> common_pb2.ParallelRecord:
    """Return one parallel or contraparallel record."""
    return common_pb2.ParallelRecord(
        body_a=parallel.body_a,
        body_b=parallel.body_b,
        parallel_type=parallel.parallel_type,
        declination_a=parallel.declination_a_deg,
        declination_b=parallel.declination_b_deg,
        orb=parallel.orb_deg,
        max_orb=parallel.max_orb_deg,
    )


def pattern_record(pattern: Pattern) -> common_pb2.PatternRecord:
    """Return one pattern record: its forming aspects as aspect records, ``focal`` when it has one."""
    record = common_pb2.PatternRecord(
        pattern=pattern.pattern,
        bodies=pattern.bodies,
        aspects=[aspect_record(a) for a in pattern.aspects],
        tightness=pattern.tightness,
    )
    if pattern.focal is not None:
        record.focal = pattern.focal
    return record


def derived_point_record(point: PlacedPoint) -> common_pb2.DerivedPointRecord:
    """Return one derived point record (``house`` and ``declination`` only when the point has
    one: a chart without a place has no houses)."""
    record = common_pb2.DerivedPointRecord(
        kind=point.kind,
        name=point.name,
        constituents=list(point.constituents),
        longitude=point.longitude,
        sign=point.sign,
        sign_degree=point.sign_degree,
    )
    if point.house is not None:
        record.house = point.house
    if point.declination is not None:
        record.declination = point.declination
    return record


def dignity_record(dignity: Dignity) -> common_pb2.DignityRecord:
    """Return one Dignity record (the exaltation and the triplicity ruler only when there is one)."""
    record = common_pb2.DignityRecord(
        body=dignity.body,
        sign=dignity.sign,
        sign_degree=dignity.sign_degree,
        domicile_ruler=dignity.domicile_ruler,
        in_domicile=dignity.in_domicile,
        in_detriment=dignity.in_detriment,
        in_exaltation=dignity.in_exaltation,
        in_fall=dignity.in_fall,
        in_triplicity=dignity.in_triplicity,
        term_ruler=dignity.term_ruler,
        in_term=dignity.in_term,
        face_ruler=dignity.face_ruler,
        in_face=dignity.in_face,
        peregrine=dignity.peregrine,
        score=dignity.score,
    )
    if dignity.exaltation_ruler is not None:
        record.exaltation_ruler = dignity.exaltation_ruler
        record.exaltation_degree = dignity.exaltation_degree
    if dignity.triplicity_ruler is not None:
        record.triplicity_ruler = dignity.triplicity_ruler
    return record


def metadata_record(metadata: ChartMetadata) -> common_pb2.ChartMetadata:
    """Return the chart's metadata, its typed ``source`` included."""
    record = common_pb2.ChartMetadata(
        datetime=metadata.jd_ut1,
        datetime_iso=metadata.datetime_iso,
        location=common_pb2.ChartLocation(
            latitude=metadata.latitude, longitude=metadata.longitude, altitude=metadata.altitude
        ),
        house_system=metadata.house_system,
        bodies=metadata.bodies,
        source=common_pb2.ChartSource(**metadata.source),
    )
    if metadata.sidereal is not None:
        record.sidereal = metadata.sidereal
    return record
