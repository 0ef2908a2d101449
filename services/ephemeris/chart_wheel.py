"""/v1/chart-wheel: the natal chart drawn as a wheel (services/ephemeris/wheel), alone as an
SVG document, as that document drawn to PNG, or beside the chart it draws."""

from __future__ import annotations

import hashlib

from celestial.v1 import ephemeris_service_pb2 as pb
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import wheel_layout
from services.ephemeris.wheel.png import render_png
from services.ephemeris.wheel.themes import THEMES
from kernel.deadline import Deadline
from shared.runtime.chart_reply import chart_reply
from shared.runtime.wire import birth_from

TITLE = "Natal chart"


def compute(request: pb.DrawChartWheelRequest, deadline: Deadline) -> pb.DrawChartWheelResponse:
    """Return the wheel of the natal chart /v1/natal-chart casts for the same parameters."""
    record, warnings, chart = chart_reply(request.query, *birth_from(request))
    svg = draw_svg(wheel_layout(chart), THEMES[request.theme], size=request.size, title=TITLE)
    if request.format == "json":
        data = pb.ChartWheelData(json=pb.ChartWheel(chart=record, svg=svg, sha256=hashlib.sha256(svg.encode()).hexdigest()))
    elif request.format == "png":
        data = pb.ChartWheelData(png=render_png(svg, request.size))
    else:
        data = pb.ChartWheelData(svg=svg)
    return pb.DrawChartWheelResponse(data=data, warnings=warnings)
