"""/v1/positions: positions of bodies at one moment, in the ecliptic or the equatorial shape."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.positions import EclipticPosition, PositionsResult, compute_positions
from shared.runtime.positions_query import PositionsQuery


def positions_of(query: PositionsQuery) -> PositionsResult:
    """Return the kernel positions ``query`` asks for."""
    return compute_positions(query.moment, query.bodies, query.flags, query.observer)


def position_fields(record) -> dict:
    """Return the field values of the PositionRecord of one kernel position (either shape), which a
    ``PositionRecord`` is built from (building from plain values is much cheaper than
    from message objects, see docs/performance.md; and a chart has a dozen records)."""
    if isinstance(record, EclipticPosition):
        fields = {
            "body": record.body,
            "longitude": record.longitude,
            "latitude": record.latitude,
            "distance": record.distance,
            "sign": record.sign,
            "sign_degree": record.sign_degree,
            "declination": record.declination,
            "out_of_bounds": record.out_of_bounds,
        }
        if record.speed is not None:
            fields["speed"] = record.speed
            fields["retrograde"] = record.retrograde
        return {"ecliptic": fields}
    fields = {
        "body": record.body,
        "right_ascension": record.right_ascension,
        "declination": record.declination,
        "distance": record.distance,
        "out_of_bounds": record.out_of_bounds,
    }
    if record.ra_speed is not None:
        fields["ra_speed"] = record.ra_speed
        fields["dec_speed"] = record.dec_speed
    return {"equatorial": fields}


def compute(request: pb.ComputePositionsRequest, deadline: Deadline) -> pb.ComputePositionsResponse:
    """Return the /v1/positions reply (one moment: too quick to need the deadline)."""
    result = positions_of(request.query)
    return pb.ComputePositionsResponse(
        data=[position_fields(r) for r in result.records],
        warnings=[c.message for c in result.conditions],
    )
