"""/v1/void-of-course/periods: the Moon's void-of-course periods over a range, every body moving."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.void_of_course import MOON
from kernel.void_of_course_periods import VoidPeriod, void_periods
from shared.runtime.chart_record import aspect_record
from shared.runtime.sky_event_inputs import VoidPeriodsInput
from shared.runtime.wire import instant_at


def compute(request: pb.FindVoidOfCoursePeriodsRequest, deadline: Deadline) -> pb.FindVoidOfCoursePeriodsResponse:
    """Return every void-of-course period overlapping the range, whole, in time order."""
    query = request.query
    return pb.FindVoidOfCoursePeriodsResponse(data=[period_record(p, query) for p in find_periods(query, deadline)])


def find_periods(query: VoidPeriodsInput, deadline: Deadline) -> list[VoidPeriod]:
    """Return the periods ``query`` asks for (the Moon measured against the other bodies)."""
    others = [body for body in query.bodies if body != MOON]
    return void_periods(query.start_jd, query.end_jd, others, query.aspects, deadline, orb_deg=query.orb_deg)


def period_record(period: VoidPeriod, query: VoidPeriodsInput) -> pb.VoidOfCoursePeriodRecord:
    """Return the wire record of one period, flagged where the range cuts it."""
    record = pb.VoidOfCoursePeriodRecord(
        start=instant_at(period.start_jd),
        end=instant_at(period.end_jd),
        sign=period.sign_key,
        next_sign=period.next_sign_key,
        clamped_start=period.start_jd < query.start_jd,
        clamped_end=period.end_jd > query.end_jd,
    )
    if period.last_aspect is not None:
        record.last_aspect.CopyFrom(aspect_record(period.last_aspect))
    return record
