"""The natal chart the time-lords read, taken once from a request (its points' signs and its
sect), and the period records they fill."""

from __future__ import annotations

from functools import lru_cache

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from shared.kernel.natal_points import NatalPoints
from shared.kernel.natal_points import natal_points as cast_natal_points
from shared.kernel.time_lord_periods import Period, TimeQuery
from shared.kernel.zodiac import sign_index
from shared.runtime.time_lord_points import natal_bodies
from shared.runtime.wire import flags_from, instant_at, moment_from, required_place


def natal_points(request: Message) -> NatalPoints:
    """Return the natal points of a time-lord request (natal datetime or jd, lat, lon, bodies,
    sidereal): the natal chart's bodies, angles and every lot its bodies allow."""
    return cast_natal_points(
        moment_from(request, "timeline.moment"),
        required_place(request, "timeline.location"),
        natal_bodies(request),
        sidereal=flags_from(request).sidereal,
        lots=True,
    )


def sign_of(points: NatalPoints, name: str) -> int:
    """Return the sign (0 Aries .. 11 Pisces) of the point ``name``, one the chart holds (the
    reader :func:`shared.runtime.time_lord_points.starting_point` vouches for a request's)."""
    return sign_index(points.longitudes[name])


@lru_cache(maxsize=8192)
def instant_of(jd_ut1: float) -> common_pb2.Instant:
    """Return the wire Instant of a UT1 Julian Day (remembered: adjacent periods share their
    boundaries, and a year's first month starts with it; callers copy it, never change it)."""
    return instant_at(jd_ut1)


def fill_period(record: Message, period: Period) -> Message:
    """Fill a period record's shared members (level, start, end, the clamps) and the technique's own."""
    record.level = period.level
    record.start.CopyFrom(instant_of(period.start_jd))
    record.end.CopyFrom(instant_of(period.end_jd))
    record.clamped_start, record.clamped_end = period.clamped_start, period.clamped_end
    for name, value in period.members.items():
        setattr(record, name, value)
    return record


def fill_query(data: Message, query: TimeQuery) -> None:
    """Fill a container's ``at`` (instant query) or ``start`` and ``end`` (range query)."""
    if query.at_jd is not None:
        data.at.CopyFrom(instant_of(query.at_jd))
    else:
        data.start.CopyFrom(instant_of(query.start_jd))
        data.end.CopyFrom(instant_of(query.end_jd))
