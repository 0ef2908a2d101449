"""Stations and retrograde periods: where a body's apparent geocentric longitude stops and turns
(its speed in longitude changing sign), and the retrograde loops with their shadows.

A station is a turning point of the longitude, found on one grid per body (the body table's
``step_days`` from the first day of its ephemeris, which keeps two stations out of one cell),
then bisected on the speed to 1 ms within its cell, so the same whatever range asks. A retrograde
period's shadow runs from the body's first arrival at the station-direct longitude before it
turns retrograde to its return to the station-retrograde longitude after it turns direct.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from kernel import bodies as body_table
from kernel import engine
from kernel.crossings import GEOCENTRIC, crossings, longitude_and_speed
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.positions import ecliptic_longitude_flags
from kernel.sampled_positions import NOTHING_SAMPLED, SampledPositions
from kernel.search import TIME_TOLERANCE_DAYS, bisect_sign_change
from kernel.timescale import JD_UT1_MAX, JD_UT1_MIN

#: The longest span of a range, in calendar years (issue 29).
RANGE_CAP_YEARS = 10
STATION_RETROGRADE, STATION_DIRECT = "station_retrograde", "station_direct"
# Stations are searched this far beyond each end of the range, so that a retrograde period
# whose shadow reaches into the range is found whole: a shadow (pre-shadow, loop, post-shadow)
# lasts at most about 14 months among the eligible bodies (measured over 2024-2034: Pholus 422
# days, Pluto 394, Chiron 385, Neptune 383; Mercury's 57).
SHADOW_MARGIN_DAYS = 600.0
# Dates read between two looks at the deadline: a few milliseconds of engine calls.
_DATES_PER_CHECK = 60


@dataclass(frozen=True)
class Station:
    """``body`` stands still at ``jd`` (UT1) at ``longitude_deg`` (apparent geocentric ecliptic
    longitude of date), turning retrograde (``event`` STATION_RETROGRADE) or direct."""

    body: str
    event: str
    jd: float
    longitude_deg: float


@dataclass(frozen=True)
class RetrogradePeriod:
    """One retrograde loop of ``body`` with its shadow (UT1 Julian Days): the body first reaches
    ``longitude_end_deg`` (the station-direct longitude) at ``pre_shadow_start_jd``, turns at
    ``station_retrograde`` (at ``longitude_start_deg``) and at ``station_direct``, and is back on
    ``longitude_start_deg`` at ``post_shadow_end_jd``."""

    body: str
    pre_shadow_start_jd: float
    station_retrograde: Station
    station_direct: Station
    post_shadow_end_jd: float

    @property
    def longitude_start_deg(self) -> float:
        return self.station_retrograde.longitude_deg

    @property
    def longitude_end_deg(self) -> float:
        return self.station_direct.longitude_deg


def find_stations(
    body: str, start_jd: float, end_jd: float, deadline: Deadline, *, sampled: SampledPositions = NOTHING_SAMPLED
) -> list[Station]:
    """Return the stations of ``body`` in [start_jd, end_jd) (UT1 Julian Days), in time order,
    each bisected to 1 ms (TIME_TOLERANCE_DAYS) of the zero of its longitude speed; the speeds
    at its cells' ends read from ``sampled`` where it holds them (:func:`station_grid_samples`).

    A station is the same instant, to the last bit, whatever range finds it: it is bisected in
    a bracket of its own, a cell of one grid per body (its step from the start of its
    ephemeris, :func:`station_cells`), never in a bracket cut by the range's ends. Near a
    station the speed is smaller than the engine's noise in it for some milliseconds (its
    sign flickers there), so brackets that differ settle on different flickers: up to 14 ms
    apart for Mercury's station of 2026-03-20 when each range sampled its own grid.

    >>> from kernel.timescale import Moment
    >>> start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    >>> found = find_stations("mercury", start, start + 60, Deadline.never())
    >>> [(s.event, Moment.from_jd_ut1(s.jd).iso_utc('minute')) for s in found]
    [('station_retrograde', '2024-04-01T22:14Z'), ('station_direct', '2024-04-25T12:54Z')]
    """
    position = longitude_and_speed(body, GEOCENTRIC, sampled)
    speed = lambda jd: position(jd)[1]  # noqa: E731 - the rate bisected
    found: list[Station] = []
    cells = station_cells(body, start_jd, end_jd)
    t0 = next(cells)
    r0 = speed(t0)
    for t1 in cells:
        deadline.check()
        r1 = speed(t1)
        if (r0 < 0.0) != (r1 < 0.0):
            jd = bisect_sign_change(speed, t0, t1, r0, TIME_TOLERANCE_DAYS)
            if start_jd <= jd < end_jd:
                event = STATION_RETROGRADE if r0 >= 0.0 else STATION_DIRECT
                found.append(Station(body, event, jd, position(jd)[0]))
        t0, r0 = t1, r1
    return found


def station_cells(body: str, start_jd: float, end_jd: float) -> Iterator[float]:
    """Yield the ends of the cells of ``body``'s station grid that cover [start_jd, end_jd]
    (UT1 Julian Days), in order: ``first + k * step`` for the body's search step (the body
    table's ``step_days``, which keeps two stations out of one cell) from the first day of its
    ephemeris ``first``, the last cell cut at the last day. The same cell, to the last bit, for
    every range that holds a point of it."""
    first, last = body_table.body(body).span_jd_ut1
    step = body_table.step_days(body)
    k = max(0, math.floor((start_jd - first) / step))
    while k > 0 and first + k * step > start_jd:  # floor's rounding, either way
        k -= 1
    while True:
        edge = first + k * step
        if edge >= last:
            yield last
            return
        yield edge
        if edge >= end_jd:
            return
        k += 1


def station_grid_samples(bodies: Sequence[str], start_jd: float, end_jd: float, deadline: Deadline) -> SampledPositions:
    """Return each of ``bodies`` at the ends of its station cells over [start_jd, end_jd] (UT1
    Julian Days; :func:`station_cells`), read date by date: the planets' grids all run from the
    first day of their ephemeris in steps that divide one another (Mercury's 2 days, Mars' 4,
    Jupiter's and Saturn's 8, 10 beyond), so most dates are several bodies', and a body after
    the first at a date costs the engine a third as much. The engine's own values, so
    :func:`find_stations` reading them finds the very stations it finds alone."""
    bodies_at: dict[float, list[str]] = {}
    for body in bodies:
        for edge in station_cells(body, start_jd, end_jd):
            bodies_at.setdefault(edge, []).append(body)
    flags = ecliptic_longitude_flags(GEOCENTRIC)
    kept: dict[str, dict[float, tuple[float, float]]] = {body: {} for body in bodies}
    for count, (jd, names) in enumerate(sorted(bodies_at.items())):
        if count % _DATES_PER_CHECK == 0:
            deadline.check()
        numbers = [body_table.engine_number(name) for name in names]
        (row,) = engine.longitudes_and_speeds_by_date(numbers, flags, [jd])
        for name, value in zip(names, row):
            kept[name][jd] = value
    return SampledPositions(flags, kept)


def retrograde_periods(body: str, start_jd: float, end_jd: float, deadline: Deadline) -> list[RetrogradePeriod]:
    """Return the retrograde periods of ``body`` whose shadow overlaps [start_jd, end_jd] (UT1
    Julian Days), whole (found beyond the range where it cuts them), in time order.

    The shadow's ends are the crossings of the station longitudes nearest the loop (refined to
    1 ms): the last arrival at the station-direct longitude before the retrograde station, the
    first return to the station-retrograde longitude after the direct one. A period whose
    stations or shadow lie outside the body's ephemeris is left out.
    """
    first, last = body_table.body(body).span_jd_ut1
    low, high = (
        max(start_jd - SHADOW_MARGIN_DAYS, first, JD_UT1_MIN),
        min(end_jd + SHADOW_MARGIN_DAYS, last, JD_UT1_MAX),
    )
    stations = find_stations(body, low, high, deadline)
    periods = []
    for retro, direct in _loops(stations):
        try:
            (pre,) = crossings(body, direct.longitude_deg, retro.jd, 1, deadline, backward=True)
            (post,) = crossings(body, retro.longitude_deg, direct.jd, 1, deadline)
        except OutOfRange:
            continue  # the shadow runs past the body's ephemeris
        period = RetrogradePeriod(body, pre.jd, retro, direct, post.jd)
        if period.pre_shadow_start_jd <= end_jd and period.post_shadow_end_jd >= start_jd:
            periods.append(period)
    return periods


def _loops(stations: Iterable[Station]) -> list[tuple[Station, Station]]:
    """Return each retrograde station paired with the direct station that follows it."""
    ordered = list(stations)
    return [(a, b) for a, b in zip(ordered, ordered[1:]) if a.event == STATION_RETROGRADE and b.event == STATION_DIRECT]
