"""/v1/void-of-course: the spec's snapshot of the Moon's remaining course through its sign."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.positions import CalcFlags, compute_positions
from kernel.void_of_course import MOON, void_of_course
from shared.runtime.chart_record import aspect_record
from shared.runtime.wire import moment_from


def compute(request: pb.ComputeVoidOfCourseRequest, deadline: Deadline) -> pb.ComputeVoidOfCourseResponse:
    """Return whether the Moon is void of course and, when not, the last aspect it perfects
    in its sign (tropical longitudes of date, the other bodies held where they are)."""
    moment = moment_from(request)
    flags = CalcFlags()
    bodies = request.query
    selection = request.aspect_selection
    result = compute_positions(moment, list(bodies), flags)
    longitudes = {r.body: r.longitude for r in result.records}
    found = void_of_course(
        longitudes[MOON],
        [(body, longitude) for body, longitude in longitudes.items() if body != MOON],
        list(selection.aspects),
        orb_deg=selection.orb if selection.HasField("orb") else None,
    )
    data = pb.VoidOfCourseData(
        is_void=found.is_void,
        moon_longitude=found.moon_longitude,
        degrees_until_sign_change=found.degrees_until_sign_change,
        next_sign_boundary=found.next_sign_boundary,
    )
    if found.last_aspect is not None:
        data.last_aspect.CopyFrom(aspect_record(found.last_aspect))
    return pb.ComputeVoidOfCourseResponse(data=data, warnings=[c.message for c in result.conditions])
