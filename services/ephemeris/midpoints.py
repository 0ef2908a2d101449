"""/v1/midpoints: midpoints, antiscia and lots as derived points, and midpoint trees."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import house_placement
from kernel.deadline import Deadline
from kernel.houses import compute_houses
from kernel.lots import bodies_needed, compute_lots, is_day_chart
from kernel.midpoints import check_modulus, check_tree_orb, derived_points, midpoint_trees, parse_resolution
from kernel.positions import CalcFlags, compute_positions
from kernel.zodiac import sign_of
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import bodies_from, flags_from, house_system_from, moment_from, place_from


def compute(request: pb.ComputeMidpointsRequest, deadline: Deadline) -> pb.ComputeMidpointsResponse:
    """Return the derived points (with houses when ``lat`` and ``lon`` are given: Gauquelin
    sectors with system=gauquelin, each point on the ecliptic) and, with ``trees``, one midpoint
    tree per body on the ``modulus`` dial. A lot's bodies are computed whatever ``bodies`` holds."""
    moment = moment_from(request)
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    with naming("resolution"):
        resolution = parse_resolution(request.resolution)
    with naming("modulus"):
        modulus = check_modulus(request.modulus)
    with naming("tree_orb"):
        orb = check_tree_orb(request.tree_orb)
    lot_ids = request.query
    location = place_from(request, "location")
    bodies = bodies_from(request, flags)
    result = compute_positions(moment, list(bodies), flags)
    system = house_system_from(request)
    houses = compute_houses(moment, location.latitude_deg, location.longitude_deg, system, sidereal=flags.sidereal) if location else None
    placement = house_placement(moment, location.latitude_deg, houses, system, sidereal=flags.sidereal) if houses is not None else None
    points = [
        (p.kind, p.name, p.constituents, p.longitude, p.declination)
        for p in derived_points(
            [(r.body, r.longitude, r.declination) for r in result.records], midpoints=request.midpoints, antiscia=request.antiscia, resolution=resolution
        )
    ]
    conditions = list(result.conditions)
    if lot_ids:
        extra = compute_positions(moment, [b for b in bodies_needed(lot_ids) if b not in bodies], flags)
        conditions += extra.conditions
        longitudes = {r.body: r.longitude for r in [*result.records, *extra.records]}
        day = is_day_chart(longitudes["sun"], houses.ascendant_deg)
        points += [("lot", lot.name, (lot.body_a, lot.body_b, "ascendant"), lot.longitude, None) for lot in compute_lots(lot_ids, longitudes, houses.ascendant_deg, day)]
    data = pb.MidpointsData()
    for kind, name, constituents, longitude, declination in points:
        sign, degree = sign_of(longitude)
        item = common_pb2.DerivedPointRecord(kind=kind, name=name, constituents=list(constituents), longitude=longitude, sign=sign, sign_degree=degree)
        if placement is not None:
            item.house = placement.house(longitude)
        if declination is not None:
            item.declination = declination
        data.derived_points.append(item)
    if request.trees:
        for tree in midpoint_trees([(r.body, r.longitude) for r in result.records], modulus_deg=modulus, orb_deg=orb, resolution=resolution):
            data.trees.append(
                pb.MidpointTree(
                    body=tree.body, longitude=tree.longitude, modulus=tree.modulus,
                    hits=[pb.MidpointTreeHit(constituents=list(h.constituents), longitude=h.longitude, orb=h.orb) for h in tree.hits],
                )
            )
    warnings = [c.message for c in conditions] + ([c.message for c in houses.warnings] if houses else [])
    return pb.ComputeMidpointsResponse(data=data, warnings=warnings)
