"""/v1/positions: positions of bodies at one moment, in the ecliptic or the equatorial shape."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from shared.ayanamshas import parse_ayanamsha
from shared.bodies import resolve_bodies
from shared.positions import CalcFlags, EclipticPosition, Observer, PositionsResult, compute_positions
from shared.wire import moment_from


def calc_flags(request) -> CalcFlags:
    """Return the kernel's CalcFlags for a request carrying any of the seven flags."""
    def flag(name: str, default: bool = False) -> bool:
        return getattr(request, name) if name in request.DESCRIPTOR.fields_by_name and request.HasField(name) else default

    sidereal = None
    if "sidereal" in request.DESCRIPTOR.fields_by_name and request.HasField("sidereal"):
        sidereal = parse_ayanamsha(request.sidereal)
    return CalcFlags(
        sidereal=sidereal,
        equatorial=flag("equatorial"),
        speed=flag("speed", True),
        no_nutation=flag("no_nutation"),
        j2000=flag("j2000"),
        topocentric=flag("topocentric"),
        heliocentric=flag("heliocentric"),
    )


def observer_of(request) -> Observer | None:
    """Return the observer a request gives with lat/lon (alt in meters), or None."""
    if request.HasField("lat") and request.HasField("lon"):
        altitude = request.alt if request.HasField("alt") else 0.0
        return Observer(latitude_deg=request.lat, longitude_deg=request.lon, altitude_m=altitude)
    return None


def position_record(record) -> dict:
    """Return the wire record of one kernel position (either shape), as the field values a
    ``PositionRecord`` is built from (building from plain values is several times faster
    than from message objects, and a chart has a dozen records)."""
    if isinstance(record, EclipticPosition):
        fields = {
            "body": record.body,
            "longitude": record.longitude,
            "latitude": record.latitude,
            "distance": record.distance,
            "sign": record.sign,
            "sign_degree": record.sign_degree,
            "declination": record.declination,
            "out_of_bounds": record.out_of_bounds,
        }
        if record.speed is not None:
            fields["speed"] = record.speed
            fields["retrograde"] = record.retrograde
        return {"ecliptic": fields}
    fields = {
        "body": record.body,
        "right_ascension": record.right_ascension,
        "declination": record.declination,
        "distance": record.distance,
        "out_of_bounds": record.out_of_bounds,
    }
    if record.ra_speed is not None:
        fields["ra_speed"] = record.ra_speed
        fields["dec_speed"] = record.dec_speed
    return {"equatorial": fields}


def positions_for(request) -> PositionsResult:
    """Return the kernel positions a positions-like request asks for."""
    flags = calc_flags(request)
    bodies = resolve_bodies(list(request.bodies), heliocentric=flags.heliocentric)
    return compute_positions(moment_from(request), bodies, flags, observer_of(request))


def compute(request: pb.ComputePositionsRequest) -> pb.ComputePositionsResponse:
    """Return the /v1/positions reply."""
    result = positions_for(request)
    return pb.ComputePositionsResponse(
        data=[position_record(r) for r in result.records],
        warnings=[c.message for c in result.conditions],
    )
