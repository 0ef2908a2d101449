"""Readers of the inputs of the searches for sky events over a range (/v1/stations,
/v1/void-of-course/periods, /v1/calendar): the range under its cap, and the bodies, each
eligible and computed over the whole range.

Validation runs them in the gateway before any charge (parts of the readers of the request messages,
`shared/runtime/request_readers.py`); the search service reads its request through them.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel import bodies as body_table
from kernel import stations
from kernel import void_of_course_periods as void
from kernel.errors import OutOfRange
from kernel.timescale import Moment
from shared.errors import InvalidParameter
from shared.runtime.eligible_body import eligible_bodies
from shared.runtime.kernel_errors import naming
from shared.runtime.ranges import event_range
from shared.runtime.void_of_course_bodies import void_of_course_bodies


@dataclass(frozen=True)
class StationsInput:
    """A search for stations: the range (UT1 Julian Days) and the bodies, in the order asked."""

    start_jd: float
    end_jd: float
    bodies: tuple[str, ...]


def stations_input(request: Message) -> StationsInput:
    """Return the range (at most stations.RANGE_CAP_YEARS calendar years) and the bodies
    (eligible for stations, each with an ephemeris over the whole range: OutOfRange naming
    bodies) of a /v1/stations request."""
    start, end = event_range(request, cap_years=stations.RANGE_CAP_YEARS)
    bodies = eligible_bodies(request, "bodies")
    for body in bodies:
        with naming("bodies", also=(OutOfRange,), reading=False):
            body_table.check_span(body, start.jd_ut1, end.jd_ut1)
    return StationsInput(start.jd_ut1, end.jd_ut1, bodies)


@dataclass(frozen=True)
class VoidPeriodsInput:
    """A search for void-of-course periods: the range (UT1 Julian Days), the bodies (the Moon
    among them), the aspect types and the orb reported (None: each type's default)."""

    start_jd: float
    end_jd: float
    bodies: tuple[str, ...]
    aspects: tuple[str, ...]
    orb_deg: float | None


def void_periods_input(request: Message) -> VoidPeriodsInput:
    """Return the inputs of a /v1/void-of-course/periods request: the range (at most
    RANGE_CAP_DAYS), the bodies with the Moon among them (InvalidParameter otherwise), each with
    an ephemeris over the range and the days searched around it (OutOfRange naming bodies)."""
    start, end = event_range(request, cap_days=void.RANGE_CAP_DAYS)
    bodies = void_of_course_bodies(request)
    selection = request.aspect_selection
    return void_periods_over(
        start.jd_ut1, end.jd_ut1, bodies, tuple(selection.aspects), selection.orb if selection.HasField("orb") else None
    )


def void_periods_over(
    start_jd: float, end_jd: float, bodies: tuple[str, ...], aspects: tuple[str, ...], orb_deg: float | None
) -> VoidPeriodsInput:
    """Return a search for void-of-course periods over a range already read (the calendar's,
    or a request's), each body with an ephemeris over it and the days searched around it
    (OutOfRange naming bodies)."""
    searched = void.searched_span(start_jd, end_jd)
    for body in bodies:
        with naming("bodies", also=(OutOfRange,), reading=False):
            body_table.check_span(body, *searched)
    return VoidPeriodsInput(start_jd, end_jd, bodies, aspects, orb_deg)


#: A calendar holds the void-of-course periods, and takes their cap.
CALENDAR_RANGE_CAP_DAYS = void.RANGE_CAP_DAYS
# RFC 5545 writes a date with four digits of year (DATE: 4DIGIT year, 2DIGIT month, 2DIGIT
# day), so an iCalendar answer starts in year 1 at the earliest.
FIRST_ICS_MOMENT = "0001-01-01T00:00:00Z"


@dataclass(frozen=True)
class CalendarInput:
    """A calendar: its range, the kinds of events, the bodies of its ingresses and stations,
    and whether it is answered as iCalendar."""

    start: Moment
    end: Moment
    events: tuple[str, ...]
    bodies: tuple[str, ...]
    ics: bool


def calendar_input(request: Message) -> CalendarInput:
    """Return the inputs of a /v1/calendar request: the range (at most CALENDAR_RANGE_CAP_DAYS),
    the bodies (eligible for a calendar; those with stations covered by their ephemeris over
    the range, OutOfRange naming bodies), and format=ics only from year 1 (InvalidParameter
    naming format)."""
    start, end = event_range(request, cap_days=CALENDAR_RANGE_CAP_DAYS)
    bodies = eligible_bodies(request, "bodies")
    for body in bodies:
        with naming("bodies", also=(OutOfRange,), reading=False):
            body_table.check_span(body, start.jd_ut1, end.jd_ut1)
    ics = request.format == "ics"
    if ics and start.jd_ut1 < Moment.from_iso(FIRST_ICS_MOMENT).jd_ut1:
        raise InvalidParameter(
            f"An iCalendar file writes years with four digits; the range starts at {start.iso_utc()}.",
            suggestion="Ask for format=json, or a range from 0001-01-01 on.",
            param="format",
        )
    return CalendarInput(start, end, tuple(dict.fromkeys(request.events)), bodies, ics)
