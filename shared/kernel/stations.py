"""Stations and retrograde periods: where a body's apparent geocentric longitude stops and turns
(its speed in longitude changing sign), and the retrograde loops with their shadows.

A station is a turning point of the longitude, found on the body's search grid like the
turning points :func:`~shared.kernel.search.find_roots` cuts its steps at (the body table's
``step_days`` keeps two stations out of one step), then bisected on the speed to 1 ms. A retrograde
period's shadow runs from the body's first arrival at the station-direct longitude before it
turns retrograde to its return to the station-retrograde longitude after it turns direct.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shared.kernel import bodies as body_table
from shared.kernel.crossings import GEOCENTRIC, crossings, longitude_and_speed
from shared.kernel.deadline import Deadline
from shared.kernel.errors import OutOfRange
from shared.kernel.search import TIME_TOLERANCE_DAYS, bisect_sign_change
from shared.kernel.timescale import JD_UT1_MAX, JD_UT1_MIN

#: The longest span of a range, in calendar years (issue 29).
RANGE_CAP_YEARS = 10
STATION_RETROGRADE, STATION_DIRECT = "station_retrograde", "station_direct"
# Stations are searched this far beyond each end of the range, so that a retrograde period
# whose shadow reaches into the range is found whole: a shadow (pre-shadow, loop, post-shadow)
# lasts at most about 14 months among the eligible bodies (measured over 2024-2034: Pholus 422
# days, Pluto 394, Chiron 385, Neptune 383; Mercury's 57).
SHADOW_MARGIN_DAYS = 600.0


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


def find_stations(body: str, start_jd: float, end_jd: float, deadline: Deadline) -> list[Station]:
    """Return the stations of ``body`` in [start_jd, end_jd) (UT1 Julian Days), in time order,
    each bisected to 1 ms (TIME_TOLERANCE_DAYS) of the zero of its longitude speed, so a
    station is the same instant whatever range finds it.

    >>> from shared.kernel.timescale import Moment
    >>> start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    >>> [(s.event, Moment.from_jd_ut1(s.jd).iso_utc()[:16]) for s in find_stations("mercury", start, start + 60, Deadline.never())]
    [('station_retrograde', '2024-04-01T22:14'), ('station_direct', '2024-04-25T12:54')]
    """
    position = longitude_and_speed(body, GEOCENTRIC)
    speed = lambda jd: position(jd)[1]  # noqa: E731 - the rate bisected
    step = body_table.step_days(body)
    found: list[Station] = []
    t0, r0 = start_jd, speed(start_jd)
    while t0 < end_jd:
        deadline.check()
        t1 = min(t0 + step, end_jd)
        r1 = speed(t1)
        if (r0 < 0.0) != (r1 < 0.0):
            jd = bisect_sign_change(speed, t0, t1, r0, TIME_TOLERANCE_DAYS)
            event = STATION_RETROGRADE if r0 >= 0.0 else STATION_DIRECT
            found.append(Station(body, event, jd, position(jd)[0]))
        t0, r0 = t1, r1
    return found


def retrograde_periods(body: str, start_jd: float, end_jd: float, deadline: Deadline) -> list[RetrogradePeriod]:
    """Return the retrograde periods of ``body`` whose shadow overlaps [start_jd, end_jd] (UT1
    Julian Days), whole (found beyond the range where it cuts them), in time order.

    The shadow's ends are the crossings of the station longitudes nearest the loop (refined to
    1 ms): the last arrival at the station-direct longitude before the retrograde station, the
    first return to the station-retrograde longitude after the direct one. A period whose
    stations or shadow lie outside the body's ephemeris is left out.
    """
    first, last = body_table.body(body).span_jd_ut1
    low, high = max(start_jd - SHADOW_MARGIN_DAYS, first, JD_UT1_MIN), min(end_jd + SHADOW_MARGIN_DAYS, last, JD_UT1_MAX)
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
    return [
        (a, b) for a, b in zip(ordered, ordered[1:])
        if a.event == STATION_RETROGRADE and b.event == STATION_DIRECT
    ]
