"""/v1/returns: when a body comes back to its natal longitude, with a chart cast at each return."""

from __future__ import annotations

from dataclasses import replace

from celestial.v1 import search_service_pb2 as pb
from kernel.crossings import crossings
from kernel.deadline import Deadline
from kernel.positions import compute_positions
from kernel.timescale import Moment
from shared.runtime.chart_reply import chart_reply
from shared.runtime.wire import flags_from, moment_from, observer_from, required_place, sent_moment_name


def compute(request: pb.FindReturnsRequest, deadline: Deadline) -> pb.FindReturnsResponse:
    """Return the body's natal longitude and a chart at each of the next ``count`` times it
    reaches it after ``search_start``, every crossing counted.

    The return is found in the frame its chart is cast in: the natal longitude is the body's
    under the request's flags at the natal place (topocentric there with ``topocentric``), and
    the search runs under the same flags at the return place, so each chart's body lies on it.
    """
    natal = moment_from(request)
    flags = flags_from(request.chart.options)
    body = request.query.body
    # The chart's longitudes are ecliptic whatever equatorial adds beside them.
    frame = replace(flags, speed=True, equatorial=False)
    # The request gives one place: the natal place and the return place are the same.
    # Validation refused topocentric with heliocentric (a view from no place on Earth).
    observer_from(request, flags)
    natal_place = return_place = required_place(request)
    (record,) = compute_positions(natal, [body], frame, natal_place if frame.topocentric else None).records
    search_from = moment_from(request, "search_start")
    found = crossings(
        body, record.longitude, search_from.jd_ut1, request.count, deadline,
        flags=frame, observer=return_place if frame.topocentric else None,
        from_param=sent_moment_name(request, "search_start"),
    )
    data = pb.ReturnsData(return_body=body, natal_longitude=record.longitude)
    warnings: list[str] = []
    for crossing in found:
        deadline.check()
        source = {"type": "return", "body": body, "natal_longitude": record.longitude}
        chart, chart_warnings, _ = chart_reply(request.query.chart, Moment.from_jd_ut1(crossing.jd), return_place, chart_type="return", source=source)
        data.charts.append(chart)
        warnings += [w for w in chart_warnings if w not in warnings]
    return pb.FindReturnsResponse(data=data, warnings=warnings)
