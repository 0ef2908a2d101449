"""/v1/stations: the stations of planets over a range, and their retrograde periods with the shadows."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.stations import Station, find_stations, retrograde_periods
from kernel.zodiac import sign_key_of
from shared.runtime.wire import instant_at


def compute(request: pb.FindStationsRequest, deadline: Deadline) -> pb.FindStationsResponse:
    """Return the stations inside the range and the retrograde periods whose shadow overlaps it,
    each in time order (a tie in the order of the bodies asked for)."""
    query = request.query
    found: list[Station] = []
    periods = []
    for body in query.bodies:
        found += find_stations(body, query.start_jd, query.end_jd, deadline)
        periods += retrograde_periods(body, query.start_jd, query.end_jd, deadline)
    order = {body: index for index, body in enumerate(query.bodies)}
    found.sort(key=lambda s: (s.jd, order[s.body]))
    periods.sort(key=lambda p: (p.pre_shadow_start_jd, order[p.body]))
    data = pb.StationsData(
        stations=[station_record(s) for s in found],
        retrograde_periods=[
            pb.RetrogradePeriodRecord(
                body=p.body,
                pre_shadow_start=instant_at(p.pre_shadow_start_jd),
                station_retrograde=instant_at(p.station_retrograde.jd),
                station_direct=instant_at(p.station_direct.jd),
                post_shadow_end=instant_at(p.post_shadow_end_jd),
                longitude_start=p.longitude_start_deg,
                longitude_end=p.longitude_end_deg,
                clamped_start=p.pre_shadow_start_jd < query.start_jd,
                clamped_end=p.post_shadow_end_jd > query.end_jd,
            )
            for p in periods
        ],
    )
    return pb.FindStationsResponse(data=data)


def station_record(station: Station) -> pb.StationRecord:
    """Return the wire record of one station."""
    sign, degree = sign_key_of(station.longitude_deg)
    return pb.StationRecord(
        body=station.body,
        event=station.event,
        instant=instant_at(station.jd),
        longitude=station.longitude_deg,
        sign=sign,
        sign_degree=degree,
    )
