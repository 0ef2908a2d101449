"""/v1/calendar: the sky events of a range (ingresses, stations, lunations, eclipses,
void-of-course periods) as one chronological list, in JSON or as an iCalendar file.

Each kind is the record its own endpoint gives, computed by the same code: a kind with options
of its own (the lunations' phases, the void-of-course bodies and aspects) takes the defaults
that endpoint's request message declares.
"""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel import bodies as body_table
from kernel.bodies import resolve_bodies
from kernel.crossings import sign_ingresses_until
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.forecast import eclipses_at
from kernel.stations import find_stations
from kernel.zodiac import SIGN_KEYS, SIGN_WIDTH_DEG, SIGNS
from services.search import event_summaries as summaries
from services.search import icalendar_text
from services.search.eclipses import global_eclipse
from services.search.ingresses import ingress_record
from services.search.lunations import lunation_records
from services.search.stations import station_record
from services.search.void_of_course_periods import find_periods, period_record
from shared.runtime.kernel_errors import naming_each
from shared.runtime.parameter_text import declared_default
from shared.runtime.sky_event_inputs import CalendarInput, void_periods_over
from shared.runtime.wire import instant_at

INGRESS, STATION, LUNATION, ECLIPSE, VOID_OF_COURSE = "ingress", "station", "lunation", "eclipse", "void_of_course"
MOON = "moon"
# The bodies taking part in a lunation and an eclipse, as a forecast names them.
LUMINARIES = ("sun", "moon")
# The kinds in the order of the events parameter's choices, which orders events at one instant.
_KINDS = {
    "ingresses": INGRESS,
    "stations": STATION,
    "lunations": LUNATION,
    "eclipses": ECLIPSE,
    "void_of_course": VOID_OF_COURSE,
}


def compute(request: pb.FindCalendarEventsRequest, deadline: Deadline) -> pb.FindCalendarEventsResponse:
    """Return the calendar's events in time order (by instant, then kind, then body), as JSON
    records or as the text of an iCalendar file."""
    query = request.query
    events = calendar_events(query, deadline)
    data = (
        pb.CalendarData(ics=icalendar_text.calendar(events))
        if query.ics
        else pb.CalendarData(json=pb.CalendarEvents(events=events))
    )
    return pb.FindCalendarEventsResponse(data=data)


def calendar_events(query: CalendarInput, deadline: Deadline) -> list[pb.TimelineEvent]:
    """Return the events of the kinds ``query`` asks for, sorted."""
    start_jd, end_jd = query.start.jd_ut1, query.end.jd_ut1
    finders = {
        INGRESS: lambda: _ingresses(query, deadline),
        STATION: lambda: _stations(query, deadline),
        LUNATION: lambda: _lunations(start_jd, end_jd, deadline),
        ECLIPSE: lambda: _eclipses(start_jd, end_jd, deadline),
        VOID_OF_COURSE: lambda: _void_of_course(start_jd, end_jd, deadline),
    }
    kinds = [_KINDS[name] for name in query.events]
    order = {kind: index for index, kind in enumerate(_KINDS.values())}
    bodies = {body: index for index, body in enumerate(query.bodies)}
    events = [event for kind in kinds for event in finders[kind]()]
    events.sort(key=lambda e: (e.instant.jd, order[e.kind], bodies.get(_body(e), -1)))
    return events


def _body(event: pb.TimelineEvent) -> str:
    """Return the body of an ingress or a station ("" for the other kinds)."""
    if event.HasField("ingress"):
        return event.ingress.body
    if event.HasField("station"):
        return event.station.body
    return ""


def _minute(jd: float) -> str:
    """Return the UTC minute of ``jd`` as iCalendar writes it (20240401T2214), for identifiers."""
    return instant_at(jd).datetime[:16].replace("-", "").replace(":", "")


def _ingresses(query: CalendarInput, deadline: Deadline) -> list[pb.TimelineEvent]:
    events = []
    for body in query.bodies:
        if body_table.INGRESSES not in body_table.body(body).uses:
            continue
        # The search runs to the range's end: too few ingresses before it name end, as they always have.
        with naming_each({"until_jd": "end"}, also=(OutOfRange,)):
            found = sign_ingresses_until(body, query.start.jd_ut1, query.end.jd_ut1, deadline)
        for crossing, index in found:
            sign = SIGNS[index]  # the display name, for the summary; the record names the sign's key
            record = ingress_record(
                body,
                crossing.target_deg,
                SIGN_KEYS[index],
                0.0 if crossing.direct else SIGN_WIDTH_DEG,
                crossing.jd,
                crossing.direct,
            )
            events.append(
                pb.TimelineEvent(
                    id=f"ingress-{body}-{SIGN_KEYS[index]}-{record.direction}-{_minute(crossing.jd)}",
                    kind=INGRESS,
                    phase=record.direction,
                    instant=instant_at(crossing.jd),
                    bodies=[body],
                    summary=summaries.ingress(body, sign, crossing.direct),
                    ingress=record,
                )
            )
    return events


def _stations(query: CalendarInput, deadline: Deadline) -> list[pb.TimelineEvent]:
    events = []
    for body in query.bodies:
        if body_table.STATIONS not in body_table.body(body).uses:
            continue
        for station in find_stations(body, query.start.jd_ut1, query.end.jd_ut1, deadline):
            record = station_record(station)
            direction = "retrograde" if station.event == "station_retrograde" else "direct"
            events.append(
                pb.TimelineEvent(
                    id=f"station-{body}-{direction}-{_minute(station.jd)}",
                    kind=STATION,
                    phase=station.event,
                    instant=record.instant,
                    bodies=[body],
                    summary=summaries.station(body, station.event, station.longitude_deg),
                    station=record,
                )
            )
    return events


def _lunations(start_jd: float, end_jd: float, deadline: Deadline) -> list[pb.TimelineEvent]:
    phases = declared_default(pb.FindLunationsRequest.DESCRIPTOR, "phases")
    events = []
    for record in lunation_records(start_jd, end_jd, phases, deadline):
        eclipse = (record.eclipse.kind, record.eclipse.eclipse_type) if record.HasField("eclipse") else None
        events.append(
            pb.TimelineEvent(
                id=f"lunation-{record.phase}-{_minute(record.instant.jd)}",
                kind=LUNATION,
                phase=record.phase,
                instant=record.instant,
                bodies=LUMINARIES,
                summary=summaries.lunation(record.phase, record.moon_longitude, eclipse),
                lunation=record,
            )
        )
    return events


def _eclipses(start_jd: float, end_jd: float, deadline: Deadline) -> list[pb.TimelineEvent]:
    events = []
    for at in eclipses_at(start_jd, end_jd, deadline):
        maximum = instant_at(at.eclipse.maximum)
        events.append(
            pb.TimelineEvent(
                id=f"eclipse-{at.kind}-{_minute(at.eclipse.maximum)}",
                kind=ECLIPSE,
                phase=at.kind,
                instant=maximum,
                bodies=LUMINARIES,
                summary=summaries.eclipse(at.kind, at.eclipse.eclipse_type, at.longitude_deg),
                eclipse=global_eclipse(at),
            )
        )
    return events


def _void_of_course(start_jd: float, end_jd: float, deadline: Deadline) -> list[pb.TimelineEvent]:
    declared = pb.FindVoidOfCoursePeriodsRequest.DESCRIPTOR
    bodies = tuple(resolve_bodies(declared_default(declared, "bodies")))
    query = void_periods_over(start_jd, end_jd, bodies, tuple(declared_default(declared, "aspects")), None)
    events = []
    for period in find_periods(query, deadline):
        record = period_record(period, query)
        events.append(
            pb.TimelineEvent(
                # Named by the ingress that ends it: the last aspect that begins it may change
                # with the bodies and aspects, the ingress never does.
                id=f"void-of-course-{SIGN_KEYS[(period.sign + 1) % len(SIGN_KEYS)]}-{_minute(period.end_jd)}",
                kind=VOID_OF_COURSE,
                phase=record.sign,  # the sign its record names, as a forecast's phase
                instant=record.start,
                end=record.end,
                bodies=[MOON],
                summary=summaries.void_of_course(period.sign_name, period.next_sign_name),
                void_of_course=record,
            )
        )
    return events
