"""/v1/houses: house cusps and angles at one moment and place, in decisions.md's wire shape."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.houses import HouseSet, compute_houses
from shared.runtime.houses_query import HousesQuery


def houses_of(query: HousesQuery) -> HouseSet:
    """Return the kernel house set ``query`` asks for."""
    return compute_houses(
        query.moment,
        query.latitude_deg,
        query.longitude_deg,
        query.system,
        sidereal=query.sidereal,
        no_nutation=query.no_nutation,
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


def compute(request: pb.ComputeHousesRequest, deadline: Deadline) -> pb.ComputeHousesResponse:
    """Return the /v1/houses reply."""
    houses = houses_of(request.query)
    return pb.ComputeHousesResponse(data=house_record(houses), warnings=[c.message for c in houses.warnings])
