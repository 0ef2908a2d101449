"""/v1/composite: the midpoint composite of two natal charts (decisions.md, extra endpoints)."""

from __future__ import annotations

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import Chart
from kernel.composite import COMPOSITE_RESOLUTIONS, cast_composite
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import Observer
from kernel.timescale import Moment
from shared.runtime.chart_inputs import ChartInputs
from shared.runtime.chart_record import chart_record
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming_each
from shared.runtime.wire import birth_from, sent_moment_name

bound_to_choices(
    COMPOSITE_RESOLUTIONS, "kernel.composite.COMPOSITE_RESOLUTIONS", (pb.ComputeCompositeChartRequest, "resolution")
)


def compute(request: pb.ComputeCompositeChartRequest, deadline: Deadline) -> pb.ComputeCompositeChartResponse:
    """Return the composite chart; each position also carries ``midpoint_longitude``."""
    birth_a, birth_b = birth_from(request, "births.birth_a"), birth_from(request, "births.birth_b")
    record, warnings, _ = composite_reply(
        request.query,
        birth_a,
        birth_b,
        request.resolution,
        moment_a_param=sent_moment_name(request, "births.birth_a.moment"),
        moment_b_param=sent_moment_name(request, "births.birth_b.moment"),
    )
    return pb.ComputeCompositeChartResponse(data=record, warnings=warnings)


def composite_reply(
    inputs: ChartInputs,
    birth_a: tuple[Moment, Observer],
    birth_b: tuple[Moment, Observer],
    resolution: str,
    *,
    moment_a_param: str | None,
    moment_b_param: str | None,
) -> tuple[common_pb2.Chart, list[str], Chart]:
    """Return the composite's Chart message (each position with ``midpoint_longitude``), its
    prose warnings and the kernel chart, for two births (each a moment and a place) cast with
    ``inputs`` (as its reader read them) on the ``resolution`` arc (nearest or far). The errors
    about a birth's moment name ``moment_a_param`` or ``moment_b_param``."""
    names = {about: param for about, param in (("moment_a", moment_a_param), ("moment_b", moment_b_param)) if param}
    with naming_each(names, also=(OutOfRange,)):
        chart = cast_composite(birth_a, birth_b, inputs.settings, resolution, inputs.extras)
    record = chart_record(chart)
    for position in record.positions:
        position.midpoint_longitude = position.longitude
    return record, [c.message for c in chart.warnings] + chart.notes, chart
