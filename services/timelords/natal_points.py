"""The natal chart the time-lords read, taken once from a request: the birth, the signs of
its points (angles, bodies, lots), its sect, and the query (one instant or a range)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from shared.errors import InvalidParameter
from shared.kernel.ayanamshas import Ayanamsha
from shared.kernel.houses import HouseSystem, compute_houses
from shared.kernel.lots import LOTS, compute_lots, is_day_chart, parse_lots
from shared.kernel.positions import CalcFlags, compute_positions
from shared.kernel.time_lord_periods import Period, TimeQuery
from shared.kernel.timescale import Moment
from shared.kernel.zodiac import sign_index
from shared.runtime.wire import bodies_from, flags_from, instant_at, moment_from, required_place

ANGLES = ("ascendant", "midheaven")
SUN, MOON = "sun", "moon"
# Houses are cast only for the Ascendant and the Midheaven, which are the same in every
# quadrant system; signs are counted whole.
_HOUSES = HouseSystem("placidus", "P")


@dataclass(frozen=True)
class NatalPoints:
    """A birth: its moment, its zodiac (None: tropical), the longitude (degrees) of each of its
    points by name (the angles, the bodies computed, and every lot whose bodies are there)."""

    birth: Moment
    ayanamsha: Ayanamsha | None
    longitudes: dict[str, float]
    warnings: list[str]

    @property
    def is_day(self) -> bool | None:
        """The chart's sect (the Sun on or above the horizon), None without the Sun."""
        return is_day_chart(self.longitudes[SUN], self.longitudes["ascendant"]) if SUN in self.longitudes else None

    def sign_of(self, name: str, *, param: str = "from") -> int:
        """Return the sign (0 Aries .. 11 Pisces) of the point ``name`` (an angle, a body among
        the request's bodies, or a lot id); a point the chart lacks is InvalidParameter."""
        key = name.strip().lower()
        if key in self.longitudes:
            return sign_index(self.longitudes[key])
        lot_ids = {lot.id for lot in LOTS}
        if key in lot_ids:
            reason = f"{key} needs the Sun and the Moon (and its other bodies) among bodies"
        else:
            reason = f"{name!r} is not the ascendant, the midheaven, a Hermetic lot or a body among bodies"
        raise InvalidParameter(
            f"Cannot start from {name!r}: {reason}.",
            suggestion="Send ascendant, midheaven, a lot such as part_of_fortune, or a body listed in bodies.",
            param=param,
        )


def natal_points(request: Message) -> NatalPoints:
    """Return the natal points of a time-lord request (natal datetime or jd, lat, lon, bodies, sidereal)."""
    birth = moment_from(request, "timeline.moment")
    flags = flags_from(request)
    calc = CalcFlags(sidereal=flags.sidereal)
    result = compute_positions(birth, list(bodies_from(request, calc)), calc)
    location = required_place(request, "timeline.location")
    houses = compute_houses(birth, location.latitude_deg, location.longitude_deg, _HOUSES, sidereal=flags.sidereal)
    longitudes = {r.body: r.longitude for r in result.records}
    longitudes["ascendant"], longitudes["midheaven"] = houses.ascendant_deg, houses.midheaven_deg
    if SUN in longitudes and MOON in longitudes:
        day = is_day_chart(longitudes[SUN], houses.ascendant_deg)
        available = tuple(
            lot.id for lot in LOTS
            if all(operand in longitudes or operand.startswith("part_of_") for operand in (lot.day_a, lot.day_b))
        )
        for lot in compute_lots(parse_lots(list(available)) if available else (), longitudes, houses.ascendant_deg, day):
            longitudes[lot.id] = lot.longitude
    return NatalPoints(birth, flags.sidereal, longitudes, [c.message for c in result.conditions])


@lru_cache(maxsize=8192)
def instant_of(jd_ut1: float) -> common_pb2.Instant:
    """Return the wire Instant of a UT1 Julian Day (remembered: adjacent periods share their
    boundaries, and a year's first month starts with it; callers copy it, never change it)."""
    return instant_at(jd_ut1)


def fill_period(record: Message, period: Period) -> Message:
    """Fill a period record's shared members (level, start, end, the clamps) and the technique's own."""
    record.level = period.level
    record.start.CopyFrom(instant_of(period.start_jd))
    record.end.CopyFrom(instant_of(period.end_jd))
    record.clamped_start, record.clamped_end = period.clamped_start, period.clamped_end
    for name, value in period.members.items():
        setattr(record, name, value)
    return record


def fill_query(data: Message, query: TimeQuery) -> None:
    """Fill a container's ``at`` (instant query) or ``start`` and ``end`` (range query)."""
    if query.at_jd is not None:
        data.at.CopyFrom(instant_of(query.at_jd))
    else:
        data.start.CopyFrom(instant_of(query.start_jd))
        data.end.CopyFrom(instant_of(query.end_jd))
