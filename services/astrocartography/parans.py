"""/v1/parans: the day's points on the angles at one latitude and the pairs in paran, or the
latitudes at which one pair is, as a GeoJSON FeatureCollection.

It runs in the astrocartography service (the map family): a day's sampling of up to 50
points and the Newton solves of their events weigh like a map (tens of milliseconds, the
scan deadline class), and the latitude view answers with the maps' GeoJSON."""

from __future__ import annotations

from google.protobuf import struct_pb2

from celestial.v1 import astrocartography_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.parans import SIDEREAL_DAY_DAYS, AngleEvent, angle_events, day_sky, paran_latitudes, parans
from kernel.stars import find_star
from shared.runtime.parans_query import PairSide
from shared.runtime.wire import instant_at, moment_from

FEATURE_LONGITUDES = tuple(range(-180, 181, 10))


def compute(request: pb.ComputeParansRequest, deadline: Deadline) -> pb.ComputeParansResponse:
    """Return the day's events and parans at the place, or the pair's paran latitudes."""
    query = request.query
    moment = moment_from(request)
    if query.pair is not None:
        return _latitudes(moment, query.pair)
    sky, conditions = day_sky(moment, query.bodies, [find_star(name) for name in query.stars])
    deadline.check()
    place = query.place
    events = angle_events(sky, place.latitude_deg, place.longitude_deg)
    day = pb.ParansDay(
        start=instant_at(moment.jd_ut1),
        end=instant_at(moment.jd_ut1 + SIDEREAL_DAY_DAYS),
        latitude=place.latitude_deg,
        longitude=place.longitude_deg,
        orb_minutes=query.orb_minutes,
        events=[_event(e) for e in events],
        parans=[
            pb.Paran(first=_event(p.first), second=_event(p.second), separation_seconds=p.separation_s)
            for p in parans(events, query.orb_minutes)
        ],
    )
    return pb.ComputeParansResponse(data=pb.ParansData(day=day), warnings=[c.message for c in conditions])


def _event(event: AngleEvent) -> pb.ParanEvent:
    return pb.ParanEvent(
        point=event.point,
        angle=event.angle,
        time=instant_at(event.jd_ut),
        lst_degrees=event.local_sidereal_deg,
    )


def _latitudes(moment, pair: tuple[PairSide, PairSide]) -> pb.ComputeParansResponse:
    bodies = [side.point for side in pair if not side.star]
    stars = [find_star(side.point) for side in pair if side.star]
    sky, conditions = day_sky(moment, bodies, stars)
    names = [
        side.point if not side.star else (find_star(side.point).name or find_star(side.point).nomenclature)
        for side in pair
    ]
    index = {name: row for row, name in enumerate(sky.points)}
    first, second = (
        (float(sky.right_ascensions[index[name], 0]), float(sky.declinations[index[name], 0]), side.angle)
        for name, side in zip(names, pair)
    )
    out = pb.ParanLatitudeCollection(type="FeatureCollection")
    for latitude in paran_latitudes(first, second):
        coordinates = struct_pb2.ListValue()
        for longitude in FEATURE_LONGITUDES:
            coordinates.add_list().extend([float(longitude), latitude])
        properties = pb.ParanLatitudeProperties(
            first=pb.ParanSide(point=names[0], angle=pair[0].angle),
            second=pb.ParanSide(point=names[1], angle=pair[1].angle),
            latitude=latitude,
        )
        out.features.append(
            pb.ParanLatitudeFeature(
                type="Feature",
                geometry=pb.GeoJsonGeometry(type="LineString", coordinates=coordinates),
                properties=properties,
            )
        )
    return pb.ComputeParansResponse(data=pb.ParansData(geojson=out), warnings=[c.message for c in conditions])
