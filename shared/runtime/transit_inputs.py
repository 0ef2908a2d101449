"""Readers of what a transit scan runs over: the moving bodies, the natal input that
targets=natal needs and targets=mutual refuses, and the ephemeris each body needs (the natal
bodies at the natal moment, the moving ones over the range). Validation runs them in the gateway before
any charge (rules of FindTransitsRequest, `shared/runtime/request_rules.py`); the search
service calls them to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from shared.kernel.bodies import MOVING, check_span, resolve_bodies
from shared.errors import InvalidParameter, MissingParameter
from shared.kernel.positions import Observer
from shared.kernel.timescale import Moment
from shared.runtime.ranges import scan_range
from shared.runtime.wire import optional_moment, place_from, sent_moment_name

NATAL, MUTUAL = "natal", "mutual"


def moving_bodies(request: Message) -> list[str]:
    """Return the moving bodies of a scan, groups expanded; a body no scan can move (the body
    table's MOVING use) is BodyNotEligible."""
    return resolve_bodies(list(request.moving), param="moving", use=MOVING)


def natal_input(request: Message) -> tuple[Moment | None, Observer | None]:
    """Return the natal moment and place of a scan: with targets=natal the moment is required
    and the place optional; with targets=mutual neither may be sent (both None)."""
    if request.targets == MUTUAL:
        sent = [sent_moment_name(request)] + [name for name in ("lat", "lon") if request.location.HasField(name)]
        for name in sent:
            if name is not None:
                raise InvalidParameter(
                    f"{name} belongs to targets=natal; targets=mutual scans the moving bodies against each other.",
                    suggestion=f"Drop {name}, or send targets=natal.",
                    param=name,
                )
        return None, None
    natal = optional_moment(request)
    if natal is None:
        raise MissingParameter(
            "targets=natal scans against a chart: send its datetime or jd.",
            suggestion="Add the natal datetime (or jd), or send targets=mutual.",
            param="datetime",
        )
    return natal, place_from(request, "location")


def transit_inputs(request: Message) -> None:
    """Check every cross-field rule of a transit scan's targets (the request rule)."""
    moving_bodies(request)
    natal_input(request)


def natal_bodies(request: Message, natal: Moment) -> list[str]:
    """Return the natal chart's bodies of a scan (groups expanded), each with an ephemeris at
    the natal moment ``natal`` (an asteroid outside its files' span is OutOfRange naming the
    natal moment's parameter)."""
    bodies = resolve_bodies(list(request.bodies))
    for name in bodies:
        check_span(name, natal.jd_ut1, param=natal.source_param)
    return bodies


def transit_ephemeris(request: Message) -> None:
    """Check that the ephemeris covers what a scan reads (the request rule): each natal body
    at the natal moment (:func:`natal_bodies`), then each moving body over the whole range
    (OutOfRange naming moving, as the scan itself would)."""
    natal, _ = natal_input(request)
    if natal is not None:
        natal_bodies(request, natal)
    start, end = scan_range(request)
    for name in moving_bodies(request):
        check_span(name, start.jd_ut1, end.jd_ut1, param="moving")
