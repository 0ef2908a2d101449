"""Reader of /v1/explain-difference: the birth as it was entered, read into the kernel's
reading (the instant, the UTC offset the clock time was read with and its daylight-saving
part, the place and the conventions sent), and the other program's numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from google.protobuf.message import Message

from celestial.v1 import search_service_pb2
from kernel import engine, vimshottari
from kernel.civil_time import daylight_saving_s
from kernel.difference_causes import Reading
from kernel.explain_difference import Theirs
from kernel.timescale import Moment, written_offset_s
from shared.errors import InvalidParameter
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming
from shared.runtime.wire import ayanamsha_from, birth_from, house_system_from, read_moment

# The mahadasha lords and the dasha years another program's numbers are read with are the
# kernel's: the request's choices are bound to them.
bound_to_choices(vimshottari.LORDS, "kernel.vimshottari.LORDS", (search_service_pb2.TheirDasha, "lord"))
bound_to_choices(
    vimshottari.YEAR_LENGTHS,
    "kernel.vimshottari.YEAR_LENGTHS",
    (search_service_pb2.ExplainDifferenceRequest, "year_length"),
)

#: A dasha start printed as a date alone (as JHora prints them): its day, not an instant.
_DATE_ALONE = re.compile(r"[+-]?\d{4,6}-\d{2}-\d{2}")

#: The number of house cusps a program gives (house 1 to 12).
CUSP_COUNT = 12


#: The births whose misreadings are tried: civil dates a day either side of which is still a
#: date (Python's calendar runs from the year 1 to 9999), so the date and time causes apply.
FIRST_YEAR, LAST_YEAR = 2, 9998


@dataclass(frozen=True)
class ExplainDifferenceInput:
    """An explain-difference request read once: the ``reading`` as sent, the hour its clock
    time showed (``local_hour``, 0-23) and ``theirs``."""

    reading: Reading
    local_hour: int
    theirs: Theirs


def explain_difference_input(request: Message) -> ExplainDifferenceInput:
    """Return the reading, clock hour and numbers of an explain-difference request. Refuses
    (InvalidParameter naming theirs or theirs.cusps) a ``theirs`` without any number and cusps
    other than exactly twelve."""
    moment, place = birth_from(request)
    _, local = read_moment(request, "birth.moment")
    utc = moment.utc_written or _utc(moment.jd_ut1)
    _held_to_the_calendar(utc.year, _moment_param(request))
    if local is not None:
        offset_s = local.utc_offset_s
        dst_s = daylight_saving_s(local.utc, local.zone)
    else:
        text = request.birth.moment.datetime if request.birth.moment.WhichOneof("value") == "datetime" else ""
        offset_s, dst_s = written_offset_s(text), 0
    theirs = _theirs(request.theirs, offset_s)
    sidereal = ayanamsha_from(request).name if request.HasField("sidereal") else None
    reading = Reading(
        utc,
        offset_s,
        dst_s,
        place.latitude_deg,
        place.longitude_deg,
        place.altitude_m,
        house_system_from(request).name,
        sidereal,
        topocentric=request.topocentric,
        year_length=request.year_length,
    )
    return ExplainDifferenceInput(reading, (utc + timedelta(seconds=offset_s)).hour, theirs)


def _moment_param(request: Message) -> str:
    return "datetime" if request.birth.moment.WhichOneof("value") == "datetime" else "jd"


def _held_to_the_calendar(year: int, param: str) -> None:
    """Refuse (InvalidParameter naming ``param``) a birth's ``year`` outside FIRST_YEAR to LAST_YEAR."""
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise InvalidParameter(
            f"The birth falls in the year {year}; another program's misreadings are explained for births "
            f"from the year {FIRST_YEAR} to {LAST_YEAR}, whose clock time and date can be misread.",
            suggestion=f"Send a birth between the years {FIRST_YEAR} and {LAST_YEAR}.",
            param=param,
        )


def _utc(jd_ut1: float) -> datetime:
    """Return the UTC instant of a Julian Day (a jd sent), to the millisecond: a Julian Day
    carries no finer time (a double's last bit at 2.4e6 days is 40 µs). Refuses a year outside
    FIRST_YEAR to LAST_YEAR (InvalidParameter naming jd)."""
    year, month, day, hour, minute, second = engine.jd_ut1_to_utc(jd_ut1)
    _held_to_the_calendar(year, "jd")
    start = datetime(year, month, day, hour, minute, tzinfo=UTC)
    return start + timedelta(milliseconds=round(second * 1000))


def _theirs(numbers: Message, offset_s: int) -> Theirs:
    positions = {field.name: value for field, value in numbers.positions.ListFields()}
    cusps = tuple(numbers.cusps)
    if cusps and len(cusps) != CUSP_COUNT:
        raise InvalidParameter(
            f"theirs.cusps holds {len(cusps)} longitudes; a chart has {CUSP_COUNT} house cusps.",
            suggestion="Send all twelve cusps, house 1 first, or leave cusps out.",
            param="theirs.cusps",
        )
    asc = numbers.asc if numbers.HasField("asc") else None
    mc = numbers.mc if numbers.HasField("mc") else None
    nakshatras = {field.name: value for field, value in numbers.nakshatras.ListFields()}
    houses = {field.name: value for field, value in numbers.houses.ListFields()}
    dashas = tuple(_dasha(index, dasha, offset_s) for index, dasha in enumerate(numbers.dashas))
    if not positions and not cusps and asc is None and mc is None and not nakshatras and not dashas and not houses:
        raise InvalidParameter(
            "theirs holds no number to explain.",
            suggestion='Send the other program\'s numbers: "theirs": {"positions": {"sun": 112.5}, "asc": 201.25}.',
            param="theirs",
        )
    return Theirs(positions, cusps or None, asc, mc, nakshatras, dashas, houses)


def _dasha(index: int, dasha: Message, offset_s: int) -> tuple[str, float, float]:
    """Return a given mahadasha as (lord, start as a UT1 Julian Day, span in days): a date
    alone is its whole day on the birth's clock (UTC offset ``offset_s``, seconds east), from
    its midnight, span 1; an unreadable start is invalid_datetime naming theirs.dashas[index].start."""
    with naming(f"theirs.dashas[{index}].start"):
        start = Moment.from_iso(dasha.start)
    if _DATE_ALONE.fullmatch(dasha.start):
        return dasha.lord, start.jd_ut1 - offset_s / 86400.0, 1.0
    return dasha.lord, start.jd_ut1, 0.0
