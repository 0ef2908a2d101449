"""/v1/ingresses: when a body reaches a sign or a longitude, forward or backward in time."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from shared.kernel.bodies import resolve_bodies
from shared.kernel.crossings import check_eligible, crossings
from shared.kernel.deadline import Deadline
from shared.kernel.timescale import iso_utc
from shared.kernel.zodiac import SIGN_WIDTH_DEG, SIGNS, normalize_deg, sign_of
from shared.runtime.wire import moment_from

# Source: interface.md, /v1/ingresses: the Sun, the Moon and the planets; nodes, apogees and
# asteroids are refused.
INGRESS_BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")


def compute(request: pb.FindIngressesRequest, deadline: Deadline) -> pb.FindIngressesResponse:
    """Return the next ``count`` crossings of the sign's first degree (or of ``longitude``) by
    the body, in search order: every crossing counts, a retrograde one too."""
    moment = moment_from(request)
    (body,) = resolve_bodies([request.body], param="body")[:1]
    check_eligible(body, INGRESS_BODIES)
    if request.HasField("sign"):
        target = SIGNS.index(request.sign.capitalize()) * SIGN_WIDTH_DEG
    else:
        target = normalize_deg(request.longitude)
    sign, degree = sign_of(target)
    found = crossings(body, target, moment.jd_ut1, request.count, deadline, backward=request.backward)
    return pb.FindIngressesResponse(
        data=[
            pb.IngressRecord(body=body, target_longitude=target, sign=sign, sign_degree=degree, jd=c.jd, datetime=iso_utc(c.jd))
            for c in found
        ]
    )
