"""Profections: each year of life the starting sign advances one sign, each month one more
(interface.md, GET/POST /v1/profections); whole-sign counting whatever the house system."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kernel.ayanamshas import Ayanamsha
from kernel.crossings import crossings, first_crossings
from kernel.deadline import Deadline
from kernel.dignity_tables import TRADITIONAL_RULERS
from kernel.positions import CalcFlags
from kernel.time_lord_periods import Period, TimeQuery, overlaps
from kernel.zodiac import SIGN_KEYS

MONTHS = 12
# Source: interface.md, Limits: the longest range, calendar years.
RANGE_CAP_YEARS = 120


def profected(from_sign: int, age: int, month: int | None = None) -> dict:
    """Return the members of the year at ``age`` (or of its ``month``, 1-12): the profected
    ``house`` (1-12 from the starting sign), its ``sign`` and its traditional ``lord``."""
    steps = age + (0 if month is None else month - 1)
    sign = (from_sign + steps) % 12
    members = {"age": age, "house": steps % 12 + 1, "sign": SIGN_KEYS[sign], "lord": TRADITIONAL_RULERS[sign]}
    if month is not None:
        members["month"] = month
    return members


def mean_boundaries(birth_jd: float, year_days: float) -> Callable[[int, int], float]:
    """Return the start (UT1 JD) of month ``m`` (1-12, or 13 for the year's end) of the year at
    ``age``: a year is ``year_days`` days from birth, a month an equal twelfth of it."""
    return lambda age, month: birth_jd + (age + (month - 1) / MONTHS) * year_days


# A solar year runs 365.24 days; a return searched from this long after the last one cannot
# find that one again, nor miss the next.
_AFTER_RETURN_DAYS = 300.0


def solar_boundaries(
    birth_jd: float, sun_longitude_deg: float, ayanamsha: Ayanamsha | None, deadline: Deadline
) -> Callable[[int, int], float]:
    """Return the start (UT1 JD) of month ``m`` (1-12, 13 the year's end) of the year at
    ``age``: each year begins at the Sun's return to its natal longitude (birth for age 0),
    each month when the Sun reaches 30°, 60°, ... past it, in the chart's zodiac. Found by the
    search of /v1/returns (to 1 ms), so a year begins at the instant of the solar return."""
    returns = {0: birth_jd}
    frame = CalcFlags(sidereal=ayanamsha)

    def next_crossing(longitude_deg: float, after_jd: float) -> float:
        (found,) = crossings("sun", longitude_deg, after_jd, 1, deadline, flags=frame)
        return found.jd

    def year_start(age: int) -> float:
        for n in range(len(returns), age + 1):
            returns[n] = next_crossing(sun_longitude_deg, returns[n - 1] + _AFTER_RETURN_DAYS)
        return returns[age]

    month_starts: dict[int, list[float]] = {}

    def boundary(age: int, month: int) -> float:
        if month == 1:
            return year_start(age)
        if month == MONTHS + 1:
            return year_start(age + 1)
        if age not in month_starts:
            # The year's eleven later months in one search from its start: each the instant a
            # search for that month alone finds, the Sun sampled once for them all.
            targets = [sun_longitude_deg + 30.0 * (later - 1) for later in range(2, MONTHS + 1)]
            month_starts[age] = [c.jd for c in first_crossings("sun", targets, year_start(age), deadline, flags=frame)]
        return month_starts[age][month - 2]

    return boundary


def profections(
    from_sign: int,
    birth_jd: float,
    boundary: Callable[[int, int], float],
    months: bool,
    query: TimeQuery,
    deadline: Deadline,
) -> Iterator[Period]:
    """Yield the years (level 1) and, with ``months``, the months (level 2) that ``query``
    selects; ``boundary(age, month)`` gives the start of each month (month 13: the year's end)."""
    _, high = query.window
    age = 0
    while True:
        deadline.check()
        start, end = boundary(age, 1), boundary(age, 13)
        if start > high or (query.at_jd is None and start >= high):
            return
        if overlaps(start, end, query):
            yield Period(1, start, end, profected(from_sign, age))
            if months:
                for month in range(1, MONTHS + 1):
                    month_start = boundary(age, month)
                    month_end = end if month == MONTHS else boundary(age, month + 1)
                    if overlaps(month_start, month_end, query):
                        yield Period(2, month_start, month_end, profected(from_sign, age, month))
        age += 1
