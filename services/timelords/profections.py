"""/v1/profections: annual and monthly profections, mean or solar, at an instant or over a range."""

from __future__ import annotations

from celestial.v1 import timelords_service_pb2 as pb
from kernel.bodies import SUN
from kernel.deadline import Deadline
from kernel.profections import mean_boundaries, profections, solar_boundaries
from kernel.time_lord_periods import flatten
from kernel.zodiac import SIGN_KEYS
from services.timelords.natal_points import fill_periods, fill_query, natal_points, sign_of
from shared.runtime.time_lord_points import SOLAR


def compute(request: pb.ComputeProfectionsRequest, deadline: Deadline) -> pb.ComputeProfectionsResponse:
    """Return the profection container: the years (and months) in force at ``at``, or every
    one overlapping the range, from the starting point's natal sign."""
    chart = natal_points(request)
    query = request.query.time_query
    from_sign = sign_of(chart, request.query.starting_point)
    boundaries = request.query.boundaries
    if boundaries == SOLAR:
        boundary = solar_boundaries(chart.birth.jd_ut1, chart.longitudes[SUN], chart.ayanamsha, deadline)
    else:
        boundary = mean_boundaries(chart.birth.jd_ut1, request.year_days)
    periods = flatten(profections(from_sign, chart.birth.jd_ut1, boundary, request.months, query, deadline), query)
    data = pb.ProfectionsData(from_sign=SIGN_KEYS[from_sign], boundaries=boundaries, months=request.months)
    setattr(data, "from", getattr(request, "from"))  # "from" is a Python keyword
    if boundaries != SOLAR:
        data.year_days = request.year_days
    fill_query(data, query)
    fill_periods(data.periods, periods)
    return pb.ComputeProfectionsResponse(data=data, warnings=[c.message for c in chart.warnings])
