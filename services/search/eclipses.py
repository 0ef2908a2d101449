"""/v1/eclipses/solar and /v1/eclipses/lunar: the next eclipses, globally or from a place."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.eclipses import lunar_eclipses, solar_eclipses
from kernel.errors import OutOfRange
from kernel.forecast import EclipseAt
from kernel.zodiac import sign_key_of
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import instant_at


def _set_instant(record, name: str, jd: float | None) -> None:
    if jd is not None:
        getattr(record, name).CopyFrom(instant_at(jd))


def solar(request: pb.FindSolarEclipsesRequest, deadline: Deadline) -> pb.FindSolarEclipsesResponse:
    """Return ``count`` solar eclipses of the types asked for, global, or local with ``lat`` and ``lon``."""
    query = request.query
    with naming("count", also=(OutOfRange,)):
        found = solar_eclipses(
            query.moment.jd_ut1, list(query.types), query.count, deadline, backward=query.backward, place=query.place
        )
    records = []
    for eclipse in found:
        record = pb.SolarEclipseRecord(eclipse_type=eclipse.eclipse_type)
        for name in ("maximum", "first_contact", "second_contact", "third_contact", "fourth_contact"):
            _set_instant(record, name, getattr(eclipse, name))
        if query.place is not None:
            record.magnitude, record.obscuration = eclipse.magnitude, eclipse.obscuration
        records.append(record)
    return pb.FindSolarEclipsesResponse(data=records)


def lunar(request: pb.FindLunarEclipsesRequest, deadline: Deadline) -> pb.FindLunarEclipsesResponse:
    """Return ``count`` lunar eclipses of the types asked for, each ``visible`` or not from ``lat``, ``lon`` when
    given."""
    query = request.query
    with naming("count", also=(OutOfRange,)):
        found = lunar_eclipses(
            query.moment.jd_ut1, list(query.types), query.count, deadline, backward=query.backward, place=query.place
        )
    records = []
    for eclipse in found:
        record = pb.LunarEclipseRecord(eclipse_type=eclipse.eclipse_type)
        for name in (
            "maximum",
            "penumbral_begin",
            "penumbral_end",
            "partial_begin",
            "partial_end",
            "total_begin",
            "total_end",
        ):
            _set_instant(record, name, getattr(eclipse, name))
        if eclipse.visible is not None:
            record.visible = eclipse.visible
        records.append(record)
    return pb.FindLunarEclipsesResponse(data=records)


def global_eclipse(at: EclipseAt) -> pb.GlobalEclipse:
    """Return the record of an eclipse event (/v1/calendar, /v1/forecast): its kind, type,
    greatest eclipse, and the longitude (degrees), sign and degree in the sign where it falls."""
    sign, degree = sign_key_of(at.longitude_deg)
    return pb.GlobalEclipse(
        kind=at.kind,
        eclipse_type=at.eclipse.eclipse_type,
        maximum=instant_at(at.eclipse.maximum),
        longitude=at.longitude_deg,
        sign=sign,
        sign_degree=degree,
    )
