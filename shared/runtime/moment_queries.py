"""Readers of the requests of one moment, with a place or a meridian at most: /v1/delta-t,
/v1/sidereal-time, /v1/planetary-hours and /v1/timezone. Validation runs each in the gateway
before any charge; the service's handler computes from what it returned."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.civil_time import LocalReading, zone_at, zone_state
from kernel.positions import Observer
from kernel.timescale import Moment, require_day_within_span
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import (
    moment_from,
    read_moment,
    required_place,
    sent_moment_name,
)


@dataclass(frozen=True)
class MeridianQuery:
    """A moment and, when sent, the meridian of a place (degrees east), for sidereal time."""

    moment: Moment
    longitude_deg: float | None


@dataclass(frozen=True)
class PlacedMomentQuery:
    """A moment at a required place (degrees north and east, metres), with the local reading
    of the moment when it was sent as a local time (else None)."""

    moment: Moment
    place: Observer
    local: LocalReading | None


def moment_query(request: Message) -> Moment:
    """Return the moment of a request that asks for nothing else (/v1/delta-t)."""
    return moment_from(request)


def meridian_query(request: Message) -> MeridianQuery:
    """Return the moment and the optional ``lon`` of a sidereal-time request."""
    return MeridianQuery(moment_from(request), request.lon if request.HasField("lon") else None)


def placed_moment_query(request: Message) -> PlacedMomentQuery:
    """Return the moment and the place (``lat``/``lon`` or ``place``; MissingParameter naming
    ``lat`` without one) of a planetary-hours or time-zone request."""
    place = required_place(request, "location")
    moment = moment_from(request)
    return PlacedMomentQuery(moment, place, read_moment(request)[1])


def planetary_hours_query(request: Message) -> PlacedMomentQuery:
    """Return the moment and place of a planetary-hours request (as :func:`placed_moment_query`),
    once the planetary day around the moment can be searched within the supported dates
    (OutOfRange about the moment)."""
    query = placed_moment_query(request)
    with naming_moment(sent_moment_name(request)):
        require_day_within_span(query.moment.jd_ut1, "planetary day")
    return query


def time_zone_query(request: Message) -> PlacedMomentQuery:
    """Return the moment and place of a time-zone request (as :func:`placed_moment_query`),
    once its instant and that instant's wall clock at the place fall within the years 1 to
    9999, the span of every zone's history; OutOfRange about the moment otherwise (so the
    gateway refuses what the zone's answer could not be given for)."""
    query = placed_moment_query(request)
    with naming_moment(sent_moment_name(request)):
        utc = query.local.utc if query.local is not None else query.moment.clock_datetime()
        zone_state(utc, zone_at(query.place.latitude_deg, query.place.longitude_deg).zone)
    return query
