"""/v1/delta-t and /v1/sidereal-time: the Earth's rotation at a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.earth_rotation import delta_t, sidereal_time


def compute_delta_t(request: pb.ComputeDeltaTRequest, deadline: Deadline) -> pb.ComputeDeltaTResponse:
    """Return Delta T (TT - UT1) in seconds and days, and the moment's Julian Day in TT."""
    found = delta_t(request.query)
    return pb.ComputeDeltaTResponse(
        data=pb.DeltaTData(delta_t_seconds=found.seconds, delta_t_days=found.days, jd_tt=found.jd_tt)
    )


def compute_sidereal_time(request: pb.ComputeSiderealTimeRequest, deadline: Deadline) -> pb.ComputeSiderealTimeResponse:
    """Return Greenwich apparent sidereal time and, with ``lon``, local apparent sidereal time."""
    found = sidereal_time(request.query.moment, request.query.longitude_deg)
    data = pb.SiderealTimeData(gast_degrees=found.gast_degrees, gast_hours=found.gast_hours)
    if found.lst_degrees is not None:
        data.lst_degrees, data.lst_hours = found.lst_degrees, found.lst_hours
    return pb.ComputeSiderealTimeResponse(data=data)
