"""Reader of a request for the positions of bodies at one moment (/v1/positions, and the
positions of /v1/chart): the moment, the resolved bodies, the flags and the observer."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from shared.runtime.wire import bodies_from, flags_from, moment_from, observer_from


@dataclass(frozen=True)
class PositionsQuery:
    """A positions request read once: the moment, the resolved bodies, the flags, the observer."""

    moment: Moment
    bodies: tuple[str, ...]
    flags: CalcFlags
    observer: Observer | None


def positions_query(request: Message) -> PositionsQuery:
    """Return the query of a positions-like request (moment, bodies, flags, lat/lon/alt;
    topocentric without a place is MissingParameter naming lat)."""
    flags = flags_from(request)
    return PositionsQuery(moment_from(request), bodies_from(request, flags), flags, observer_from(request, flags))
