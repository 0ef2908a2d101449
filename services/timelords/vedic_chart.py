"""/v1/vedic/chart: the sidereal birth chart of Jyotish, with its nakshatras, houses and vargas."""

from __future__ import annotations

from celestial.v1 import vedic_pb2 as pb
from kernel.deadline import Deadline
from kernel.nakshatras import Nakshatra
from kernel.vedic_chart import VedicPoint, cast_vedic_chart
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, fill_instant, sent_moment_name

#: How every Jyotish position is computed (echoed in meta.conventions.positions).
POSITIONS = "apparent geocentric longitudes of date, less the true ayanamsha (with nutation)"


def compute(request: pb.ComputeVedicChartRequest, deadline: Deadline) -> pb.ComputeVedicChartResponse:
    """Return the Vedic chart container: the conventions, every point, and the vargas asked for."""
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
    data = pb.VedicChartData(
        points=[_point(p) for p in chart.points],
    )
    fill_instant(data.moment, moment.jd_ut1)
    if chart.vargas:
        data.vargas.update(chart.vargas)
    return pb.ComputeVedicChartResponse(
        data=data, conventions=conventions, warnings=[c.message for c in chart.warnings]
    )


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
