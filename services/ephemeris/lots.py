"""/v1/lots: the Hermetic lots of a chart, by day or by night."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import ChartSettings, cast_chart
from kernel.chart_extras import ChartExtras
from kernel.deadline import Deadline
from kernel.lots import LOTS, bodies_needed, parse_lots
from kernel.positions import CalcFlags
from kernel.zodiac import sign_of
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import flags_from, house_system_from, moment_from, required_place


def compute(request: pb.ComputeLotsRequest, deadline: Deadline) -> pb.ComputeLotsResponse:
    """Return the sect and the lots asked for (all seven by default), each with its house (its
    Gauquelin sector with system=gauquelin, as a point on the ecliptic); in sidereal mode the
    Ascendant and the bodies are sidereal. A lot's bodies are computed whatever ``bodies`` holds:
    the chart cast is of those bodies alone, with no aspects."""
    with naming("lots"):
        lot_ids = parse_lots(list(request.lots)) if request.lots else tuple(lot.id for lot in LOTS)
    settings = ChartSettings(
        bodies_needed(lot_ids), house_system_from(request), CalcFlags(sidereal=flags_from(request).sidereal), aspect_types=(), parallels=False
    )
    extras = ChartExtras(derived=True, midpoints=False, antiscia=False, lots=lot_ids)
    chart = cast_chart(moment_from(request), required_place(request, "location"), settings, extras=extras)
    data = pb.LotsData(is_day_chart=chart.day_chart)
    for lot in chart.lots:
        sign, degree = sign_of(lot.longitude)
        data.lots.append(
            pb.LotRecord(
                id=lot.id, name=lot.name, longitude=lot.longitude, sign=sign, sign_degree=degree,
                house=chart.placement.house(lot.longitude),
                formula=pb.LotFormula(body_a=lot.body_a, body_b=lot.body_b, ascendant=lot.ascendant, reversed=lot.reversed),
            )
        )
    return pb.ComputeLotsResponse(data=data, warnings=[c.message for c in chart.warnings])
