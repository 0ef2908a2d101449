"""/v1/ingresses: when a body enters a sign or reaches a longitude, forward or backward in time."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.crossings import crossings, sign_entries
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.timescale import iso_utc
from kernel.zodiac import SIGN_KEY_OF, SIGN_WIDTH_DEG, sign_key_of
from shared.runtime.kernel_errors import naming_each

DIRECT, RETROGRADE = "direct", "retrograde"


def compute(request: pb.FindIngressesRequest, deadline: Deadline) -> pb.FindIngressesResponse:
    """Return the next ``count`` ingresses of the body, in search order.

    With ``sign``, an ingress is an entry into the sign: a direct crossing of its first degree
    (``sign_degree`` 0) or a retrograde crossing of its end back into it (``target_longitude``
    the next sign's first degree, ``sign_degree`` 30); with ``longitude``, every crossing of it.
    """
    query = request.query
    if query.sign is not None:
        with naming_each({"from_jd": query.moment_param}, also=(OutOfRange,)):
            found = sign_entries(
                query.body, query.target_deg, query.moment.jd_ut1, query.count, deadline, backward=query.backward
            )
        records = [
            ingress_record(
                query.body, c.target_deg, SIGN_KEY_OF[query.sign], 0.0 if c.direct else SIGN_WIDTH_DEG, c.jd, c.direct
            )
            for c in found
        ]
    else:
        sign, degree = sign_key_of(query.target_deg)
        with naming_each({"from_jd": query.moment_param}, also=(OutOfRange,)):
            found = crossings(
                query.body, query.target_deg, query.moment.jd_ut1, query.count, deadline, backward=query.backward
            )
        records = [ingress_record(query.body, query.target_deg, sign, degree, c.jd, c.direct) for c in found]
    return pb.FindIngressesResponse(data=records)


def ingress_record(body: str, target: float, sign: str, degree: float, jd: float, direct: bool) -> pb.IngressRecord:
    """Return the wire record of one ingress (``degree`` the degree within ``sign`` crossed)."""
    return pb.IngressRecord(
        body=body,
        target_longitude=target,
        sign=sign,
        sign_degree=degree,
        jd=jd,
        datetime=iso_utc(jd),
        direction=DIRECT if direct else RETROGRADE,
    )
