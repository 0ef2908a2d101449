"""Solar and lunar eclipses, searched forward or backward with Swiss Ephemeris's own eclipse
searchers: globally, or as seen from a place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.kernel import engine
from shared.kernel.deadline import Deadline
from shared.kernel.positions import Observer

SOLAR_TYPES: dict[str, int] = {
    "total": engine.ECL_TOTAL, "annular": engine.ECL_ANNULAR, "partial": engine.ECL_PARTIAL, "annular_total": engine.ECL_ANNULAR_TOTAL,
}
LUNAR_TYPES: dict[str, int] = {"total": engine.ECL_TOTAL, "partial": engine.ECL_PARTIAL, "penumbral": engine.ECL_PENUMBRAL}
# The hybrid bit first: a hybrid eclipse also reports the total or annular bit.
_SOLAR_ORDER = ("annular_total", "total", "annular", "partial")
_LUNAR_ORDER = ("total", "partial", "penumbral")
# Consecutive eclipses of one kind lie at least this far apart (about a lunar month); the next
# search starts this far past the last maximum so it cannot find that eclipse again.
_PAST_ECLIPSE_DAYS = 5.0


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


def solar_eclipses(jd_ut1: float, types: Sequence[str], count: int, deadline: Deadline, *, backward: bool = False, place: Observer | None = None) -> list[SolarEclipse]:
    """Return the next ``count`` solar eclipses of ``types`` after ``jd_ut1`` (before it,
    latest first, with ``backward``): global contacts, or with ``place`` the local ones with
    magnitude and obscuration (eclipses not seen there are skipped)."""
    mask = sum(SOLAR_TYPES[t] for t in types)
    found: list[SolarEclipse] = []
    start = jd_ut1
    while len(found) < count:
        deadline.check()
        if place is None:
            flags, times = engine.solar_eclipse_global(start, mask, backward)
            eclipse = SolarEclipse(_type_of(flags, SOLAR_TYPES, _SOLAR_ORDER), times[0], _time(times[2]), _time(times[4]), _time(times[5]), _time(times[3]))
        else:
            flags, times, attributes = engine.solar_eclipse_local(start, place.longitude_deg, place.latitude_deg, place.altitude_m, backward)
            eclipse = SolarEclipse(
                _type_of(flags, SOLAR_TYPES, _SOLAR_ORDER), times[0], _time(times[1]), _time(times[2]), _time(times[3]), _time(times[4]),
                # Swiss Ephemeris gives a total eclipse's obscuration as the discs' area ratio
                # (above 1); the Sun is then wholly covered.
                magnitude=attributes[0], obscuration=min(attributes[2], 1.0),
            )
        if eclipse.eclipse_type in types:
            found.append(eclipse)
        start = eclipse.maximum + (-_PAST_ECLIPSE_DAYS if backward else _PAST_ECLIPSE_DAYS)
    return found


def lunar_eclipses(jd_ut1: float, types: Sequence[str], count: int, deadline: Deadline, *, backward: bool = False, place: Observer | None = None) -> list[LunarEclipse]:
    """Return the next ``count`` lunar eclipses of ``types`` after ``jd_ut1`` (before it,
    latest first, with ``backward``), each with ``visible`` from ``place`` when given: some
    part of it happens with the Moon above that place's horizon."""
    mask = sum(LUNAR_TYPES[t] for t in types)
    found: list[LunarEclipse] = []
    start = jd_ut1
    while len(found) < count:
        deadline.check()
        flags, times = engine.lunar_eclipse_global(start, mask, backward)
        visible = None
        if place is not None:
            local_flags, local_times = engine.lunar_eclipse_local(times[6] - 1.0, place.longitude_deg, place.latitude_deg, place.altitude_m, False)
            # The place sees this eclipse when the next eclipse visible there is this one.
            visible = bool(local_flags & engine.ECL_VISIBLE) and abs(local_times[6] - times[6]) < 0.5
        found.append(LunarEclipse(
            _type_of(flags, LUNAR_TYPES, _LUNAR_ORDER), times[0], _time(times[6]), _time(times[7]),
            _time(times[2]), _time(times[3]), _time(times[4]), _time(times[5]), visible,
        ))
        start = times[0] + (-_PAST_ECLIPSE_DAYS if backward else _PAST_ECLIPSE_DAYS)
    return found
