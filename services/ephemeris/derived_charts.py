"""/v1/draconic, /v1/davison and /v1/progressed: natal charts cast for a derived moment or place, or turned."""

from __future__ import annotations

from datetime import datetime

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import Chart
from kernel.davison import great_circle_midpoint, midpoint_moment, midpoint_utc
from kernel.deadline import Deadline
from kernel.draconic import rotate_to_node
from kernel.positions import Observer
from kernel.timescale import Moment
from shared.runtime.chart_inputs import ChartInputs
from shared.runtime.chart_reply import chart_reply
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, sent_moment_name

#: The parameter the errors about a Davison moment halved as UTC date-times name: the name the
#: moment built from a date-time has always answered with (kept so that every answer stays as
#: it was; no Davison request has a parameter of that name).
UTC_HALFWAY_PARAM = "datetime"


def draconic(request: pb.ComputeDraconicChartRequest, deadline: Deadline) -> pb.ComputeDraconicChartResponse:
    """Return the draconic chart: the natal chart turned so the chosen node is at 0° Aries
    (rules 1-7); what a draconic chart refuses is read by its reader,
    :func:`shared.runtime.chart_inputs.draconic_inputs` (rule 6)."""
    with naming_moment(sent_moment_name(request, "birth.moment")):
        record, warnings, _ = draconic_reply(request.query, *birth_from(request), request.node)
    return pb.ComputeDraconicChartResponse(data=record, warnings=warnings)


def draconic_reply(
    inputs: ChartInputs, moment: Moment, place: Observer, node: str
) -> tuple[common_pb2.Chart, list[str], Chart]:
    """Return the draconic chart's message, prose warnings and kernel chart: the natal chart
    at ``moment`` and ``place`` turned so ``node`` (mean_node, true_node) is at 0° Aries."""
    return chart_reply(inputs, moment, place, turn=lambda chart: rotate_to_node(chart, inputs.settings, node, moment))


def davison(request: pb.ComputeDavisonChartRequest, deadline: Deadline) -> pb.ComputeDavisonChartResponse:
    """Return the Davison chart: cast for the instant halfway between the births (between the
    UTC instants when both are datetimes) at the great-circle midpoint of the places."""
    both_datetimes = request.births.birth_a.moment.HasField("datetime") and request.births.birth_b.moment.HasField(
        "datetime"
    )
    record, warnings, _ = davison_reply(
        request.query,
        birth_from(request, "births.birth_a"),
        birth_from(request, "births.birth_b"),
        both_datetimes,
        moment_a_param=sent_moment_name(request, "births.birth_a.moment"),
    )
    return pb.ComputeDavisonChartResponse(data=record, warnings=warnings)


def davison_reply(
    inputs: ChartInputs,
    birth_a: tuple[Moment, Observer],
    birth_b: tuple[Moment, Observer],
    both_datetimes: bool,
    *,
    moment_a_param: str | None,
) -> tuple[common_pb2.Chart, list[str], Chart]:
    """Return the Davison chart's message, prose warnings and kernel chart for two births
    (each a moment and a place), halfway between the UTC instants when ``both_datetimes``
    (both were sent as datetimes), else between the Julian Days. The errors about the moment
    halfway name ``moment_a_param`` (the parameter of A's moment), or UTC_HALFWAY_PARAM for
    one halved as UTC date-times."""
    (moment_a, place_a), (moment_b, place_b) = birth_a, birth_b
    moment, as_utc = _halfway(both_datetimes, moment_a, moment_b)
    latitude, longitude = great_circle_midpoint(
        place_a.latitude_deg, place_a.longitude_deg, place_b.latitude_deg, place_b.longitude_deg
    )
    place = Observer(latitude, longitude, (place_a.altitude_m + place_b.altitude_m) / 2.0)
    source = {
        "type": "davison",
        "jd_a": moment_a.jd_ut1,
        "jd_b": moment_b.jd_ut1,
        "lat_a": place_a.latitude_deg,
        "lon_a": place_a.longitude_deg,
        "lat_b": place_b.latitude_deg,
        "lon_b": place_b.longitude_deg,
    }
    with naming_moment(UTC_HALFWAY_PARAM if as_utc else moment_a_param):
        return chart_reply(inputs, moment, place, chart_type="davison", source=source)


def _halfway(both_datetimes: bool, moment_a: Moment, moment_b: Moment) -> tuple[Moment, bool]:
    """Return the Davison moment, and whether it is halfway between the UTC instants (when both
    births are datetimes a client's calendar can hold, years 1-9999) rather than between the
    UT1 Julian Days."""
    if both_datetimes:
        try:
            utc = [datetime.fromisoformat(m.iso_utc().replace("Z", "+00:00")) for m in (moment_a, moment_b)]
        except ValueError:
            return midpoint_moment(moment_a, moment_b), False
        return midpoint_utc(*utc), True
    return midpoint_moment(moment_a, moment_b), False


def progressed(request: pb.ComputeProgressedChartRequest, deadline: Deadline) -> pb.ComputeProgressedChartResponse:
    """Return the secondary progressed chart for the target moment, cast at the natal place."""
    progression = request.query
    # The progressed moment is the natal one moved on: its errors name the natal moment's parameter.
    with naming_moment(sent_moment_name(request, "birth.moment")):
        record, warnings, _ = progressed_reply(
            progression.chart,
            progression.natal,
            progression.target,
            progression.moment,
            progression.place,
            request.year_days,
        )
    return pb.ComputeProgressedChartResponse(data=record, warnings=warnings)


def progressed_reply(
    inputs: ChartInputs,
    natal: Moment,
    target: Moment,
    moment: Moment,
    place: Observer,
    year_days: float,
) -> tuple[common_pb2.Chart, list[str], Chart]:
    """Return the progressed chart's message, prose warnings and kernel chart: cast for the
    progressed ``moment`` (kernel.progressions.progressed_moment of ``natal`` to ``target``)
    at the natal ``place``."""
    source = {"type": "progressed", "natal_jd": natal.jd_ut1, "target_jd": target.jd_ut1, "year_days": year_days}
    return chart_reply(inputs, moment, place, chart_type="progressed", source=source)
