"""/v1/houses: house cusps and angles at one moment and place, in decisions.md's wire shape."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.ayanamshas import parse_ayanamsha
from shared.houses import HouseSet, compute_houses, parse_house_system
from shared.wire import moment_from


def house_set_for(request) -> HouseSet:
    """Return the kernel house set for a request with lat, lon, system and optional flags."""
    fields = request.DESCRIPTOR.fields_by_name
    sidereal = parse_ayanamsha(request.sidereal) if "sidereal" in fields and request.HasField("sidereal") else None
    no_nutation = bool("no_nutation" in fields and request.no_nutation)
    return compute_houses(
        moment_from(request),
        request.lat,
        request.lon,
        parse_house_system(request.system),
        sidereal=sidereal,
        no_nutation=no_nutation,
    )


def house_record(houses: HouseSet) -> pb.HouseSet:
    """Return the wire HouseSet: the 12 cusps (36 for gauquelin), house 1 first."""
    return pb.HouseSet(
        system=houses.system,
        cusps=list(houses.cusps_deg),
        ascendant=houses.ascendant_deg,
        midheaven=houses.midheaven_deg,
        armc=houses.armc_deg,
        vertex=houses.vertex_deg,
        warnings=[c.message for c in houses.warnings],
    )


def compute(request: pb.ComputeHousesRequest) -> pb.ComputeHousesResponse:
    """Return the /v1/houses reply."""
    houses = house_set_for(request)
    return pb.ComputeHousesResponse(data=house_record(houses), warnings=[c.message for c in houses.warnings])
