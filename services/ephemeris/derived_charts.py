"""/v1/draconic, /v1/davison and /v1/progressed: natal charts cast for a derived moment or place, or turned."""

from __future__ import annotations

from datetime import datetime

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.chart_reply import chart_reply
from kernel.davison import great_circle_midpoint, midpoint_moment, midpoint_utc
from kernel.deadline import Deadline
from kernel.draconic import rotate_to_node
from kernel.positions import Observer
from kernel.timescale import Moment
from shared.runtime.wire import birth_from


def draconic(request: pb.ComputeDraconicChartRequest, deadline: Deadline) -> pb.ComputeDraconicChartResponse:
    """Return the draconic chart: the natal chart turned so the chosen node is at 0° Aries
    (rules 1-7); what a draconic chart refuses is read by its reader,
    :func:`shared.runtime.chart_inputs.draconic_inputs` (rule 6)."""
    moment, place = birth_from(request)
    record, warnings, _ = chart_reply(
        request.query, moment, place, turn=lambda chart: rotate_to_node(chart, request.query.settings, request.node, moment)
    )
    return pb.ComputeDraconicChartResponse(data=record, warnings=warnings)


def davison(request: pb.ComputeDavisonChartRequest, deadline: Deadline) -> pb.ComputeDavisonChartResponse:
    """Return the Davison chart: cast for the instant halfway between the births (between the
    UTC instants when both are datetimes) at the great-circle midpoint of the places."""
    moment_a, place_a = birth_from(request, "births.birth_a")
    moment_b, place_b = birth_from(request, "births.birth_b")
    moment = _halfway(request, moment_a, moment_b)
    latitude, longitude = great_circle_midpoint(place_a.latitude_deg, place_a.longitude_deg, place_b.latitude_deg, place_b.longitude_deg)
    place = Observer(latitude, longitude, (place_a.altitude_m + place_b.altitude_m) / 2.0)
    source = {
        "type": "davison", "jd_a": moment_a.jd_ut1, "jd_b": moment_b.jd_ut1,
        "lat_a": place_a.latitude_deg, "lon_a": place_a.longitude_deg, "lat_b": place_b.latitude_deg, "lon_b": place_b.longitude_deg,
    }
    record, warnings, _ = chart_reply(request.query, moment, place, chart_type="davison", source=source)
    return pb.ComputeDavisonChartResponse(data=record, warnings=warnings)


def _halfway(request, moment_a: Moment, moment_b: Moment) -> Moment:
    """Return the Davison moment: between the UTC instants when both births are datetimes a
    client's calendar can hold (years 1-9999), else between the UT1 Julian Days."""
    if request.births.birth_a.moment.HasField("datetime") and request.births.birth_b.moment.HasField("datetime"):
        try:
            utc = [datetime.fromisoformat(m.iso_utc().replace("Z", "+00:00")) for m in (moment_a, moment_b)]
        except ValueError:
            return midpoint_moment(moment_a, moment_b)
        return midpoint_utc(*utc)
    return midpoint_moment(moment_a, moment_b)


def progressed(request: pb.ComputeProgressedChartRequest, deadline: Deadline) -> pb.ComputeProgressedChartResponse:
    """Return the secondary progressed chart for the target moment, cast at the natal place."""
    progression = request.query
    source = {"type": "progressed", "natal_jd": progression.natal.jd_ut1, "target_jd": progression.target.jd_ut1, "year_days": request.year_days}
    record, warnings, _ = chart_reply(progression.chart, progression.moment, progression.place, chart_type="progressed", source=source)
    return pb.ComputeProgressedChartResponse(data=record, warnings=warnings)
