"""/v1/composite: the midpoint composite of two natal charts (decisions.md, extra endpoints)."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.chart_extras import add_extras, composite_operands
from shared.runtime.chart_record import chart_record
from shared.kernel.chart import cast_chart
from shared.kernel.composite import composite_chart
from shared.kernel.deadline import Deadline
from shared.runtime.wire import birth_from


def compute(request: pb.ComputeCompositeChartRequest, deadline: Deadline) -> pb.ComputeCompositeChartResponse:
    """Return the composite chart; each position also carries ``midpoint_longitude``."""
    inputs = request.query
    settings, extras = inputs.settings, inputs.extras
    moment_a, place_a = birth_from(request, "births.birth_a")
    moment_b, place_b = birth_from(request, "births.birth_b")
    chart_a = cast_chart(moment_a, place_a, settings)
    chart_b = cast_chart(moment_b, place_b, settings)
    chart = composite_chart(chart_a, chart_b, settings, request.resolution)
    record = chart_record(chart)
    for position in record.positions:
        position.midpoint_longitude = position.longitude
    operands = composite_operands(chart_a, moment_a, chart_b, moment_b, request.resolution)
    warnings = add_extras(record, chart, extras, operands)
    return pb.ComputeCompositeChartResponse(data=record, warnings=[c.message for c in chart.warnings] + warnings)
