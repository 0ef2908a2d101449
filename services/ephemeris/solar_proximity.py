"""/v1/solar-proximity: each body's distance from the Sun and its traditional status."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.positions import CalcFlags, compute_positions
from kernel.solar_proximity import SUN, solar_proximity


def compute(request: pb.ComputeSolarProximityRequest, deadline: Deadline) -> pb.ComputeSolarProximityResponse:
    """Return each body's separation from the Sun (degrees of ecliptic longitude) and status,
    the Sun left out; ``sidereal`` is read (and refused when unknown) but changes nothing."""
    bodies = request.query.bodies
    result = compute_positions(request.query.moment, [SUN, *(b for b in bodies if b != SUN)], CalcFlags())
    longitudes = [(r.body, r.longitude) for r in result.records]
    records = solar_proximity(longitudes[0][1], [item for item in longitudes[1:] if item[0] in bodies])
    data = pb.SolarProximityData(
        proximity=[pb.SolarProximityRecord(body=r.body, separation=r.separation, status=r.status) for r in records]
    )
    return pb.ComputeSolarProximityResponse(data=data, warnings=[c.message for c in result.conditions])
