"""/v1/returns: when a body comes back to its natal longitude, with a chart cast at each return."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.kernel.bodies import resolve_bodies
from shared.kernel.crossings import check_eligible, crossings
from shared.kernel.deadline import Deadline
from shared.kernel.positions import CalcFlags, compute_positions
from shared.kernel.timescale import Moment
from shared.runtime.chart_reply import chart_reply
from shared.runtime.wire import flags_from, moment_from, required_place

# Source: interface.md, /v1/returns.
RETURN_BODIES = (
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    "mean_node", "true_node", "chiron", "pholus", "ceres", "pallas", "juno", "vesta",
)
MAX_COUNT = {"moon": 13}
MAX_COUNT_OTHERS = 5


def compute(request: pb.FindReturnsRequest, deadline: Deadline) -> pb.FindReturnsResponse:
    """Return the body's natal longitude (in the chart's zodiac) and a chart at each of the
    next ``count`` times it reaches it after ``search_start``, every crossing counted."""
    natal = moment_from(request)
    (body,) = resolve_bodies([request.body], param="body")[:1]
    check_eligible(body, RETURN_BODIES)
    limit = MAX_COUNT.get(body, MAX_COUNT_OTHERS)
    if request.count > limit:
        raise InvalidParameter(
            f"At most {limit} returns of {body} are cast per request; {request.count} were asked for.",
            suggestion=f"Send count of {limit} or less, and search on from the last return for more.",
            param="count",
        )
    ayanamsha = flags_from(request.options).sidereal
    (record,) = compute_positions(natal, [body], CalcFlags(sidereal=ayanamsha)).records
    search_from = moment_from(request, "search_start")
    found = crossings(body, record.longitude, search_from.jd_ut1, request.count, deadline, ayanamsha=ayanamsha)
    data = pb.ReturnsData(return_body=body, natal_longitude=record.longitude)
    warnings: list[str] = []
    for crossing in found:
        deadline.check()
        source = {"type": "return", "body": body, "natal_longitude": record.longitude}
        chart, chart_warnings, _ = chart_reply(request, Moment.from_jd_ut1(crossing.jd), required_place(request), chart_type="return", source=source)
        data.charts.append(chart)
        warnings += [w for w in chart_warnings if w not in warnings]
    return pb.FindReturnsResponse(data=data, warnings=warnings)
