"""/v1/planetary-hours: the 24 Chaldean hours of the planetary day holding a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.errors import PolarDayOrNight
from kernel.planetary_hours import planetary_day
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import instant_at


def compute(request: pb.ComputePlanetaryHoursRequest, deadline: Deadline) -> pb.ComputePlanetaryHoursResponse:
    """Return the planetary day from the sunrise at or before the moment to the next sunrise at ``lat``, ``lon``."""
    query = request.query
    with naming("lat", also=(PolarDayOrNight,)):
        day = planetary_day(query.moment, query.place.latitude_deg, query.place.longitude_deg)
    data = pb.PlanetaryHoursData(
        day_ruler=day.day_ruler,
        sunrise=instant_at(day.sunrise_jd),
        sunset=instant_at(day.sunset_jd),
        next_sunrise=instant_at(day.next_sunrise_jd),
        current_hour=day.current_hour,
        hours=[
            pb.PlanetaryHour(
                hour=h.number, ruler=h.ruler, start=instant_at(h.start_jd), end=instant_at(h.end_jd), is_day=h.is_day
            )
            for h in day.hours
        ],
    )
    return pb.ComputePlanetaryHoursResponse(data=data)
