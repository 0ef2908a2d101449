"""/v1/chart: the /v1/positions records and the /v1/houses object in one call, plus the ayanamsha."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from services.ephemeris.houses import house_record, house_set_for
from services.ephemeris.positions import calc_flags, position_record, positions_for
from shared.positions import ayanamsha_value
from shared.wire import moment_from


def compute(request: pb.ComputeChartRequest) -> pb.ComputeChartResponse:
    """Return the /v1/chart reply."""
    result = positions_for(request)
    houses = house_set_for(request)
    data = pb.ChartData(positions=[position_record(r) for r in result.records], houses=house_record(houses))
    flags = calc_flags(request)
    if flags.sidereal is not None:
        data.ayanamsha = ayanamsha_value(moment_from(request), flags.sidereal)
    warnings = [c.message for c in result.conditions] + [c.message for c in houses.warnings]
    return pb.ComputeChartResponse(data=data, warnings=warnings)
