"""Vimshottari dasha: the 120-year cycle of planetary periods that starts from the Moon's
nakshatra at birth, each period cut into nine sub-periods in the same proportions, to any
depth (mahadasha, antardasha, pratyantardasha)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kernel.deadline import Deadline
from kernel.nakshatras import nakshatra_of
from kernel.time_lord_periods import Period, TimeQuery, overlaps

# Source: Brihat Parashara Hora Shastra (R. Santhanam tr., 1984), ch. 46 "Dasas of planets"
# (Vimshottari): the lords in their order and their years, 120 in all; the antardashas (ch. 46
# and ch. 47 ff.) and pratyantardashas of a period follow the same order from its own lord,
# each lasting its lord's share (years / 120) of the period.
DASHA_YEARS: tuple[tuple[str, int], ...] = (
    ("ketu", 7),
    ("venus", 20),
    ("sun", 6),
    ("moon", 10),
    ("mars", 7),
    ("rahu", 18),
    ("jupiter", 16),
    ("saturn", 19),
    ("mercury", 17),
)
CYCLE_YEARS = sum(years for _, years in DASHA_YEARS)
LORDS: tuple[str, ...] = tuple(lord for lord, _ in DASHA_YEARS)
_YEARS = dict(DASHA_YEARS)

# The length of a dasha year, days. Sources: julian, the Julian year (365.25 days, IAU); sidereal,
# the sidereal year of J2000 (365.256363 days, IERS Conventions 2010 / Astronomical Almanac);
# savana, the 360-day civil year of 12 months of 30 savana days (Surya Siddhanta I.12-13,
# Burgess tr., which BPHS's commentators apply to dashas); gregorian, the mean Gregorian
# calendar year (365.2425 days: a dasha added to a birth date by the calendar).
YEAR_LENGTHS: dict[str, float] = {"julian": 365.25, "sidereal": 365.256363, "savana": 360.0, "gregorian": 365.2425}
DEFAULT_YEAR_LENGTH = "sidereal"
LEVEL_NAMES: tuple[str, ...] = ("mahadasha", "antardasha", "pratyantardasha")
MAX_LEVELS = len(LEVEL_NAMES)
# The longest range, calendar years: one whole cycle, as the other time lords' (firdaria).
RANGE_CAP_YEARS = 120


@dataclass(frozen=True)
class Balance:
    """The dasha running at birth: its ``lord``, the ``years`` of it left at birth (the
    balance, in dasha years) and the ``elapsed`` fraction [0, 1) of it gone before birth, the
    Moon's fraction of its nakshatra."""

    lord: str
    years: float
    elapsed: float


def balance_at_birth(moon_longitude_deg: float) -> Balance:
    """Return the mahadasha running at birth from the Moon's sidereal longitude (degrees):
    its lord is the lord of the Moon's nakshatra, and as much of it is gone as the Moon has
    crossed of the nakshatra."""
    nakshatra = nakshatra_of(moon_longitude_deg)
    years = _YEARS[nakshatra.lord]
    return Balance(nakshatra.lord, years * (1.0 - nakshatra.elapsed), nakshatra.elapsed)


def first_mahadasha(birth_jd: float, moon_longitude_deg: float, year_days: float) -> tuple[float, float]:
    """Return the start and end (UT1 Julian Days) of the mahadasha running at a birth at
    ``birth_jd`` with the Moon at ``moon_longitude_deg``: it started the elapsed part of its
    years before birth, and its end is the next one's start."""
    balance = balance_at_birth(moon_longitude_deg)
    start = birth_jd - balance.elapsed * _YEARS[balance.lord] * year_days
    return start, start + _YEARS[balance.lord] * year_days


def sub_lords(lord: str) -> tuple[str, ...]:
    """Return the nine lords of a period's sub-periods: its own lord first, then the cycle's order."""
    return _SUB_LORDS[lord]


_SUB_LORDS = {lord: LORDS[first:] + LORDS[:first] for first, lord in enumerate(LORDS)}


def vimshottari(
    birth_jd: float, moon_longitude_deg: float, year_days: float, levels: int, query: TimeQuery, deadline: Deadline
) -> Iterator[Period]:
    """Yield the periods of levels 1 to ``levels`` that ``query`` selects (members ``lord`` and,
    below level 1, ``parents``: the lords above it, outermost first), as UT1 Julian Days of a
    birth at ``birth_jd`` with the Moon at ``moon_longitude_deg`` (sidereal), each dasha year
    ``year_days`` days. The first mahadasha starts before birth by its elapsed part; the
    cycle repeats after 120 years."""
    balance = balance_at_birth(moon_longitude_deg)
    start, _ = first_mahadasha(birth_jd, moon_longitude_deg, year_days)
    _, high = query.window
    index = LORDS.index(balance.lord)
    while True:
        deadline.check()
        lord = LORDS[index % len(LORDS)]
        end = start + _YEARS[lord] * year_days
        if start > high or (query.at_jd is None and start >= high):
            return
        if overlaps(start, end, query):
            selected: list[Period] = []
            _select(selected, 1, lord, (), start, end, levels, query)
            yield from selected
        start = end
        index += 1


def _select(
    selected: list[Period],
    level: int,
    lord: str,
    parents: tuple[str, ...],
    start: float,
    end: float,
    levels: int,
    query: TimeQuery,
) -> None:
    """Append a selected period and its selected sub-periods down to ``levels`` to
    ``selected``: each sub-period the share years/120 of its parent, their boundaries
    cumulative fractions of the parent so the last ends exactly where the parent does."""
    selected.append(Period(level, start, end, {"lord": lord, "parents": parents}))
    if level == levels:
        return
    length = end - start
    elapsed = 0
    inner = (*parents, lord)
    for sub in sub_lords(lord):
        sub_start = start + length * elapsed / CYCLE_YEARS
        elapsed += _YEARS[sub]
        sub_end = end if elapsed == CYCLE_YEARS else start + length * elapsed / CYCLE_YEARS
        if overlaps(sub_start, sub_end, query):
            _select(selected, level + 1, sub, inner, sub_start, sub_end, levels, query)
