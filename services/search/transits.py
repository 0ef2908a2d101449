"""/v1/transits: aspect windows of moving bodies to a natal chart, or to each other, over a range."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from shared.kernel.deadline import Deadline
from shared.kernel.natal_points import natal_points
from shared.kernel.transits import MOON, TransitEvent, scan
from shared.runtime.transit_inputs import MUTUAL, ScanInput
from shared.runtime.wire import fill_instant, instant_at

MOON_RETURNS_ONLY_FROM_DAYS = 14.0


def _natal_points(scan_of: ScanInput) -> list[tuple[str, float]]:
    """Return the natal points, the natal chart's: its bodies, and its Ascendant and Midheaven
    with a place. No flag applies: a zodiac rotation cancels out of every event."""
    return list(natal_points(scan_of.natal, scan_of.location, scan_of.natal_bodies).longitudes.items())


def compute(request: pb.FindTransitsRequest, deadline: Deadline) -> pb.FindTransitsResponse:
    """Return every in-orb window over the range, with the Moon policy applied and its warning."""
    scan_of = request.query
    start, end, moving = scan_of.start, scan_of.end, list(scan_of.moving)
    aspects = scan_of.aspects
    points = [] if scan_of.natal is None else _natal_points(scan_of)
    warnings: list[str] = []
    moon_scanned = MOON in moving and request.moon != "exclude"
    returns_only = moon_scanned and request.moon == "returns_only" and end.jd_ut1 - start.jd_ut1 >= MOON_RETURNS_ONLY_FROM_DAYS
    if request.moon == "exclude":
        moving = [body for body in moving if body != MOON]
    scanned = [body for body in moving if not (returns_only and body == MOON)]
    targets = [(name, None) for name in scanned] if request.targets == MUTUAL else points
    events = scan(start.jd_ut1, end.jd_ut1, scanned, targets, aspects, request.orb, deadline)
    if returns_only:
        natal_moon = [(name, longitude) for name, longitude in points if name == MOON]
        if natal_moon:
            events += scan(start.jd_ut1, end.jd_ut1, [MOON], natal_moon, ["conjunction"], request.orb, deadline)
        warnings.append(_moon_policy_warning(aspects, [name for name, _ in targets if name != MOON], bool(natal_moon)))
    rank_moving = {name: i for i, name in enumerate(moving)}
    rank_target = {name: i for i, name in enumerate([n for n, _ in points] if points else moving)}
    events.sort(key=lambda e: (e.enter, rank_moving[e.moving], rank_target[e.target]))
    data = pb.TransitScanData(
        targets=request.targets, start=instant_at(start.jd_ut1), end=instant_at(end.jd_ut1),
        points=[pb.TransitPoint(body=name, longitude=longitude) for name, longitude in points],
        moving=moving, aspects=aspects, orb=request.orb,
    )
    reply = pb.FindTransitsResponse(data=data, warnings=warnings)
    add_event = reply.data.events.add
    for event in events:
        _fill_event(add_event(), event)
    return reply


def _moon_policy_warning(aspects: list[str], others: list[str], natal_moon: bool) -> str:
    kept = "only for its conjunction to the natal Moon (the lunar return)" if natal_moon else "not at all (no natal Moon is among the targets)"
    return (
        f"moon=returns_only on a range of {MOON_RETURNS_ONLY_FROM_DAYS:g} days or more: the Moon was scanned {kept}; "
        f"dropped: the Moon's {', '.join(aspects)} to {', '.join(others)}. Send moon=include (183 days at most) to scan them."
    )


def _fill_event(record: pb.TransitEvent, event: TransitEvent) -> None:
    """Write ``event`` into ``record``, a new member of the reply's events, in place (a wide
    scan has thousands)."""
    record.moving, record.aspect, record.target = event.moving, event.aspect, event.target
    fill_instant(record.enter, event.enter)
    for exact in event.exacts:
        fill_instant(record.exacts.add(), exact)
    fill_instant(record.leave, event.leave)
    record.clamped_start, record.clamped_end = event.clamped_start, event.clamped_end
