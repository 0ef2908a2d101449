"""/v1/chart: the /v1/positions records and the /v1/houses object in one call, plus the ayanamsha."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.positions import ayanamsha_value
from services.ephemeris import houses, positions


def compute(request: pb.ComputeChartRequest, deadline: Deadline) -> pb.ComputeChartResponse:
    """Return the /v1/chart reply: the moment and the flags its reader read are shared by the
    positions and the houses."""
    query = request.query.positions
    result = positions.positions_of(query)
    house_set = houses.houses_of(request.query.houses)
    data = pb.ChartData(
        positions=[positions.position_fields(r) for r in result.records], houses=houses.house_record(house_set)
    )
    if query.flags.sidereal is not None:
        data.ayanamsha = ayanamsha_value(query.moment, query.flags.sidereal)
    warnings = [c.message for c in result.conditions] + [c.message for c in house_set.warnings]
    return pb.ComputeChartResponse(data=data, warnings=warnings)
