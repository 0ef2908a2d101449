"""/v1/firdaria: the major periods and sub-periods of a day or night birth."""

from __future__ import annotations

from celestial.v1 import timelords_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.firdaria import NIGHT_SEQUENCES, firdaria
from kernel.time_lord_periods import flatten
from services.timelords.natal_points import fill_periods, fill_query, natal_points
from shared.runtime.closed_sets import bound_to_choices

bound_to_choices(NIGHT_SEQUENCES, "kernel.firdaria.NIGHT_SEQUENCES", (pb.ComputeFirdariaRequest, "night_order"))


def compute(request: pb.ComputeFirdariaRequest, deadline: Deadline) -> pb.ComputeFirdariaResponse:
    """Return the firdaria container: the major and sub-period in force at ``at``, or every one overlapping the
    range."""
    chart = natal_points(request)
    query = request.query.time_query
    sent = request.query.sect
    day = chart.is_day if sent is None else sent
    periods = flatten(firdaria(chart.birth.jd_ut1, day, request.night_order, request.year_days, query, deadline), query)
    data = pb.FirdariaData(is_day_chart=day, night_order=request.night_order, year_days=request.year_days)
    fill_query(data, query)
    fill_periods(data.periods, periods)
    return pb.ComputeFirdariaResponse(data=data, warnings=[c.message for c in chart.warnings])
