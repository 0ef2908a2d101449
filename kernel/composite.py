"""The midpoint composite of two charts (decisions.md, /v1/composite).

Conventions: each composite position is the midpoint of the two natal longitudes on the
shorter arc (``nearest``) or the point opposite it (``far``); exactly 180° apart the lower
candidate is taken. Latitude, distance, speed and declination are the two values' means;
cusps, angles and the ARMC are the midpoints (shorter arc) of the two charts'; each body's
house is zodiacal in the composite cusps. A composite sky was never seen from a place, so
there are no mundane house positions; but Gauquelin sectors place every point by the sector it
stands in (decisions.md), so with Gauquelin cusps a composite position's sector is the span of
the composite's own sector cusps that holds it (sectors run against the zodiac), which is where
the house position of any point on the ecliptic falls in a chart of a place. (The Swiss
Ephemeris house position at the composite ARMC and midpoint latitude would put a fifth of the
ecliptic in a sector other than the one between the composite cusps shown.) Metadata: the UT1 Julian Day halfway between
the births, the great-circle midpoint of the places, the house system (``a/b`` when one chart fell back to Porphyrius
inside a polar circle and the other did not), ``source`` ``{type: composite, resolution}``.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.aspects import Point, find_aspects, find_parallels
from kernel.chart import (
    GAUQUELIN_LETTER,
    Chart,
    ChartMetadata,
    ChartPosition,
    ChartSettings,
    HousePlacement,
    cast_chart,
)
from kernel.chart_extras import NO_EXTRAS, ChartExtras, OperandSource, operands_at, with_extras
from kernel.davison import great_circle_midpoint
from kernel.errors import concerning
from kernel.midpoints import midpoint
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg, sign_key_of

COMPOSITE_RESOLUTIONS = ("nearest", "far")


def composite_longitude(a_deg: float, b_deg: float, resolution: str = "nearest") -> float:
    """Return the composite longitude (degrees [0, 360)) of two longitudes."""
    near = midpoint(a_deg, b_deg, "lower")
    return near if resolution == "nearest" else normalize_deg(near + 180.0)


def cast_composite(
    birth_a: tuple[Moment, Observer],
    birth_b: tuple[Moment, Observer],
    settings: ChartSettings,
    resolution: str = "nearest",
    extras: ChartExtras = NO_EXTRAS,
) -> Chart:
    """Return the composite of the charts of two births (each a moment and a place) cast with
    ``settings``, with the ``extras`` wanted; a body a lot or the sect needs that the charts
    lack is composed as every position is. An error about a birth's moment (an asteroid outside
    its ephemeris) is about ``moment_a`` or ``moment_b``."""
    (moment_a, place_a), (moment_b, place_b) = birth_a, birth_b
    with concerning("moment_a"):
        chart_a = cast_chart(moment_a, place_a, settings)
    with concerning("moment_b"):
        chart_b = cast_chart(moment_b, place_b, settings)
    chart = composite_chart(chart_a, chart_b, settings, resolution)
    if extras == NO_EXTRAS:
        return chart
    return with_extras(chart, extras, composite_operands(chart_a, moment_a, chart_b, moment_b, resolution))


def composite_operands(
    chart_a: Chart, moment_a: Moment, chart_b: Chart, moment_b: Moment, resolution: str
) -> OperandSource:
    """Return the operand source of the composite of two charts: each body's composite
    longitude (``resolution`` nearest or far) of its two natal longitudes."""
    source_a, source_b = operands_at(chart_a, moment_a), operands_at(chart_b, moment_b)

    def longitudes(bodies: tuple[str, ...]) -> dict[str, float]:
        a, b = source_a(bodies), source_b(bodies)
        return {body: composite_longitude(a[body], b[body], resolution) for body in bodies}

    return longitudes


def composite_chart(chart_a: Chart, chart_b: Chart, settings: ChartSettings, resolution: str = "nearest") -> Chart:
    """Return the composite of two charts cast with the same ``settings`` (same bodies)."""
    cusps = [midpoint(a, b, "lower") for a, b in zip(chart_a.houses.cusps_deg, chart_b.houses.cusps_deg)]
    armc = midpoint(chart_a.houses.armc_deg, chart_b.houses.armc_deg, "lower")
    meta_a, meta_b = chart_a.metadata, chart_b.metadata
    halfway = Moment.from_jd_ut1((meta_a.jd_ut1 + meta_b.jd_ut1) / 2.0)
    latitude, longitude = great_circle_midpoint(meta_a.latitude, meta_a.longitude, meta_b.latitude, meta_b.longitude)
    placement = _placement(cusps, settings, chart_a, chart_b)
    positions = []
    for a, b in zip(chart_a.positions, chart_b.positions):
        longitude_deg = composite_longitude(a.longitude, b.longitude, resolution)
        sign, degree = sign_key_of(longitude_deg)
        speed = (a.speed + b.speed) / 2.0
        ecliptic_latitude = (a.latitude + b.latitude) / 2.0
        positions.append(
            ChartPosition(
                body=a.body,
                longitude=longitude_deg,
                latitude=ecliptic_latitude,
                distance_au=(a.distance_au + b.distance_au) / 2.0,
                speed=speed,
                retrograde=speed < 0,
                sign=sign,
                sign_degree=degree,
                house=placement.house(longitude_deg, ecliptic_latitude),
                declination=(a.declination + b.declination) / 2.0,
                out_of_bounds=a.out_of_bounds and b.out_of_bounds,
            )
        )
    houses = replace(
        chart_a.houses,
        cusps_deg=cusps,
        ascendant_deg=midpoint(chart_a.houses.ascendant_deg, chart_b.houses.ascendant_deg, "lower"),
        midheaven_deg=midpoint(chart_a.houses.midheaven_deg, chart_b.houses.midheaven_deg, "lower"),
        vertex_deg=midpoint(chart_a.houses.vertex_deg, chart_b.houses.vertex_deg, "lower"),
        armc_deg=armc,
    )
    points = [Point(p.body, p.longitude, p.speed, p.declination) for p in positions]
    aspects = find_aspects(points, settings.aspect_types, orb_deg=settings.orb_deg, with_applying=settings.applying)
    parallels = find_parallels(points, orb_deg=settings.parallel_orb_deg) if settings.parallels else []
    metadata = ChartMetadata(
        jd_ut1=halfway.jd_ut1,
        datetime_iso=halfway.iso_utc(),
        latitude=latitude,
        longitude=longitude,
        altitude=(meta_a.altitude + meta_b.altitude) / 2.0,
        house_system=meta_a.house_system
        if meta_a.house_system == meta_b.house_system
        else f"{meta_a.house_system}/{meta_b.house_system}",
        sidereal=meta_a.sidereal,
        bodies=meta_a.bodies,
        source={"type": "composite", "resolution": resolution},
    )
    warnings = list(dict.fromkeys([*chart_a.warnings, *chart_b.warnings]))
    return Chart("composite", positions, houses, aspects, parallels, metadata, warnings, settings, placement)


def _placement(cusps: list[float], settings: ChartSettings, chart_a: Chart, chart_b: Chart) -> HousePlacement:
    """Return how the composite places a point: by Gauquelin sector span when both charts have
    Gauquelin cusps, by the zodiacal spans of the composite cusps otherwise."""
    gauquelin = (
        settings.system.letter == GAUQUELIN_LETTER
        and chart_a.houses.system == chart_b.houses.system == settings.system.name
    )
    return HousePlacement(cusps_deg=tuple(cusps), letter=GAUQUELIN_LETTER if gauquelin else "")
