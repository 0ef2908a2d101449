"""Readers of the searches from one moment for the next events: /v1/ingresses and the two
eclipse searches. Validation runs each in the gateway before any charge; the search
service's handler computes from what it returned."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from celestial.v1 import search_service_pb2 as search_pb
from kernel.eclipses import LUNAR_TYPES, SOLAR_TYPES
from kernel.lunations import PHASE_ANGLES_DEG
from kernel.positions import Observer
from kernel.timescale import Moment
from kernel.zodiac import SIGN_WIDTH_DEG, SIGNS, normalize_deg
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.eligible_body import eligible_body
from shared.runtime.wire import moment_from, place_from, sent_moment_name

# The searches' closed sets name the kernel's eclipse types, lunar phases and signs.
bound_to_choices(SOLAR_TYPES, "kernel.eclipses.SOLAR_TYPES", (search_pb.FindSolarEclipsesRequest, "type"))
bound_to_choices(LUNAR_TYPES, "kernel.eclipses.LUNAR_TYPES", (search_pb.FindLunarEclipsesRequest, "type"))
bound_to_choices(PHASE_ANGLES_DEG, "kernel.lunations.PHASE_ANGLES_DEG", (search_pb.FindLunationsRequest, "phases"))


@dataclass(frozen=True)
class IngressQuery:
    """The ingresses of a body from a moment: into a sign (``sign`` its name, ``target_deg``
    its first degree) or across a longitude (``sign`` None, ``target_deg`` in [0, 360)), the
    count, the direction of the search, and the parameter that gave the moment (named when
    the moment lies outside the body's span)."""

    moment: Moment
    moment_param: str | None
    body: str
    sign: str | None
    target_deg: float
    count: int
    backward: bool


@dataclass(frozen=True)
class EclipseQuery:
    """The eclipses from a moment: the types wanted, how many, which way, and the place they
    are seen from (None for the global circumstances)."""

    moment: Moment
    types: tuple[str, ...]
    count: int
    backward: bool
    place: Observer | None


def ingress_query(request: Message) -> IngressQuery:
    """Return what an ingresses request asks for (``sign`` or ``longitude``: validation
    required exactly one)."""
    moment = moment_from(request)
    body = eligible_body(request)
    if request.HasField("sign"):
        sign = request.sign.capitalize()
        target = SIGNS.index(sign) * SIGN_WIDTH_DEG
    else:
        sign, target = None, normalize_deg(request.longitude)
    return IngressQuery(moment, sent_moment_name(request), body, sign, target, request.count, request.backward)


def eclipse_query(request: Message) -> EclipseQuery:
    """Return what a solar or lunar eclipse search asks for."""
    place = place_from(request)
    return EclipseQuery(moment_from(request), tuple(request.type), request.count, request.backward, place)
