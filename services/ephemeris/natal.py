"""/v1/natal-chart: the chart object, with patterns, derived points and dignities on request."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from shared.runtime.chart_reply import chart_reply
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import chart_birth_from, sent_moment_name


def compute(request: pb.ComputeNatalChartRequest, deadline: Deadline) -> pb.ComputeNatalChartResponse:
    """Return the natal chart reply: the birth's instant cast at its place, or at the place
    the request relocates it to."""
    with naming_moment(sent_moment_name(request, "birth.moment")):
        record, warnings, _ = chart_reply(request.query, *chart_birth_from(request))
    return pb.ComputeNatalChartResponse(data=record, warnings=warnings)
