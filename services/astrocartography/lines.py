"""/v1/astrocartography: the request read once into targets, the lines computed, rendered as
line records or as a GeoJSON FeatureCollection."""

from __future__ import annotations

from google.protobuf import struct_pb2

from celestial.v1 import astrocartography_service_pb2 as pb
from kernel.astrocartography import (
    ZODIACAL,
    Segment,
    Sky,
    equatorial,
    latitude_rows,
    line_segments,
)
from kernel.deadline import Deadline
from kernel.earth_rotation import sidereal_time
from kernel.positions import CalcFlags, compute_positions, obliquity_deg
from shared.runtime.wire import house_system_from, moment_from

GEOJSON = "geojson"


def compute(request: pb.ComputeAstrocartographyRequest, deadline: Deadline) -> pb.ComputeAstrocartographyResponse:
    """Return each target's lines over the latitude rows, in target order (angles, then cusps)."""
    moment = moment_from(request)
    targets = request.query
    system = house_system_from(request).name
    mode = request.mode or ZODIACAL
    rows = latitude_rows(request.latitude_step, request.max_latitude)
    bodies = list(dict.fromkeys(["sun", *(t.body for t in targets)]))
    result = compute_positions(moment, bodies, CalcFlags(speed=False))
    places = {r.body: (r.longitude, r.latitude) for r in result.records}
    obliquity = obliquity_deg(moment)
    _, sun_declination = equatorial(*places["sun"], obliquity)
    sky = Sky(sidereal_time(moment).gast_degrees, obliquity, float(sun_declination))
    lines = []
    for target in targets:
        longitude, latitude = places[target.body]
        for kind, value in [*(("angle", a) for a in target.angles), *(("cusp", c) for c in target.cusps)]:
            deadline.check()
            found = line_segments(
                sky,
                rows,
                longitude,
                latitude,
                angle=value if kind == "angle" else None,
                cusp=value if kind == "cusp" else None,
                system=system,
                mode=mode,
            )
            lines.append((target.body, kind, value, found))
    if request.format == GEOJSON:
        data = pb.AstrocartographyData(geojson=_feature_collection(lines, mode, system))
    else:
        data = pb.AstrocartographyData(map=_map(lines, mode, system, sky, float(sun_declination)))
    return pb.ComputeAstrocartographyResponse(data=data, warnings=[c.message for c in result.conditions])


def _line_ref(kind: str, value) -> pb.AstroLineRef:
    if kind == "angle":
        return pb.AstroLineRef(angle=pb.AngleLineRef(kind=kind, value=value))
    return pb.AstroLineRef(cusp=pb.CuspLineRef(kind=kind, value=value))


def _map(lines, mode: str, system: str, sky: Sky, sun_declination: float) -> pb.AstroMap:
    out = pb.AstroMap(sky=pb.AstroSky(gast=sky.gast_deg, obliquity=sky.obliquity_deg, sun_declination=sun_declination))
    for body, kind, value, found in lines:
        out.lines.append(
            pb.AstroLine(
                body=body,
                line=_line_ref(kind, value),
                mode=mode,
                house_system=system,
                segments=[
                    pb.AstroSegment(
                        points=pb.GeoPoints(latitude=_floats(s.latitudes), longitude=_floats(s.longitudes)), end=s.end
                    )
                    for s in found
                ],
            )
        )
    return out


def _floats(values) -> list[float]:
    # One conversion of a whole column (numpy array or sequence) to Python floats, the same
    # values to the last bit, rather than one per point.
    return values.tolist() if hasattr(values, "tolist") else list(values)


def _geometry(segment: Segment) -> pb.GeoJsonGeometry:
    coordinates = struct_pb2.ListValue()
    if len(segment.latitudes) == 1:
        coordinates.extend([segment.longitudes[0], segment.latitudes[0]])
        return pb.GeoJsonGeometry(type="Point", coordinates=coordinates)
    for latitude, longitude in zip(segment.latitudes, segment.longitudes):
        coordinates.add_list().extend([longitude, latitude])
    return pb.GeoJsonGeometry(type="LineString", coordinates=coordinates)


def _feature_collection(lines, mode: str, system: str) -> pb.GeoJsonFeatureCollection:
    out = pb.GeoJsonFeatureCollection(type="FeatureCollection")
    for body, kind, value, found in lines:
        for segment in found:
            properties = pb.AstroLineProperties(
                body=body, line=_line_ref(kind, value), mode=mode, house_system=system, end=segment.end
            )
            out.features.append(pb.GeoJsonFeature(type="Feature", geometry=_geometry(segment), properties=properties))
    return out
