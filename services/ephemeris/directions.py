"""/v1/directions: the natal chart's bodies, angles and cusps directed by a solar arc to a target date."""

from __future__ import annotations

from dataclasses import replace

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.bodies import SUN
from kernel.chart import Chart, cast_chart
from kernel.deadline import Deadline
from kernel.directions import BODY, DirectedPoint, NatalPoint, angle_points, cusp_points, direct, solar_arc, years_lived
from kernel.zodiac import sign_key_of
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import sent_moment_name


def compute(request: pb.ComputeDirectionsRequest, deadline: Deadline) -> pb.ComputeDirectionsResponse:
    """Return the directions of the birth at the target: the arc of ``request.key`` and every
    natal point (the bodies asked, the angles, the cusps) moved forward by it."""
    progression = request.query
    settings = progression.chart.settings
    with naming_moment(sent_moment_name(request, "birth.moment")):
        natal = cast_chart(progression.natal, progression.place, settings)
        natal_sun = _sun_longitude(natal)
        if natal_sun is None:
            natal_sun = _sun_longitude(
                cast_chart(progression.natal, progression.place, replace(settings, bodies=(SUN,)))
            )
        progressed = cast_chart(progression.moment, progression.place, replace(settings, bodies=(SUN,)))
    years = years_lived(progression.natal, progression.target, request.year_days)
    arc = solar_arc(request.key, years, natal_sun, _sun_longitude(progressed))
    houses = natal.houses
    points = [NatalPoint(p.body, BODY, p.longitude) for p in natal.positions]
    points += angle_points(houses.ascendant_deg, houses.midheaven_deg, houses.vertex_deg)
    points += cusp_points(houses.cusps_deg)
    directions = pb.Directions(
        key=request.key,
        arc=arc,
        years=years,
        natal_jd=progression.natal.jd_ut1,
        target_jd=progression.target.jd_ut1,
        progressed_jd=progression.moment.jd_ut1,
        house_system=houses.system,
        points=[_directed_point(p) for p in direct(points, arc)],
    )
    warnings = [c.message for c in natal.warnings + progressed.warnings]
    return pb.ComputeDirectionsResponse(data=directions, warnings=list(dict.fromkeys(warnings)))


def _sun_longitude(chart: Chart) -> float | None:
    """Return the Sun's longitude in a chart (degrees), or None when it was not cast."""
    return next((p.longitude for p in chart.positions if p.body == SUN), None)


def _directed_point(point: DirectedPoint) -> pb.DirectedPoint:
    """Return a directed point's message, its sign and degree those of its directed longitude."""
    sign, degree = sign_key_of(point.directed_longitude)
    return pb.DirectedPoint(
        point=point.name,
        kind=point.kind,
        natal_longitude=point.natal_longitude,
        longitude=point.directed_longitude,
        sign=sign,
        sign_degree=degree,
    )
