"""/v1/ingresses: when a body enters a sign or reaches a longitude, forward or backward in time."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.crossings import crossings, sign_entries
from kernel.deadline import Deadline
from kernel.timescale import iso_utc
from kernel.zodiac import SIGN_WIDTH_DEG, SIGNS, normalize_deg, sign_of
from shared.runtime.eligible_body import eligible_body
from shared.runtime.wire import moment_from, sent_moment_name

DIRECT, RETROGRADE = "direct", "retrograde"


def compute(request: pb.FindIngressesRequest, deadline: Deadline) -> pb.FindIngressesResponse:
    """Return the next ``count`` ingresses of the body, in search order.

    With ``sign``, an ingress is an entry into the sign: a direct crossing of its first degree
    (``sign_degree`` 0) or a retrograde crossing of its end back into it (``target_longitude``
    the next sign's first degree, ``sign_degree`` 30); with ``longitude``, every crossing of it.
    """
    moment = moment_from(request)
    body = eligible_body(request)
    from_param = sent_moment_name(request)
    records = []
    if request.HasField("sign"):
        index = SIGNS.index(request.sign.capitalize())
        found = sign_entries(body, index * SIGN_WIDTH_DEG, moment.jd_ut1, request.count, deadline, backward=request.backward, from_param=from_param)
        for c in found:
            records.append(ingress_record(body, c.target_deg, SIGNS[index], 0.0 if c.direct else SIGN_WIDTH_DEG, c.jd, c.direct))
    else:
        target = normalize_deg(request.longitude)
        sign, degree = sign_of(target)
        found = crossings(body, target, moment.jd_ut1, request.count, deadline, backward=request.backward, from_param=from_param)
        records = [ingress_record(body, target, sign, degree, c.jd, c.direct) for c in found]
    return pb.FindIngressesResponse(data=records)


def ingress_record(body: str, target: float, sign: str, degree: float, jd: float, direct: bool) -> pb.IngressRecord:
    """Return the wire record of one ingress (``degree`` the degree within ``sign`` crossed)."""
    return pb.IngressRecord(
        body=body, target_longitude=target, sign=sign, sign_degree=degree, jd=jd, datetime=iso_utc(jd),
        direction=DIRECT if direct else RETROGRADE,
    )
