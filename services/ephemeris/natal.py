"""/v1/natal-chart: the chart object, with patterns, derived points and dignities on request."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from services.ephemeris.chart_extras import add_extras, chart_extras_from
from services.ephemeris.chart_options import chart_settings_from
from services.ephemeris.chart_record import chart_record
from shared.kernel.chart import cast_chart
from shared.kernel.deadline import Deadline
from shared.kernel.positions import Observer
from shared.runtime.wire import moment_from


def compute(request: pb.ComputeNatalChartRequest, deadline: Deadline) -> pb.ComputeNatalChartResponse:
    """Return the natal chart reply: the request read once, the chart cast, its extras added;
    ``warnings`` lists the chart's conditions as prose, then the extras' own."""
    moment = moment_from(request)
    place = Observer(request.lat, request.lon, request.alt)
    settings = chart_settings_from(request)
    extras = chart_extras_from(request, dignities=request.dignities, resolution=request.resolution)
    chart = cast_chart(moment, place, settings)
    record = chart_record(chart)
    extra_warnings = add_extras(record, chart, extras, moment)
    return pb.ComputeNatalChartResponse(data=record, warnings=[c.message for c in chart.warnings] + extra_warnings)
