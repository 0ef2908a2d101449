"""/v1/timezone: the time zone of a place at a moment."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.civil_time import iso_milliseconds, zone_at, zone_state
from kernel.deadline import Deadline


def compute(request: pb.FindTimeZoneRequest, deadline: Deadline) -> pb.FindTimeZoneResponse:
    """Return the zone the time-zone map gives the request's place, and its abbreviation, UTC
    offset and daylight saving time at the request's moment; ``utc`` and ``local`` to the
    millisecond, a local time the request sent (``tz``) exactly as sent."""
    query = request.query
    reading = query.local
    found = zone_at(query.place.latitude_deg, query.place.longitude_deg)
    utc = reading.utc if reading is not None else query.moment.clock_datetime()
    state = zone_state(utc, found.zone)
    data = pb.TimeZoneData(
        tz=state.zone,
        abbreviation=state.abbreviation,
        utc_offset_seconds=state.utc_offset_s,
        dst=state.dst,
        utc=iso_milliseconds(utc),
        local=iso_milliseconds(reading.local if reading is not None and reading.zone == state.zone else state.local),
    )
    if found.note:
        data.note = found.note
    return pb.FindTimeZoneResponse(data=data)
