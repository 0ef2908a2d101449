"""/v1/forecast: one birth's events over a range (transits, stations, ingresses, lunations,
eclipses, void-of-course periods, returns, time-lord periods) as one time-ordered list, in
JSON or as an iCalendar file.

The events and their ids are :func:`kernel.forecast.forecast`'s; each is written here with the
record its own endpoint gives, built by that endpoint's own record code where the search
service holds it (transits, stations, ingresses, lunations, void of course).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from celestial.v1 import search_service_pb2 as pb
from kernel import forecast as kernel
from kernel.deadline import Deadline
from kernel.forecast_significance import by_significance
from kernel.time_lord_periods import Period
from kernel.timescale import iso_utc
from kernel.zodiac import SIGN_KEYS, SIGN_WIDTH_DEG, SIGNS
from services.search import event_summaries as summaries
from services.search import icalendar_text
from services.search.eclipses import global_eclipse
from services.search.event_summaries import body_name
from services.search.ingresses import ingress_record
from services.search.lunations import eclipse_within, eclipses_near, lunation_record
from services.search.stations import station_record
from services.search.transits import fill_event
from services.search.void_of_course_periods import period_record
from shared.errors import ResultTooLarge
from shared.runtime.computation import MAX_REPLY_BYTES
from shared.runtime.forecast_input import SIGNIFICANCE, ForecastInput, forecast_settings
from shared.runtime.forecast_pages import page_of
from shared.runtime.sky_event_inputs import VoidPeriodsInput
from shared.runtime.wire import fill_instant, instant_at

CALENDAR_NAME = "Forecast"
#: The largest iCalendar file a forecast answers, bytes: the 4 MiB one reply carries
#: (shared/runtime/computation.py), less 64 KiB for the rest of the reply and its framing.
ICS_MAX_BYTES = MAX_REPLY_BYTES - 64 * 1024
_TRANSIT_TEXT = {kernel.ENTER: "enters orb", kernel.EXACT: "exact", kernel.LEAVE: "leaves orb"}
#: What a window's moving point is called in its summary, by kind.
_WINDOW_TEXT = {kernel.TRANSIT: "", kernel.DIRECTION: "Directed ", kernel.PROGRESSION: "Progressed "}
_LEVEL_TEXT = {
    kernel.PROFECTION: {1: "Profection year", 2: "Profection month"},
    kernel.RELEASING: {
        1: "Zodiacal releasing chapter",
        2: "Zodiacal releasing month",
        3: "Zodiacal releasing unit",
        4: "Zodiacal releasing unit",
    },
    kernel.FIRDARIA: {1: "Firdaria major period", 2: "Firdaria sub-period"},
}


def compute(request: pb.FindForecastRequest, deadline: Deadline) -> pb.FindForecastResponse:
    """Return the forecast's events in the order asked (time, or significance), as a page of
    JSON records with the next page's token, or as one iCalendar file at most ICS_MAX_BYTES."""
    query: ForecastInput = request.query
    # The eclipses near the range, searched once: the lunations' records and summaries name
    # those within a day, and the eclipse events are those inside the range.
    near = kernel.LUNATION in query.kinds
    eclipses = eclipses_near(query.start.jd_ut1, query.end.jd_ut1, deadline) if near else []
    events = forecast_events(query, deadline, eclipses if near else None)
    if query.ics:
        rows = (icalendar_text.VEvent(e.id, e.jd, e.end_jd, summary(e, eclipses), e.kind) for e in events)
        return pb.FindForecastResponse(
            data=pb.ForecastData(ics=bounded_calendar(icalendar_text.vcalendar(rows, CALENDAR_NAME)))
        )
    data = pb.ForecastData(json=pb.ForecastEvents())
    events, following = page_of(events, query.position, query.page_size, query.page_key)
    if following is not None:
        data.json.next_page_token = following
    # Each instant's text made once per answer: an event's instant is one of its record's, and
    # a transit window's enter, exacts and leave recur in each of the window's events.
    text = functools.cache(iso_utc)
    write = _writers(query, eclipses, text)
    add = data.json.events.add
    for event in events:
        record = add(
            id=event.id, kind=event.kind, phase=event.phase, bodies=event.bodies, summary=summary(event, eclipses)
        )
        fill_instant(record.instant, event.jd, text)
        if event.end_jd is not None:
            fill_instant(record.end, event.end_jd, text)
        if event.point is not None:
            record.point = event.point
        if event.natal_house is not None:
            record.natal_house = event.natal_house
        write[event.kind](record, event.record)
    return pb.FindForecastResponse(data=data)


def forecast_events(
    query: ForecastInput, deadline: Deadline, eclipses: list | None = None
) -> list[kernel.ForecastEvent]:
    """Return the events of the kinds, bodies and moving bodies ``query`` asks for, with their
    ids, in its order (time, or significance);
    the eclipse events from ``eclipses`` (kind, eclipse) over a span holding the range when given."""
    settings = forecast_settings()
    chart = kernel.natal_chart(query.birth, query.place, settings)
    events = kernel.forecast(
        chart, query.start.jd_ut1, query.end.jd_ut1, query.kinds, settings, deadline, eclipses=eclipses
    )
    chosen = kernel.select(events, query.bodies, query.moving)
    if query.rank == SIGNIFICANCE:
        return by_significance(chosen, kernel.natal_targets(chart, settings), settings.orb)
    return chosen


def bounded_calendar(text: str) -> str:
    """Return the iCalendar ``text`` of a forecast when it fits in ICS_MAX_BYTES (UTF-8);
    ResultTooLarge suggesting a narrower forecast or the paged JSON otherwise."""
    size = len(text.encode())
    if size > ICS_MAX_BYTES:
        raise ResultTooLarge(
            f"The calendar holds {size:,} bytes; a forecast's iCalendar file is at most {ICS_MAX_BYTES:,}.",
            suggestion="Narrow kinds, bodies or moving, or split the range; or ask for format=json, which comes "
            "in pages (page_size, next_page_token).",
        )
    return text


def _writers(
    query: ForecastInput, eclipses: list, text: Callable[[float], str]
) -> dict[str, Callable[[pb.TimelineEvent, object], None]]:
    """Return, for each kind, the function that writes its record into an event, a transit
    window's instants with ``text``."""
    settings = forecast_settings()
    void_query = VoidPeriodsInput(
        query.start.jd_ut1, query.end.jd_ut1, settings.void_bodies, settings.void_aspects, None
    )
    windows: dict[int, pb.TransitEvent] = {}

    def transit(record: pb.TimelineEvent, window) -> None:
        # A window gives up to three events (enter, exact, leave): written once, copied into each.
        written = windows.get(id(window))
        if written is None:
            written = windows[id(window)] = pb.TransitEvent()
            fill_event(written, window, text)
        record.transit.CopyFrom(written)

    def ingress(record: pb.TimelineEvent, found) -> None:
        crossing, index = found
        degree = 0.0 if crossing.direct else SIGN_WIDTH_DEG
        record.ingress.CopyFrom(
            ingress_record(
                record.bodies[0], crossing.target_deg, SIGN_KEYS[index], degree, crossing.jd, crossing.direct
            )
        )

    def eclipse(record: pb.TimelineEvent, at: kernel.EclipseAt) -> None:
        record.eclipse.CopyFrom(global_eclipse(at))

    def body_return(record: pb.TimelineEvent, found: kernel.BodyReturn) -> None:
        record.body_return.CopyFrom(
            pb.ForecastReturn(body=found.body, natal_longitude=found.natal_longitude_deg, instant=instant_at(found.jd))
        )

    return {
        kernel.TRANSIT: transit,
        kernel.DIRECTION: transit,
        kernel.PROGRESSION: transit,
        kernel.STATION: lambda record, station: record.station.CopyFrom(station_record(station)),
        kernel.INGRESS: ingress,
        kernel.LUNATION: lambda record, lunation: record.lunation.CopyFrom(lunation_record(lunation, eclipses)),
        kernel.ECLIPSE: eclipse,
        kernel.VOID_OF_COURSE: lambda record, period: record.void_of_course.CopyFrom(period_record(period, void_query)),
        kernel.RETURN: body_return,
        kernel.PROFECTION: lambda record, period: _fill_period(record.profection, period),
        kernel.RELEASING: lambda record, period: _fill_period(record.releasing, period),
        kernel.FIRDARIA: lambda record, period: _fill_period(record.firdaria, period),
    }


def _fill_period(record, period: Period) -> None:
    """Fill a time-lord period record as its endpoint does: level, start, end, the clamps and the technique's
    members."""
    record.level = period.level
    fill_instant(record.start, period.start_jd)
    fill_instant(record.end, period.end_jd)
    record.clamped_start, record.clamped_end = period.clamped_start, period.clamped_end
    for name, value in period.members.items():
        setattr(record, name, value)


def summary(event: kernel.ForecastEvent, eclipses: list | None = None) -> str:
    """Return one line in English saying what ``event`` is (the iCalendar SUMMARY): a sky
    event's as /v1/calendar writes it (a lunation naming the eclipse of ``eclipses``, (kind,
    eclipse) pairs, within a day of it), then its natal house."""
    found = event.record
    if event.kind in kernel.WINDOW_KINDS:
        mover = f"{_WINDOW_TEXT[event.kind]}{body_name(found.moving)}"
        return f"{mover} {found.aspect} natal {body_name(found.target)}: {_TRANSIT_TEXT[event.phase]}"
    if event.kind == kernel.STATION:
        return summaries.station(found.body, event.phase, found.longitude_deg)
    if event.kind == kernel.INGRESS:
        crossing, index = found
        return summaries.ingress(event.bodies[0], SIGNS[index], crossing.direct)
    if event.kind == kernel.LUNATION:
        eclipse = eclipse_within(found.jd, eclipses or [])
        text = summaries.lunation(found.phase, found.moon_longitude_deg, eclipse)
        return f"{text} in natal house {event.natal_house}"
    if event.kind == kernel.ECLIPSE:
        text = summaries.eclipse(found.kind, found.eclipse.eclipse_type, found.longitude_deg)
        return f"{text} in natal house {event.natal_house}"
    if event.kind == kernel.VOID_OF_COURSE:
        return summaries.void_of_course(found.sign_name, found.next_sign_name)
    if event.kind == kernel.RETURN:
        return f"{'Solar' if found.body == 'sun' else 'Lunar'} return"
    members = found.members
    text = f"{_LEVEL_TEXT[event.kind][found.level]}: {body_name(members['lord'])}"
    return text + (f" ({members['sign'].capitalize()})" if "sign" in members else "")
