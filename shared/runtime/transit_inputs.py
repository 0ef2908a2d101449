"""The reader of what a transit scan runs over: its range, the moving bodies, the natal input
that targets=natal needs and targets=mutual refuses, and the ephemeris each body needs (the
natal bodies at the natal moment, the moving ones over the range). Validation runs it in the
gateway before any charge (the reader of FindTransitsRequest, `shared/runtime/request_readers.py`);
the search service calls it to read the request."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.bodies import MOVING, check_span, require_use
from kernel.errors import OutOfRange
from kernel.positions import Observer
from kernel.timescale import Moment
from shared.errors import InvalidParameter, MissingParameter
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.ranges import scan_range
from shared.runtime.wire import aspect_types_from, listed_bodies, optional_moment, place_from, sent_moment_name

NATAL, MUTUAL = "natal", "mutual"


def moving_bodies(request: Message) -> list[str]:
    """Return the moving bodies of a scan, groups expanded; a body no scan can move (the body
    table's MOVING use) is BodyNotEligible."""
    moving = listed_bodies(request, "moving")
    with naming("moving", also=BODY_ERRORS):
        require_use(moving, MOVING, named=request.moving)
    return list(moving)


def natal_input(request: Message) -> tuple[Moment | None, Observer | None]:
    """Return the natal moment and place of a scan: with targets=natal the moment is required
    and the place optional; with targets=mutual neither may be sent (both None)."""
    if request.targets == MUTUAL:
        sent = [sent_moment_name(request)] + [name for name in ("lat", "lon") if request.location.HasField(name)]
        sent += ["place"] if request.HasField("place") else []
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


def natal_bodies(request: Message, natal: Moment) -> list[str]:
    """Return the natal chart's bodies of a scan (groups expanded), each with an ephemeris at
    the natal moment ``natal`` (an asteroid outside its files' span is OutOfRange naming the
    natal moment's parameter)."""
    bodies = list(listed_bodies(request, "bodies"))
    for name in bodies:
        with naming(sent_moment_name(request), also=(OutOfRange,), reading=False):
            check_span(name, natal.jd_ut1)
    return bodies


@dataclass(frozen=True)
class ScanInput:
    """What a transit scan runs over: its range, its moving bodies, with targets=natal the
    natal moment, place and bodies (None, None and () with targets=mutual), and the aspect
    types it looks for."""

    start: Moment
    end: Moment
    moving: list[str]
    natal: Moment | None
    location: Observer | None
    natal_bodies: list[str]
    aspects: list[str]


def scan_input(request: Message) -> ScanInput:
    """Return what a transit scan runs over, every parameter of it read once (the request's
    rule, and what the search service reads): the range and its cap (:func:`scan_range`), the
    moving bodies, the natal input targets=natal needs and targets=mutual refuses, each natal
    body's ephemeris at the natal moment, and each moving body's over the whole range
    (OutOfRange naming moving, as the scan itself would), and the aspect types."""
    start, end = scan_range(request)
    moving = moving_bodies(request)
    natal, location = natal_input(request)
    bodies = [] if natal is None else natal_bodies(request, natal)
    for name in moving:
        with naming("moving", also=(OutOfRange,), reading=False):
            check_span(name, start.jd_ut1, end.jd_ut1)
    return ScanInput(start, end, moving, natal, location, bodies, aspect_types_from(request))
