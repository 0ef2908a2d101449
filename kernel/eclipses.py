"""Solar and lunar eclipses, searched forward or backward with Swiss Ephemeris's own eclipse
searchers: globally, or as seen from a place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from kernel import engine
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import Observer
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN, SUPPORTED_SPAN_TEXT

SOLAR_TYPES: dict[str, int] = {
    "total": engine.ECL_TOTAL,
    "annular": engine.ECL_ANNULAR,
    "partial": engine.ECL_PARTIAL,
    "annular_total": engine.ECL_ANNULAR_TOTAL,
}
LUNAR_TYPES: dict[str, int] = {
    "total": engine.ECL_TOTAL,
    "partial": engine.ECL_PARTIAL,
    "penumbral": engine.ECL_PENUMBRAL,
}
SOLAR, LUNAR = "solar", "lunar"
# The hybrid bit first: a hybrid eclipse also reports the total or annular bit.
_SOLAR_ORDER = ("annular_total", "total", "annular", "partial")
_LUNAR_ORDER = ("total", "partial", "penumbral")
# Consecutive eclipses of one kind lie at least this far apart (about a lunar month); the next
# search starts this far past the last maximum so it cannot find that eclipse again.
_PAST_ECLIPSE_DAYS = 5.0


def _mask(table: dict[str, int], types: Sequence[str]) -> int:
    """Return the engine's search mask for the eclipse ``types`` named in ``table``: their flags
    or'ed, so a type named twice is searched once (summed, two ``total`` flags would make
    another type's bit)."""
    mask = 0
    for name in types:
        mask |= table[name]
    return mask


def _type_of(flags: int, table: dict[str, int], order: Sequence[str]) -> str:
    return next(name for name in order if flags & table[name])


def _time(value: float) -> float | None:
    return value if value > 0.0 else None


@dataclass(frozen=True)
class SolarEclipse:
    """A solar eclipse: its type, maximum and contacts (UT1 JD; second and third None without a
    central phase) and, seen from a place, magnitude and obscuration (fractions)."""

    eclipse_type: str
    maximum: float
    first_contact: float | None
    second_contact: float | None
    third_contact: float | None
    fourth_contact: float | None
    magnitude: float | None = None
    obscuration: float | None = None

    def instants(self) -> tuple[float, ...]:
        """Return the eclipse's instants (UT1 JD) that it has."""
        times = (self.maximum, self.first_contact, self.second_contact, self.third_contact, self.fourth_contact)
        return tuple(t for t in times if t is not None)


@dataclass(frozen=True)
class LunarEclipse:
    """A lunar eclipse: its type, maximum and the begin and end of each phase (UT1 JD; None
    for a phase it lacks) and, from a place, whether any of it is seen there."""

    eclipse_type: str
    maximum: float
    penumbral_begin: float | None
    penumbral_end: float | None
    partial_begin: float | None
    partial_end: float | None
    total_begin: float | None
    total_end: float | None
    visible: bool | None = None

    def instants(self) -> tuple[float, ...]:
        """Return the eclipse's instants (UT1 JD) that it has."""
        times = (
            self.maximum,
            self.penumbral_begin,
            self.penumbral_end,
            self.partial_begin,
            self.partial_end,
            self.total_begin,
            self.total_end,
        )
        return tuple(t for t in times if t is not None)


Eclipse = TypeVar("Eclipse", "SolarEclipse", "LunarEclipse")


def _within_supported_dates(search: Callable[[], Eclipse], found: list, count: int, kind: str) -> Eclipse:
    """Return the eclipse ``search`` finds when all its instants lie within the supported dates;
    else (or when the engine runs out of ephemeris looking for it) raise OutOfRange saying how
    many of the ``count`` asked for lie inside."""
    try:
        eclipse = search()
    except engine.EngineError as exc:
        if not engine.is_no_data_error(exc):
            raise engine.engine_error(exc, f"the search for {kind}", None) from None
        eclipse = None
    if eclipse is None or not all(JD_UT1_MIN <= t <= JD_UT1_MAX for t in eclipse.instants()):
        raise OutOfRange(
            f"Only {len(found)} of the {count} {kind} asked for lie within the supported dates "
            f"({SUPPORTED_SPAN_TEXT}; Julian Day UT1 {JD_UT1_MIN} to {JD_UT1_MAX}).",
            suggestion=f"Ask for {len(found) or 'fewer'}{' or fewer' if found else ''}, or search from another date.",
        )
    return eclipse


def solar_eclipses(
    jd_ut1: float,
    types: Sequence[str],
    count: int,
    deadline: Deadline,
    *,
    backward: bool = False,
    place: Observer | None = None,
) -> list[SolarEclipse]:
    """Return the next ``count`` solar eclipses of ``types`` after ``jd_ut1`` (before it,
    latest first, with ``backward``): global contacts, or with ``place`` the local ones with
    magnitude and obscuration (eclipses not seen there are skipped). OutOfRange when fewer
    than ``count`` lie within the supported dates."""
    mask = _mask(SOLAR_TYPES, types)
    found: list[SolarEclipse] = []
    start = jd_ut1

    def search() -> SolarEclipse:
        if place is None:
            flags, times = engine.solar_eclipse_global(start, mask, backward)
            return SolarEclipse(
                _type_of(flags, SOLAR_TYPES, _SOLAR_ORDER),
                times[0],
                _time(times[2]),
                _time(times[4]),
                _time(times[5]),
                _time(times[3]),
            )
        flags, times, attributes = engine.solar_eclipse_local(
            start, place.longitude_deg, place.latitude_deg, place.altitude_m, backward
        )
        return SolarEclipse(
            _type_of(flags, SOLAR_TYPES, _SOLAR_ORDER),
            times[0],
            _time(times[1]),
            _time(times[2]),
            _time(times[3]),
            _time(times[4]),
            # Swiss Ephemeris gives a total eclipse's obscuration as the discs' area ratio
            # (above 1); the Sun is then wholly covered.
            magnitude=attributes[0],
            obscuration=min(attributes[2], 1.0),
        )

    while len(found) < count:
        deadline.check()
        eclipse = _within_supported_dates(search, found, count, "solar eclipses")
        if eclipse.eclipse_type in types:
            found.append(eclipse)
        start = eclipse.maximum + (-_PAST_ECLIPSE_DAYS if backward else _PAST_ECLIPSE_DAYS)
    return found


def lunar_eclipses(
    jd_ut1: float,
    types: Sequence[str],
    count: int,
    deadline: Deadline,
    *,
    backward: bool = False,
    place: Observer | None = None,
) -> list[LunarEclipse]:
    """Return the next ``count`` lunar eclipses of ``types`` after ``jd_ut1`` (before it,
    latest first, with ``backward``), each with ``visible`` from ``place`` when given: some
    part of it happens with the Moon above that place's horizon. OutOfRange when fewer than
    ``count`` lie within the supported dates."""
    mask = _mask(LUNAR_TYPES, types)
    found: list[LunarEclipse] = []
    start = jd_ut1

    def search() -> LunarEclipse:
        flags, times = engine.lunar_eclipse_global(start, mask, backward)
        visible = None
        if place is not None:
            local_flags, local_times = engine.lunar_eclipse_local(
                times[6] - 1.0, place.longitude_deg, place.latitude_deg, place.altitude_m, False
            )
            # The place sees this eclipse when the next eclipse visible there is this one.
            visible = bool(local_flags & engine.ECL_VISIBLE) and abs(local_times[6] - times[6]) < 0.5
        return LunarEclipse(
            _type_of(flags, LUNAR_TYPES, _LUNAR_ORDER),
            times[0],
            _time(times[6]),
            _time(times[7]),
            _time(times[2]),
            _time(times[3]),
            _time(times[4]),
            _time(times[5]),
            visible,
        )

    while len(found) < count:
        deadline.check()
        eclipse = _within_supported_dates(search, found, count, "lunar eclipses")
        found.append(eclipse)
        start = eclipse.maximum + (-_PAST_ECLIPSE_DAYS if backward else _PAST_ECLIPSE_DAYS)
    return found


def eclipses_between(kind: str, start_jd: float, end_jd: float, deadline: Deadline) -> list[Eclipse]:
    """Return the global eclipses of ``kind`` (``solar`` or ``lunar``), of every type, whose
    greatest eclipse falls in [start_jd, end_jd] (UT1 Julian Days), in time order; those past
    the supported dates are left out."""
    search, types = (solar_eclipses, SOLAR_TYPES) if kind == SOLAR else (lunar_eclipses, LUNAR_TYPES)
    found: list[Eclipse] = []
    jd = start_jd
    while True:
        try:
            (eclipse,) = search(jd, list(types), 1, deadline)
        except OutOfRange:
            return found
        if eclipse.maximum > end_jd:
            return found
        if eclipse.maximum >= start_jd:
            found.append(eclipse)
        jd = eclipse.maximum + _PAST_ECLIPSE_DAYS
