"""The natal chart the time-lords read, taken once from a request (its points' signs and its
sect), and the period records they fill."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.protobuf.message import Message

from kernel.natal_points import NatalPoints
from kernel.natal_points import natal_points as cast_natal_points
from kernel.time_lord_periods import Period, TimeQuery
from kernel.timescale import iso_utc
from kernel.zodiac import sign_index
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import fill_instant, flags_from, moment_from, required_place, sent_moment_name


def natal_points(request: Message) -> NatalPoints:
    """Return the natal points of a time-lord request (natal datetime or jd, lat, lon, bodies,
    sidereal): the natal chart's bodies, angles and every lot its bodies allow."""
    with naming_moment(sent_moment_name(request, "timeline.moment")):
        return cast_natal_points(
            moment_from(request, "timeline.moment"),
            required_place(request, "timeline.location"),
            request.query.bodies,
            sidereal=flags_from(request).sidereal,
            lots=True,
        )


def sign_of(points: NatalPoints, name: str) -> int:
    """Return the sign (0 Aries .. 11 Pisces) of the point ``name``, one the chart holds (the
    reader :func:`shared.runtime.time_lord_points.starting_point` vouches for a request's)."""
    return sign_index(points.longitudes[name])


@lru_cache(maxsize=8192)
def _instant_text(jd_ut1: float) -> str:
    """Return a UT1 Julian Day's ISO 8601 text (remembered: adjacent periods share their
    boundaries, and a year's first month starts with it)."""
    return iso_utc(jd_ut1)


def fill_periods(records: RepeatedCompositeFieldContainer, periods: Iterable[Period]) -> None:
    """Append a record to ``records`` (a reply's periods) for each period, filled in place."""
    add = records.add
    for period in periods:
        _fill_period(add(), period)


def _fill_period(record: Message, period: Period) -> None:
    """Fill a period record's shared members (level, start, end, the clamps) and the technique's own."""
    record.level = period.level
    fill_instant(record.start, period.start_jd, _instant_text)
    fill_instant(record.end, period.end_jd, _instant_text)
    record.clamped_start, record.clamped_end = period.clamped_start, period.clamped_end
    for name, value in period.members.items():
        setattr(record, name, value)


def fill_query(data: Message, query: TimeQuery) -> None:
    """Fill a container's ``at`` (instant query) or ``start`` and ``end`` (range query)."""
    if query.at_jd is not None:
        fill_instant(data.at, query.at_jd)
    else:
        fill_instant(data.start, query.start_jd)
        fill_instant(data.end, query.end_jd)
