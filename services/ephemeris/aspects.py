"""/v1/aspects: aspects, parallels and contraparallels between bodies at one moment."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.aspects import Point, find_aspects, find_parallels
from kernel.deadline import Deadline
from kernel.positions import compute_positions
from shared.runtime.kernel_errors import naming


def compute(request: pb.ComputeAspectsRequest, deadline: Deadline) -> pb.ComputeAspectsResponse:
    """Return the /v1/aspects reply.

    Angles between bodies do not depend on the zodiac, so a sidereal request is computed
    tropically and returns the same numbers (its ayanamsha is read, so a bad name is refused,
    and then left aside).
    """
    query = request.query
    result = compute_positions(query.moment, query.bodies, query.flags)
    points = [
        Point(name=r.body, longitude_deg=r.longitude, speed_deg_per_day=r.speed, declination_deg=r.declination)
        for r in result.records
    ]
    with naming("orb"):
        matches = find_aspects(points, query.types, orb_deg=query.orb_deg, with_applying=query.applying)
    data = pb.AspectsData()
    for match in matches:
        record = common_pb2.AspectRecord(
            body_a=match.body_a,
            body_b=match.body_b,
            aspect=match.aspect,
            angle=match.exact_angle_deg,
            orb=match.orb_deg,
        )
        if match.applying is not None:
            record.applying = match.applying
        data.aspects.append(record)
    if query.parallels:
        with naming("parallel_orb"):
            parallels = find_parallels(points, orb_deg=query.parallel_orb_deg, contraparallel=query.contraparallel)
        for match in parallels:
            data.parallels.append(
                common_pb2.ParallelRecord(
                    body_a=match.body_a,
                    body_b=match.body_b,
                    parallel_type=match.parallel_type,
                    declination_a=match.declination_a_deg,
                    declination_b=match.declination_b_deg,
                    orb=match.orb_deg,
                    max_orb=match.max_orb_deg,
                )
            )
    return pb.ComputeAspectsResponse(data=data, warnings=[c.message for c in result.conditions])
