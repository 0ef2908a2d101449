"""/v1/eclipses/solar and /v1/eclipses/lunar: the next eclipses, globally or from a place."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel.deadline import Deadline
from kernel.eclipses import lunar_eclipses, solar_eclipses
from kernel.positions import Observer
from kernel.errors import OutOfRange
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import instant_at, moment_from, place_from


def _place(request) -> Observer | None:
    observer = place_from(request)
    if observer is not None:
        return observer
    return None


def _set_instant(record, name: str, jd: float | None) -> None:
    if jd is not None:
        getattr(record, name).CopyFrom(instant_at(jd))


def solar(request: pb.FindSolarEclipsesRequest, deadline: Deadline) -> pb.FindSolarEclipsesResponse:
    """Return ``count`` solar eclipses of the types asked for, global, or local with ``lat`` and ``lon``."""
    place = _place(request)
    moment = moment_from(request)
    with naming("count", also=(OutOfRange,)):
        found = solar_eclipses(moment.jd_ut1, list(request.type), request.count, deadline, backward=request.backward, place=place)
    records = []
    for eclipse in found:
        record = pb.SolarEclipseRecord(eclipse_type=eclipse.eclipse_type)
        for name in ("maximum", "first_contact", "second_contact", "third_contact", "fourth_contact"):
            _set_instant(record, name, getattr(eclipse, name))
        if place is not None:
            record.magnitude, record.obscuration = eclipse.magnitude, eclipse.obscuration
        records.append(record)
    return pb.FindSolarEclipsesResponse(data=records)


def lunar(request: pb.FindLunarEclipsesRequest, deadline: Deadline) -> pb.FindLunarEclipsesResponse:
    """Return ``count`` lunar eclipses of the types asked for, each ``visible`` or not from ``lat``, ``lon`` when given."""
    place = _place(request)
    moment = moment_from(request)
    with naming("count", also=(OutOfRange,)):
        found = lunar_eclipses(moment.jd_ut1, list(request.type), request.count, deadline, backward=request.backward, place=place)
    records = []
    for eclipse in found:
        record = pb.LunarEclipseRecord(eclipse_type=eclipse.eclipse_type)
        for name in ("maximum", "penumbral_begin", "penumbral_end", "partial_begin", "partial_end", "total_begin", "total_end"):
            _set_instant(record, name, getattr(eclipse, name))
        if eclipse.visible is not None:
            record.visible = eclipse.visible
        records.append(record)
    return pb.FindLunarEclipsesResponse(data=records)
