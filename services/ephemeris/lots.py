"""/v1/lots: the Hermetic lots of a chart, by day or by night."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import cast_chart
from kernel.deadline import Deadline
from kernel.zodiac import sign_key_of


def compute(request: pb.ComputeLotsRequest, deadline: Deadline) -> pb.ComputeLotsResponse:
    """Return the sect and the lots asked for (all seven by default), each with its house (its
    Gauquelin sector with system=gauquelin, as a point on the ecliptic); in sidereal mode the
    Ascendant and the bodies are sidereal. A lot's bodies are computed whatever ``bodies`` holds:
    the chart cast is of those bodies alone, with no aspects."""
    query = request.query
    chart = cast_chart(query.moment, query.place, query.settings, extras=query.extras)
    data = pb.LotsData(is_day_chart=chart.day_chart)
    for lot in chart.lots:
        sign, degree = sign_key_of(lot.longitude)
        data.lots.append(
            pb.LotRecord(
                id=lot.id,
                name=lot.name,
                longitude=lot.longitude,
                sign=sign,
                sign_degree=degree,
                house=chart.placement.house(lot.longitude),
                formula=pb.LotFormula(
                    body_a=lot.body_a, body_b=lot.body_b, ascendant=lot.ascendant, reversed=lot.reversed
                ),
            )
        )
    return pb.ComputeLotsResponse(data=data, warnings=[c.message for c in chart.warnings])
