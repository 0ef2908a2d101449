"""/v1/patterns: the aspects found and the patterns they form."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import cast_chart
from kernel.deadline import Deadline
from shared.runtime.chart_record import aspect_record, pattern_record


def compute(request: pb.FindPatternsRequest, deadline: Deadline) -> pb.FindPatternsResponse:
    """Return the aspects (with ``max_orb``) and the patterns they form; houses (for
    ``stellium_scope=house``) only when ``lat`` and ``lon`` are given, each body in the house
    (or Gauquelin sector) it stands in, placed as a chart places it."""
    query = request.query
    chart = cast_chart(query.moment, query.place, query.settings, extras=query.extras)
    data = pb.PatternsData(
        aspects=[aspect_record(a) for a in chart.aspects], patterns=[pattern_record(p) for p in chart.patterns]
    )
    return pb.FindPatternsResponse(data=data, warnings=[c.message for c in chart.warnings] + chart.notes)
