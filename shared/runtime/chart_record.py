"""Kernel charts to the wire's Chart message (interface.md, Chart object; decisions.md, Charts)."""

from __future__ import annotations

from celestial.v1 import common_pb2
from shared.kernel.aspects import AspectMatch, ParallelMatch
from shared.kernel.chart import Chart, ChartMetadata, ChartPosition
from shared.kernel.houses import HouseSet


def chart_record(chart: Chart) -> common_pb2.Chart:
    """Return the Chart message of ``chart``: positions, houses, aspects and parallels,
    metadata and typed warnings (the caller adds patterns, derived points and dignities)."""
    return common_pb2.Chart(
        chart_type=chart.chart_type,
        positions=[position_record(p) for p in chart.positions],
        houses=houses_record(chart.houses),
        aspects=[aspect_record(a) for a in chart.aspects],
        parallels=[parallel_record(p) for p in chart.parallels],
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


def metadata_record(metadata: ChartMetadata) -> common_pb2.ChartMetadata:
    """Return the chart's metadata, its typed ``source`` included."""
    record = common_pb2.ChartMetadata(
        datetime=metadata.jd_ut1,
        datetime_iso=metadata.datetime_iso,
        location=common_pb2.ChartLocation(latitude=metadata.latitude, longitude=metadata.longitude, altitude=metadata.altitude),
        house_system=metadata.house_system,
        bodies=metadata.bodies,
        source=common_pb2.ChartSource(**metadata.source),
    )
    if metadata.sidereal is not None:
        record.sidereal = metadata.sidereal
    return record
