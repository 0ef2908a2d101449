"""/v1/synastry: two natal charts with the same options, and what links A's bodies to B's."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.synastry import inter_chart
from shared.runtime.chart_record import aspect_record, parallel_record
from shared.runtime.chart_reply import chart_reply
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, sent_moment_name


def compute(request: pb.ComputeSynastryRequest, deadline: Deadline) -> pb.ComputeSynastryResponse:
    """Return the synastry reply: ``chart_a`` and ``chart_b`` exactly as /v1/natal-chart gives
    them, ``inter_aspects`` and ``inter_parallels`` with ``body_a`` from chart A."""
    moment_a, place_a = birth_from(request, "births.birth_a")
    moment_b, place_b = birth_from(request, "births.birth_b")
    with naming_moment(sent_moment_name(request, "births.birth_a.moment")):
        chart_a, warnings_a, cast_a = chart_reply(request.query, moment_a, place_a)
    with naming_moment(sent_moment_name(request, "births.birth_b.moment")):
        chart_b, warnings_b, cast_b = chart_reply(request.query, moment_b, place_b)
    links = inter_chart(cast_a, cast_b, cast_a.settings)
    data = pb.SynastryData(
        chart_a=chart_a,
        chart_b=chart_b,
        inter_aspects=[aspect_record(a) for a in links.aspects],
        inter_parallels=[parallel_record(p) for p in links.parallels],
    )
    return pb.ComputeSynastryResponse(data=data, warnings=list(dict.fromkeys([*warnings_a, *warnings_b])))
