"""The search service process: each built RPC and the module that computes it.

RPCs of ``SearchService`` missing here answer UNIMPLEMENTED (HTTP 501).
"""

from __future__ import annotations

from celestial.v1 import search_service_pb2
from services.search import (
    birth_time_sensitivity,
    calendar,
    eclipses,
    explain_difference,
    forecast,
    heliacal,
    ingresses,
    lunations,
    returns,
    stations,
    transits,
    void_of_course_periods,
)
from shared.runtime.server import serve_main

SERVICE = search_service_pb2.DESCRIPTOR.services_by_name["SearchService"]

HANDLERS = {
    "FindTransits": transits.compute,
    "FindReturns": returns.compute,
    "FindIngresses": ingresses.compute,
    "FindSolarEclipses": eclipses.solar,
    "FindLunarEclipses": eclipses.lunar,
    "FindHeliacalEvent": heliacal.compute,
    "FindStations": stations.compute,
    "FindLunations": lunations.compute,
    "FindVoidOfCoursePeriods": void_of_course_periods.compute,
    "FindCalendarEvents": calendar.compute,
    "FindForecast": forecast.compute,
    "ExplainDifference": explain_difference.compute,
    "FindBirthTimeSensitivity": birth_time_sensitivity.compute,
}


def main(argv: list[str] | None = None) -> None:
    serve_main("search", SERVICE, HANDLERS, argv)


if __name__ == "__main__":
    main()
