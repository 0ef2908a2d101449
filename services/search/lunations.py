"""/v1/lunations: the Moon's phases over a range, each with the eclipse that falls within a day of it."""

from __future__ import annotations

from celestial.v1 import search_service_pb2 as pb
from kernel import lunations as kernel
from kernel.deadline import Deadline
from kernel.eclipses import LUNAR, SOLAR, Eclipse, eclipses_between
from kernel.zodiac import sign_key_of
from shared.runtime.wire import instant_at

# An eclipse belongs to a lunation when its greatest phase lies this close to it (issue 29).
ECLIPSE_WINDOW_DAYS = 1.0


def compute(request: pb.FindLunationsRequest, deadline: Deadline) -> pb.FindLunationsResponse:
    """Return the lunations of the phases asked for inside the range, in time order."""
    start, end = request.query
    return pb.FindLunationsResponse(
        data=lunation_records(start.jd_ut1, end.jd_ut1, list(dict.fromkeys(request.phases)), deadline)
    )


def lunation_records(start_jd: float, end_jd: float, phases: list[str], deadline: Deadline) -> list[pb.LunationRecord]:
    """Return the wire records of the lunations of ``phases`` in [start_jd, end_jd), in time order."""
    found = kernel.find_lunations(start_jd, end_jd, phases, deadline)
    eclipses = eclipses_near(start_jd, end_jd, deadline)
    return [lunation_record(lunation, eclipses) for lunation in found]


def eclipses_near(start_jd: float, end_jd: float, deadline: Deadline) -> list[tuple[str, Eclipse]]:
    """Return the global solar and lunar eclipses (kind, eclipse) that a lunation of [start_jd,
    end_jd) may hold: those whose greatest eclipse lies within ECLIPSE_WINDOW_DAYS of the range."""
    return [
        (kind, eclipse)
        for kind in (SOLAR, LUNAR)
        for eclipse in eclipses_between(kind, start_jd - ECLIPSE_WINDOW_DAYS, end_jd + ECLIPSE_WINDOW_DAYS, deadline)
    ]


def lunation_record(lunation: kernel.Lunation, eclipses: list[tuple[str, Eclipse]]) -> pb.LunationRecord:
    """Return the wire record of ``lunation``, with the eclipse of ``eclipses`` within a day of it."""
    sign, degree = sign_key_of(lunation.moon_longitude_deg)
    record = pb.LunationRecord(
        phase=lunation.phase,
        instant=instant_at(lunation.jd),
        elongation=lunation.elongation_deg,
        moon_longitude=lunation.moon_longitude_deg,
        sign=sign,
        sign_degree=degree,
    )
    within = eclipse_within(lunation.jd, eclipses)
    if within is not None:
        record.eclipse.CopyFrom(pb.LunationEclipse(kind=within[0], eclipse_type=within[1]))
    return record


def eclipse_within(jd: float, eclipses: list[tuple[str, Eclipse]]) -> tuple[str, str] | None:
    """Return the (kind, type) of the last eclipse of ``eclipses`` whose greatest eclipse lies
    within ECLIPSE_WINDOW_DAYS of ``jd`` (a lunation's), or None."""
    within = None
    for kind, eclipse in eclipses:
        if abs(eclipse.maximum - jd) <= ECLIPSE_WINDOW_DAYS:
            within = (kind, eclipse.eclipse_type)
    return within
