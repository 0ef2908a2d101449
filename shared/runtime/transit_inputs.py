"""Readers of what a transit scan runs over: the moving bodies, and the natal input that
targets=natal needs and targets=mutual refuses. Validation runs them in the gateway before
any charge (rules of FindTransitsRequest, `shared/runtime/request_rules.py`); the search
service calls them to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from shared.kernel.bodies import MOVING, resolve_bodies
from shared.errors import InvalidParameter, MissingParameter
from shared.kernel.positions import Observer
from shared.kernel.timescale import Moment
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
