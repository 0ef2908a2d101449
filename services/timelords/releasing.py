"""/v1/zodiacal-releasing: chapters, months and their units from a lot's sign."""

from __future__ import annotations

from celestial.v1 import timelords_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.releasing import releasing
from kernel.time_lord_periods import flatten
from kernel.zodiac import SIGN_KEYS
from services.timelords.natal_points import fill_periods, fill_query, natal_points, sign_of

FORTUNE = "part_of_fortune"


def compute(request: pb.ComputeZodiacalReleasingRequest, deadline: Deadline) -> pb.ComputeZodiacalReleasingResponse:
    """Return the releasing container: the periods of levels 1 to ``max_level`` in force at
    ``at``, or overlapping the range, walked from the released point's natal sign."""
    chart = natal_points(request)
    query = request.query.time_query
    from_sign = sign_of(chart, request.query.starting_point)
    fortune_sign = sign_of(chart, FORTUNE) if FORTUNE in chart.longitudes else None
    warnings = [c.message for c in chart.warnings]
    if fortune_sign is None:
        warnings.append(
            "The chart has no Lot of Fortune (it needs the Sun and the Moon among bodies), so no period is marked "
            "angular from it."
        )
    periods = flatten(releasing(from_sign, fortune_sign, chart.birth.jd_ut1, request.max_level, query, deadline), query)
    data = pb.ZodiacalReleasingData(from_sign=SIGN_KEYS[from_sign], max_level=request.max_level)
    setattr(data, "from", getattr(request, "from"))  # "from" is a Python keyword
    if fortune_sign is not None:
        data.fortune_sign = SIGN_KEYS[fortune_sign]
    fill_query(data, query)
    fill_periods(data.periods, periods)
    return pb.ComputeZodiacalReleasingResponse(data=data, warnings=warnings)
