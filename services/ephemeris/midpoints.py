"""/v1/midpoints: midpoints, antiscia and lots as derived points, and midpoint trees."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import cast_chart
from kernel.deadline import Deadline
from shared.runtime.chart_record import derived_point_record


def compute(request: pb.ComputeMidpointsRequest, deadline: Deadline) -> pb.ComputeMidpointsResponse:
    """Return the derived points (with houses when ``lat`` and ``lon`` are given: Gauquelin
    sectors with system=gauquelin, each point on the ecliptic) and, with ``trees``, one midpoint
    tree per body on the ``modulus`` dial. A lot's bodies are computed whatever ``bodies`` holds."""
    query = request.query
    chart = cast_chart(query.moment, query.place, query.settings, extras=query.extras)
    data = pb.MidpointsData(derived_points=[derived_point_record(p) for p in chart.derived_points])
    for tree in chart.trees:
        data.trees.append(
            pb.MidpointTree(
                body=tree.body,
                longitude=tree.longitude,
                modulus=tree.modulus,
                hits=[
                    pb.MidpointTreeHit(constituents=list(h.constituents), longitude=h.longitude, orb=h.orb)
                    for h in tree.hits
                ],
            )
        )
    return pb.ComputeMidpointsResponse(data=data, warnings=[c.message for c in chart.warnings])
