"""/v1/lots: the Hermetic lots of a chart, by day or by night."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.kernel.chart import house_placement
from shared.kernel.deadline import Deadline
from shared.kernel.houses import compute_houses
from shared.kernel.lots import LOTS, bodies_needed, compute_lots, is_day_chart, parse_lots
from shared.kernel.positions import CalcFlags, compute_positions
from shared.kernel.zodiac import sign_of
from shared.runtime.wire import flags_from, house_system_from, moment_from, required_place


def compute(request: pb.ComputeLotsRequest, deadline: Deadline) -> pb.ComputeLotsResponse:
    """Return the sect and the lots asked for (all seven by default), each with its house (its
    Gauquelin sector with system=gauquelin, as a point on the ecliptic); in sidereal mode the
    Ascendant and the bodies are sidereal. A lot's bodies are computed whatever ``bodies`` holds."""
    moment = moment_from(request)
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    lot_ids = parse_lots(list(request.lots)) if request.lots else tuple(lot.id for lot in LOTS)
    location = required_place(request, "location")
    system = house_system_from(request)
    houses = compute_houses(moment, location.latitude_deg, location.longitude_deg, system, sidereal=flags.sidereal)
    placement = house_placement(moment, location.latitude_deg, houses, system, sidereal=flags.sidereal)
    result = compute_positions(moment, list(bodies_needed(lot_ids)), flags)
    longitudes = {r.body: r.longitude for r in result.records}
    day = is_day_chart(longitudes["sun"], houses.ascendant_deg)
    data = pb.LotsData(is_day_chart=day)
    for lot in compute_lots(lot_ids, longitudes, houses.ascendant_deg, day):
        sign, degree = sign_of(lot.longitude)
        data.lots.append(
            pb.LotRecord(
                id=lot.id, name=lot.name, longitude=lot.longitude, sign=sign, sign_degree=degree,
                house=placement.house(lot.longitude),
                formula=pb.LotFormula(body_a=lot.body_a, body_b=lot.body_b, ascendant=lot.ascendant, reversed=lot.reversed),
            )
        )
    return pb.ComputeLotsResponse(data=data, warnings=[c.message for c in [*result.conditions, *houses.warnings]])
