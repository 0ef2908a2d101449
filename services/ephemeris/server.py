"""The ephemeris service process: each built RPC and the module that computes it.

RPCs of ``EphemerisService`` missing here answer UNIMPLEMENTED (HTTP 501).
"""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2
from services.ephemeris import (
    aspects,
    ayanamsha,
    chart,
    chart_wheel,
    composite,
    derived_charts,
    dignities,
    directions,
    earth_rotation,
    houses,
    lots,
    midpoints,
    natal,
    patterns,
    places,
    planetary_hours,
    positions,
    solar_proximity,
    stars,
    synastry,
    time_zones,
    void_of_course,
)
from shared.runtime.server import serve_main

SERVICE = ephemeris_service_pb2.DESCRIPTOR.services_by_name["EphemerisService"]

HANDLERS = {
    "ComputePositions": positions.compute,
    "ComputeHouses": houses.compute,
    "ComputeChart": chart.compute,
    "ComputeAspects": aspects.compute,
    "ComputeNatalChart": natal.compute,
    "DrawChartWheel": chart_wheel.compute,
    "ComputeSynastry": synastry.compute,
    "ComputeDraconicChart": derived_charts.draconic,
    "ComputeDavisonChart": derived_charts.davison,
    "ComputeProgressedChart": derived_charts.progressed,
    "ComputeDirections": directions.compute,
    "ComputeDignities": dignities.compute,
    "FindPatterns": patterns.compute,
    "ComputeLots": lots.compute,
    "ComputeMidpoints": midpoints.compute,
    "ComputeCompositeChart": composite.compute,
    "ComputeVoidOfCourse": void_of_course.compute,
    "ComputeSolarProximity": solar_proximity.compute,
    "ComputeAyanamsha": ayanamsha.compute,
    "ComputeDeltaT": earth_rotation.compute_delta_t,
    "ComputeSiderealTime": earth_rotation.compute_sidereal_time,
    "ComputePlanetaryHours": planetary_hours.compute,
    "ComputeStars": stars.compute,
    "FindPlaces": places.compute,
    "FindTimeZone": time_zones.compute,
}


def main(argv: list[str] | None = None) -> None:
    serve_main("ephemeris", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
