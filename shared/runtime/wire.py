"""Request messages to kernel values, and kernel values to reply messages.

Every service reads its request here, once, at its edge: the moment, the observer, the
calculation flags, the bodies. The readers go by field name, so any request carrying the
spec's names reads the same way, and they raise the same errors, naming the same
parameters, as validation does in the gateway.
"""

from __future__ import annotations

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from shared.errors import InvalidParameter, MissingParameter
from shared.kernel.ayanamshas import parse_ayanamsha
from shared.kernel.bodies import resolve_bodies
from shared.kernel.houses import HouseSystem, parse_house_system
from shared.kernel.positions import CalcFlags, Observer
from shared.kernel.timescale import Moment, iso_utc


def _has(message: Message, name: str) -> bool:
    return name in message.DESCRIPTOR.fields_by_name and message.HasField(name)


def moment_from(message: Message, datetime_field: str = "datetime", jd_field: str = "jd") -> Moment:
    """Return the Moment a request gives as ISO 8601 UTC ``datetime_field`` or UT1 ``jd_field``."""
    if message.HasField(datetime_field):
        return Moment.from_iso(getattr(message, datetime_field), param=datetime_field)
    return Moment.from_jd_ut1(getattr(message, jd_field))


def flags_from(message: Message) -> CalcFlags:
    """Return the calculation flags a request carries (the spec's defaults for those it lacks)."""

    def flag(name: str, default: bool = False) -> bool:
        return getattr(message, name) if _has(message, name) else default

    return CalcFlags(
        sidereal=parse_ayanamsha(message.sidereal, param="sidereal") if _has(message, "sidereal") else None,
        equatorial=flag("equatorial"),
        speed=flag("speed", True),
        no_nutation=flag("no_nutation"),
        j2000=flag("j2000"),
        topocentric=flag("topocentric"),
        heliocentric=flag("heliocentric"),
    )


def observer_from(message: Message, flags: CalcFlags) -> Observer | None:
    """Return the observer of a request's ``lat``, ``lon`` and ``alt`` (metres), or None.

    With ``topocentric`` the place is required (MissingParameter naming ``lat``) and a
    heliocentric view is refused (InvalidParameter naming ``topocentric``).
    """
    observer = None
    if _has(message, "lat") and _has(message, "lon"):
        altitude = message.alt if _has(message, "alt") else 0.0
        observer = Observer(latitude_deg=message.lat, longitude_deg=message.lon, altitude_m=altitude)
    if flags.topocentric and observer is None:
        raise MissingParameter(
            "topocentric=true needs the observer's place: lat and lon.",
            suggestion="Add lat and lon (and optionally alt), or drop topocentric=true.",
            param="lat",
        )
    if flags.topocentric and flags.heliocentric:
        raise InvalidParameter(
            "topocentric=true and heliocentric=true contradict each other: a heliocentric view has no observer on Earth.",
            suggestion="Send only one of topocentric and heliocentric.",
            param="topocentric",
        )
    return observer


def bodies_from(message: Message, flags: CalcFlags, field: str = "bodies") -> tuple[str, ...]:
    """Return the resolved body names of a request's list ``field`` (groups expanded, once each)."""
    return tuple(resolve_bodies(list(getattr(message, field)), heliocentric=flags.heliocentric, param=field))


def house_system_from(message: Message, field: str = "system") -> HouseSystem:
    """Return the house system a request names in ``field``."""
    return parse_house_system(getattr(message, field), param=field)


def instant(moment: Moment) -> common_pb2.Instant:
    """Return the wire Instant (UT1 Julian Day and ISO 8601 UTC with milliseconds) of ``moment``."""
    return instant_at(moment.jd_ut1)


def instant_at(jd_ut1: float) -> common_pb2.Instant:
    """Return the wire Instant of a UT1 Julian Day (a computed event's time, no Moment needed)."""
    return common_pb2.Instant(jd=jd_ut1, datetime=iso_utc(jd_ut1))
