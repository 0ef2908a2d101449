"""/v1/composite: the midpoint composite of two natal charts (decisions.md, extra endpoints)."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.chart_record import chart_record
from kernel.composite import cast_composite
from kernel.deadline import Deadline
from shared.runtime.wire import birth_from


def compute(request: pb.ComputeCompositeChartRequest, deadline: Deadline) -> pb.ComputeCompositeChartResponse:
    """Return the composite chart; each position also carries ``midpoint_longitude``."""
    inputs = request.query
    birth_a, birth_b = birth_from(request, "births.birth_a"), birth_from(request, "births.birth_b")
    chart = cast_composite(birth_a, birth_b, inputs.settings, request.resolution, inputs.extras)
    record = chart_record(chart)
    for position in record.positions:
        position.midpoint_longitude = position.longitude
    return pb.ComputeCompositeChartResponse(data=record, warnings=[c.message for c in chart.warnings] + chart.notes)
