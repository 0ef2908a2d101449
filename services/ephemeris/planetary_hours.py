"""/v1/planetary-hours: the 24 Chaldean hours of the planetary day holding a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.kernel.deadline import Deadline
from shared.kernel.planetary_hours import planetary_day
from shared.kernel.timescale import Moment
from shared.runtime.wire import instant, moment_from


def _instant(jd_ut1: float):
    return instant(Moment.from_jd_ut1(jd_ut1))


def compute(request: pb.ComputePlanetaryHoursRequest, deadline: Deadline) -> pb.ComputePlanetaryHoursResponse:
    """Return the planetary day from the sunrise at or before the moment to the next sunrise at ``lat``, ``lon``."""
    day = planetary_day(moment_from(request), request.lat, request.lon)
    data = pb.PlanetaryHoursData(
        day_ruler=day.day_ruler,
        sunrise=_instant(day.sunrise_jd),
        sunset=_instant(day.sunset_jd),
        next_sunrise=_instant(day.next_sunrise_jd),
        current_hour=day.current_hour,
        hours=[
            pb.PlanetaryHour(hour=h.number, ruler=h.ruler, start=_instant(h.start_jd), end=_instant(h.end_jd), is_day=h.is_day)
            for h in day.hours
        ],
    )
    return pb.ComputePlanetaryHoursResponse(data=data)
