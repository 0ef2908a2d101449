"""/v1/houses: house cusps and angles at one moment and place, in decisions.md's wire shape."""

from __future__ import annotations

from dataclasses import dataclass

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.ayanamshas import Ayanamsha
from kernel.deadline import Deadline
from kernel.houses import HouseSet, HouseSystem, compute_houses
from kernel.positions import CalcFlags
from kernel.timescale import Moment
from shared.runtime.wire import flags_from, house_system_from, moment_from, required_place


@dataclass(frozen=True)
class HousesQuery:
    """A houses request read once: moment, place (degrees north and east), system and zodiac."""

    moment: Moment
    latitude_deg: float
    longitude_deg: float
    system: HouseSystem
    sidereal: Ayanamsha | None
    no_nutation: bool


def read_query(request, moment: Moment, flags: CalcFlags, place: str = "location") -> HousesQuery:
    """Return the query of a request with a place (its value ``place``) and a system, at the
    ``moment`` and under the ``flags`` (sidereal, no_nutation) the caller has read from it already."""
    location = required_place(request, place)
    return HousesQuery(moment, location.latitude_deg, location.longitude_deg, house_system_from(request), flags.sidereal, flags.no_nutation)


def houses_of(query: HousesQuery) -> HouseSet:
    """Return the kernel house set ``query`` asks for."""
    return compute_houses(
        query.moment, query.latitude_deg, query.longitude_deg, query.system, sidereal=query.sidereal, no_nutation=query.no_nutation
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
    houses = houses_of(read_query(request, moment_from(request), flags_from(request)))
    return pb.ComputeHousesResponse(data=house_record(houses), warnings=[c.message for c in houses.warnings])
