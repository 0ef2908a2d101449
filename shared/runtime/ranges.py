"""Readers of a request's ranges and their caps: the instant or stretch of a life a time-lord
request asks about, the start and end of a transit scan and of a search for sky events.

Validation runs them in the gateway before any charge (they are parts of the readers of the request
messages, `shared/runtime/request_readers.py`), and the services call them to read the range.
"""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.errors import BeforeBirth, RangeTooLong
from kernel.time_lord_periods import TimeQuery, check_range_cap, time_query
from kernel.timescale import Moment, calendar_span_text, duration_text, plus_calendar_years
from kernel.transits import MAX_RANGE_DAYS, MAX_RANGE_DAYS_WITH_MOON
from shared.errors import InvalidParameter
from shared.runtime.kernel_errors import naming, naming_each
from shared.runtime.wire import moment_from, optional_moment, sent_moment_name

#: The parameter that carries each argument of a time query (``at_jd`` is read as ``at``).
TIME_QUERY_PARAMS = {"at": "at", "start": "start", "end": "end"}


def life_range(request: Message, cap_years: int) -> TimeQuery:
    """Return the TimeQuery of a time-lord request's NatalTimeline ``timeline``: ``at`` (or
    ``at_jd``), or ``start`` and ``end`` cut to birth and at most ``cap_years`` calendar years
    long on the clock the client wrote them in (the errors of :func:`time_query` and
    :func:`check_range_cap`)."""
    birth = moment_from(request, "timeline.moment")
    at, start, end = (optional_moment(request, f"timeline.{value}") for value in ("at", "start", "end"))
    with naming_each(TIME_QUERY_PARAMS, also=(BeforeBirth,)):
        query = time_query(birth.jd_ut1, *(None if m is None else m.jd_ut1 for m in (at, start, end)))
    if query.at_jd is None:
        first = start if start.jd_ut1 > birth.jd_ut1 else birth
        with naming(sent_moment_name(request, "timeline.end"), also=(RangeTooLong,)):
            check_range_cap(first.clock_jd, end.clock_jd, cap_years)
    return query


def scan_range(request: Message) -> tuple[Moment, Moment]:
    """Return the start and end of a transit scan: the end after the start, the range at most
    366 days (183 with ``moon=include``) on the clock the client wrote its ends in
    (RangeTooLong saying exactly how long it lasts)."""
    start, end = _ends(request)
    with_moon = request.moon == "include"
    cap = MAX_RANGE_DAYS_WITH_MOON if with_moon else MAX_RANGE_DAYS
    days = end.clock_jd - start.clock_jd
    if days > cap:
        raise RangeTooLong(
            f"The range lasts {duration_text(days)}; a scan covers at most {cap:g} days"
            + (" with moon=include." if with_moon else "."),
            suggestion="Send several ranges in one batch call and join the windows clamped at their shared boundary.",
            param=sent_moment_name(request, "end"),
        )
    return start, end


def event_range(
    request: Message, *, cap_years: int | None = None, cap_days: float | None = None
) -> tuple[Moment, Moment]:
    """Return the start and end of a search for sky events: the end after the start, and no
    later than the same date and time ``cap_years`` calendar years after it, or ``cap_days``
    days after it, on the clock the client wrote its ends in (RangeTooLong saying exactly how
    long the range lasts)."""
    start, end = _ends(request)
    if cap_years is not None and end.clock_jd > plus_calendar_years(start.clock_jd, cap_years):
        cap = f"{cap_years} year" + ("" if cap_years == 1 else "s")
        raise RangeTooLong(
            f"The range lasts {calendar_span_text(start.clock_jd, end.clock_jd)}; at most {cap}.",
            suggestion=f"Ask for {cap} or less (an end no later than the same date {cap} after the start), in several "
            "requests if needed.",
            param=sent_moment_name(request, "end"),
        )
    if cap_days is not None and end.clock_jd - start.clock_jd > cap_days:
        raise RangeTooLong(
            f"The range lasts {duration_text(end.clock_jd - start.clock_jd)}; at most {cap_days:g} days.",
            suggestion="Send several ranges in one batch call, each at most that long.",
            param=sent_moment_name(request, "end"),
        )
    return start, end


def _ends(request: Message) -> tuple[Moment, Moment]:
    """Return a request's ``start`` and ``end``, the end after the start (InvalidParameter naming the end)."""
    start = moment_from(request, "start")
    end = moment_from(request, "end")
    if end.jd_ut1 <= start.jd_ut1:
        raise InvalidParameter(
            "end must come after start.",
            suggestion="Send an end later than the start.",
            param=sent_moment_name(request, "end"),
        )
    return start, end
