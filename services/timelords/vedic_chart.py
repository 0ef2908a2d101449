"""/v1/vedic/chart: the sidereal birth chart of Jyotish, with its nakshatras, houses and vargas,
as JSON, drawn as North or South Indian charts (services/timelords/indian_charts), or as JSON
with that drawing beside it (svg=true), as /v1/chart-wheel's format=json has its wheel."""

from __future__ import annotations

import hashlib

from celestial.v1 import vedic_pb2 as pb
from kernel.deadline import Deadline
from kernel.nakshatras import Nakshatra
from kernel.vedic_chart import VedicPoint, cast_vedic_chart
from services.timelords.indian_charts.layout import STYLES
from services.timelords.indian_charts.picture import chart_svg
from shared.pictures.png import render_png
from shared.pictures.themes import THEMES
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, fill_instant, sent_moment_name

#: How every Jyotish position is computed (echoed in meta.conventions.positions).
POSITIONS = "apparent geocentric longitudes of date, less the true ayanamsha (with nutation)"

# The layouts and the palettes give the request's style and theme their meaning.
bound_to_choices(STYLES, "services.timelords.indian_charts.layout.STYLES", (pb.ComputeVedicChartRequest, "style"))
bound_to_choices(THEMES, "shared.pictures.themes.THEMES", (pb.ComputeVedicChartRequest, "theme"))


def compute(request: pb.ComputeVedicChartRequest, deadline: Deadline) -> pb.ComputeVedicChartResponse:
    """Return the Vedic chart container (the conventions, every point, and the vargas asked
    for; with svg=true the SVG beside them), or with format svg or png its picture."""
    query = request.query
    moment, place = birth_from(request)
    with naming_moment(sent_moment_name(request, "birth.moment")):
        chart = cast_vedic_chart(
            moment,
            place,
            query.ayanamsha,
            node=request.node,
            outer=request.outer,
            house_mode=request.houses,
            system=query.system,
            vargas=query.vargas,
        )
    conventions = pb.VedicConventions(
        ayanamsha=chart.ayanamsha.name,
        ayanamsha_id=chart.ayanamsha.id,
        ayanamsha_deg=chart.ayanamsha_deg,
        node=chart.node,
        houses=chart.house_mode,
        house_system=chart.house_system,
        positions=POSITIONS,
    )
    warnings = [c.message for c in chart.warnings]
    drawn = chart_svg(chart, query.picture) if query.picture is not None else None
    if drawn is not None and request.format != "json":
        svg, (width, height) = drawn
        if request.format == "png":
            answer = pb.VedicChartAnswer(png=render_png(svg, width, height))
        else:
            answer = pb.VedicChartAnswer(svg=svg)
        return pb.ComputeVedicChartResponse(data=answer, conventions=conventions, warnings=warnings)
    data = pb.VedicChartData(
        points=[_point(p) for p in chart.points],
    )
    fill_instant(data.moment, moment.jd_ut1)
    # The vargas the request named: the navamsa a picture draws when none is named stays out,
    # so svg=true adds the SVG and its digest to the JSON and nothing else.
    if chart.vargas and request.vargas:
        data.vargas.update(chart.vargas)
    if drawn is not None:
        data.svg = drawn[0]
        data.sha256 = hashlib.sha256(drawn[0].encode()).hexdigest()
    return pb.ComputeVedicChartResponse(data=pb.VedicChartAnswer(json=data), conventions=conventions, warnings=warnings)


def nakshatra_record(nakshatra: Nakshatra) -> pb.NakshatraRecord:
    """Return the record of a nakshatra."""
    return pb.NakshatraRecord(index=nakshatra.index, name=nakshatra.name, pada=nakshatra.pada, lord=nakshatra.lord)


def _point(point: VedicPoint) -> pb.VedicPoint:
    """Return the record of one graha or the lagna."""
    return pb.VedicPoint(
        body=point.name,
        longitude=point.longitude,
        sign=point.sign,
        sign_degree=point.degree,
        nakshatra=nakshatra_record(point.nakshatra),
        house=point.house,
        retrograde=point.retrograde,
        combust=point.combust,
        speed=point.speed,
    )
