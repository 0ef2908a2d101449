"""/v1/patterns: the aspects found and the patterns they form."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.chart_record import aspect_record
from kernel.aspects import Point, find_aspects
from kernel.chart import house_placement
from kernel.deadline import Deadline
from kernel.houses import compute_houses
from kernel.patterns import find_patterns, missing_aspect_warnings, parse_pattern_types
from kernel.positions import CalcFlags, compute_positions
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import aspect_types_from, bodies_from, flags_from, house_system_from, moment_from


def compute(request: pb.FindPatternsRequest, deadline: Deadline) -> pb.FindPatternsResponse:
    """Return the aspects (with ``max_orb``) and the patterns they form; houses (for
    ``stellium_scope=house``) only when ``lat`` and ``lon`` are given, each body in the house
    (or Gauquelin sector) it stands in, placed as a chart places it."""
    moment = moment_from(request)
    location = request.query
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    result = compute_positions(moment, bodies_from(request, flags), flags)
    with naming("patterns"):
        types = parse_pattern_types(list(request.patterns))
    aspect_types = aspect_types_from(request.aspects)
    points = [Point(r.body, r.longitude, r.speed, r.declination) for r in result.records]
    aspects = find_aspects(points, aspect_types, orb_deg=request.orb if request.HasField("orb") else None)
    houses, conditions = None, list(result.conditions)
    if location is not None:
        system = house_system_from(request)
        cast = compute_houses(moment, location.latitude_deg, location.longitude_deg, system, sidereal=flags.sidereal)
        placement = house_placement(moment, location.latitude_deg, cast, system, sidereal=flags.sidereal)
        houses = {r.body: placement.house(r.longitude, r.latitude) for r in result.records}
        conditions += cast.warnings
    with naming("lat", words="lat and lon"):
        found = find_patterns(
            [r.body for r in result.records],
            aspects,
            types,
            longitudes={r.body: r.longitude for r in result.records},
            houses=houses,
            stellium_min=request.stellium_min,
            stellium_scope=request.stellium_scope,
        )
    data = pb.PatternsData(aspects=[aspect_record(a) for a in aspects])
    for pattern in found:
        item = common_pb2.PatternRecord(
            pattern=pattern.pattern, bodies=pattern.bodies, aspects=[aspect_record(a) for a in pattern.aspects], tightness=pattern.tightness
        )
        if pattern.focal is not None:
            item.focal = pattern.focal
        data.patterns.append(item)
    warnings = [c.message for c in conditions] + missing_aspect_warnings(types, aspect_types, request.stellium_scope)
    return pb.FindPatternsResponse(data=data, warnings=warnings)
