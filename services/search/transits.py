"""/v1/transits: aspect windows of moving bodies to a natal chart, or to each other, over a range."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from shared.kernel.aspects import parse_aspect_types
from shared.kernel.bodies import MOVING, resolve_bodies
from shared.kernel.deadline import Deadline
from shared.kernel.errors import InvalidParameter, MissingParameter, RangeTooLong
from shared.kernel.houses import HouseSystem, compute_houses
from shared.kernel.positions import CalcFlags, compute_positions
from shared.kernel.timescale import Moment
from shared.kernel.transits import MOON, TransitEvent, scan
from shared.runtime.wire import instant_at, moment_from

MAX_RANGE_DAYS = 366.0
MAX_RANGE_DAYS_WITH_MOON = 183.0
MOON_RETURNS_ONLY_FROM_DAYS = 14.0
CLOCK_SLACK_DAYS = 1.0 / 86400.0
NATAL, MUTUAL = "natal", "mutual"
_ANGLES = HouseSystem("placidus", "P")  # the Ascendant and Midheaven are the same in every quadrant system


def _range(request: pb.FindTransitsRequest) -> tuple[Moment, Moment]:
    start = moment_from(request, "start", "start_jd")
    end = moment_from(request, "end", "end_jd")
    if end.jd_ut1 <= start.jd_ut1:
        raise InvalidParameter("end must come after start.", suggestion="Send an end later than the start.", param="end")
    cap = MAX_RANGE_DAYS_WITH_MOON if request.moon == "include" else MAX_RANGE_DAYS
    # UT1 runs up to a second off UTC: a range of exactly 366 days by the clock may measure a
    # hair longer on the UT1 line, so the cap allows that second.
    if end.jd_ut1 - start.jd_ut1 > cap + CLOCK_SLACK_DAYS:
        raise RangeTooLong(
            f"The range lasts {end.jd_ut1 - start.jd_ut1:.1f} days; a scan covers at most {cap:g}"
            + (" with moon=include." if request.moon == "include" else "."),
            suggestion="Send several ranges in one batch call and join the windows clamped at their shared boundary.",
            param="end",
        )
    return start, end


def _natal_points(request: pb.FindTransitsRequest) -> list[tuple[str, float]]:
    """Return the natal points: the chart's bodies, and its Ascendant and Midheaven with lat and lon."""
    if not (request.HasField("datetime") or request.HasField("jd")):
        raise MissingParameter("targets=natal scans against a chart: send its datetime or jd.", suggestion="Add the natal datetime (or jd), or send targets=mutual.", param="datetime")
    natal = moment_from(request)
    points = [(r.body, r.longitude) for r in compute_positions(natal, resolve_bodies(list(request.bodies)), CalcFlags(speed=False)).records]
    if request.HasField("lat") != request.HasField("lon"):
        raise MissingParameter("The natal Ascendant and Midheaven need both lat and lon.", suggestion="Send both lat and lon, or neither.", param="lon" if request.HasField("lat") else "lat")
    if request.HasField("lat"):
        houses = compute_houses(natal, request.lat, request.lon, _ANGLES)
        points += [("ascendant", houses.ascendant_deg), ("midheaven", houses.midheaven_deg)]
    return points


def _refuse_natal_parameters(request: pb.FindTransitsRequest) -> None:
    for name in ("datetime", "jd", "lat", "lon"):
        if request.HasField(name):
            raise InvalidParameter(
                f"{name} belongs to targets=natal; targets=mutual scans the moving bodies against each other.",
                suggestion=f"Drop {name}, or send targets=natal.",
                param=name,
            )


def compute(request: pb.FindTransitsRequest, deadline: Deadline) -> pb.FindTransitsResponse:
    """Return every in-orb window over the range, with the Moon policy applied and its warning."""
    start, end = _range(request)
    moving = resolve_bodies(list(request.moving), param="moving", use=MOVING)
    aspects = parse_aspect_types(list(request.aspects))
    if request.targets == MUTUAL:
        _refuse_natal_parameters(request)
        points: list[tuple[str, float]] = []
    else:
        points = _natal_points(request)
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
        moving=moving, aspects=aspects, orb=request.orb, events=[_event(e) for e in events],
    )
    return pb.FindTransitsResponse(data=data, warnings=warnings)


def _moon_policy_warning(aspects: list[str], others: list[str], natal_moon: bool) -> str:
    kept = "only for its conjunction to the natal Moon (the lunar return)" if natal_moon else "not at all (no natal Moon is among the targets)"
    return (
        f"moon=returns_only on a range of {MOON_RETURNS_ONLY_FROM_DAYS:g} days or more: the Moon was scanned {kept}; "
        f"dropped: the Moon's {', '.join(aspects)} to {', '.join(others)}. Send moon=include (183 days at most) to scan them."
    )


def _event(event: TransitEvent) -> pb.TransitEvent:
    return pb.TransitEvent(
        moving=event.moving, aspect=event.aspect, target=event.target,
        enter=instant_at(event.enter), exacts=[instant_at(t) for t in event.exacts], leave=instant_at(event.leave),
        clamped_start=event.clamped_start, clamped_end=event.clamped_end,
    )
