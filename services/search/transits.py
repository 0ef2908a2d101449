"""/v1/transits: aspect windows of moving bodies to a natal chart, or to each other, over a range."""

from __future__ import annotations

from collections.abc import Callable

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.natal_points import natal_points
from kernel.timescale import iso_utc
from kernel.transits import TransitEvent, scan_transits
from shared.runtime.kernel_errors import naming_each
from shared.runtime.transit_inputs import MUTUAL, ScanInput
from shared.runtime.wire import fill_instant, instant_at


def _natal_points(scan_of: ScanInput) -> list[tuple[str, float]]:
    """Return the natal points, the natal chart's: its bodies, and its Ascendant and Midheaven
    with a place. No flag applies: a zodiac rotation cancels out of every event."""
    return list(natal_points(scan_of.natal, scan_of.location, scan_of.natal_bodies).longitudes.items())


def compute(request: pb.FindTransitsRequest, deadline: Deadline) -> pb.FindTransitsResponse:
    """Return every in-orb window over the range, with the Moon policy applied and its warning."""
    scan_of = request.query
    start, end = scan_of.start, scan_of.end
    aspects = scan_of.aspects
    points = [] if scan_of.natal is None else _natal_points(scan_of)
    with naming_each({"moving": "moving"}, also=(OutOfRange,)):
        found = scan_transits(
            start.jd_ut1,
            end.jd_ut1,
            scan_of.moving,
            None if request.targets == MUTUAL else points,
            aspects,
            request.orb,
            request.moon,
            deadline,
        )
    data = pb.TransitScanData(
        targets=request.targets,
        start=instant_at(start.jd_ut1),
        end=instant_at(end.jd_ut1),
        points=[pb.TransitPoint(body=name, longitude=longitude) for name, longitude in points],
        moving=found.moving,
        aspects=aspects,
        orb=request.orb,
    )
    reply = pb.FindTransitsResponse(data=data, warnings=found.notes)
    add_event = reply.data.events.add
    for event in found.events:
        fill_event(add_event(), event)
    return reply


def fill_event(record: pb.TransitEvent, event: TransitEvent, text: Callable[[float], str] = iso_utc) -> None:
    """Write ``event`` into ``record``, a new member of the reply's events, in place (a wide
    scan has thousands), each instant's ISO 8601 text from ``text`` (:func:`iso_utc`, or a
    remembering form of it)."""
    record.moving, record.aspect, record.target = event.moving, event.aspect, event.target
    fill_instant(record.enter, event.enter, text)
    for exact in event.exacts:
        fill_instant(record.exacts.add(), exact, text)
    fill_instant(record.leave, event.leave, text)
    record.clamped_start, record.clamped_end = event.clamped_start, event.clamped_end
