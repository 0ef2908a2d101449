"""/v1/returns: when a body comes back to its natal longitude, with a chart cast at each return."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from shared.runtime.chart_reply import chart_reply
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.return_search import RETURN_MOMENT_PARAM, find_returns
from shared.runtime.wire import chart_place, flags_from, moment_from, observer_from, required_place, sent_moment_name


def compute(request: pb.FindReturnsRequest, deadline: Deadline) -> pb.FindReturnsResponse:
    """Return the body's natal longitude and a chart at each of the next ``count`` times it
    reaches it after ``search_start``, every crossing counted (the search:
    :func:`shared.runtime.return_search.find_returns`)."""
    natal = moment_from(request)
    flags = flags_from(request, "chart.options")
    body = request.query.body
    # The request gives one place: the natal place and the return place are the same.
    # Validation refused topocentric with heliocentric (a view from no place on Earth).
    observer_from(request, flags)
    place = required_place(request)
    natal_longitude, moments = find_returns(
        body,
        natal,
        moment_from(request, "search_start"),
        request.count,
        deadline,
        flags=flags,
        place=place,
        from_param=sent_moment_name(request, "search_start"),
    )
    # A relocated return is the same instant cast for another place.
    cast_at = chart_place(request, place)
    data = pb.ReturnsData(return_body=body, natal_longitude=natal_longitude)
    warnings: list[str] = []
    for moment in moments:
        deadline.check()
        source = {"type": "return", "body": body, "natal_longitude": natal_longitude}
        with naming_moment(RETURN_MOMENT_PARAM):
            chart, chart_warnings, _ = chart_reply(
                request.query.chart, moment, cast_at, chart_type="return", source=source
            )
        data.charts.append(chart)
        warnings += [w for w in chart_warnings if w not in warnings]
    return pb.FindReturnsResponse(data=data, warnings=warnings)
