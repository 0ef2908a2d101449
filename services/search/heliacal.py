"""/v1/heliacal: the next heliacal rising, setting or visibility limit of a planet."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.errors import InvalidHeliacalEvent, OutOfRange
from kernel.heliacal import Atmosphere, Eyes, next_heliacal_event
from kernel.timescale import iso_utc
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.wire import moment_from, required_place, sent_moment_name


def compute(request: pb.FindHeliacalEventRequest, deadline: Deadline) -> pb.FindHeliacalEventResponse:
    """Return the event's time with the arcus visionis and the altitudes of the Sun and the body then."""
    moment = moment_from(request)
    body, event = request.query
    atmosphere = Atmosphere(
        request.pressure_mbar, request.temp_celsius, request.humidity_pct, request.visibility_range_km
    )
    eyes = Eyes(
        request.age_years,
        request.snellen_ratio,
        request.binoculars,
        request.telescope_aperture_cm,
        request.telescope_magnification,
    )
    place = required_place(request)
    with (
        naming("event", also=(InvalidHeliacalEvent,)),
        naming("body", also=BODY_ERRORS, reading=False),
        naming(sent_moment_name(request), also=(OutOfRange,), reading=False),
    ):
        found = next_heliacal_event(moment.jd_ut1, body, event, place, atmosphere, eyes)
    return pb.FindHeliacalEventResponse(
        data=pb.HeliacalRecord(
            body=body,
            event=event,
            event_jd=found.jd,
            event_datetime=iso_utc(found.jd),
            visibility_arc_deg=found.visibility_arc_deg,
            sun_altitude=found.sun_altitude,
            object_altitude=found.object_altitude,
        )
    )
