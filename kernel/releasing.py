"""Zodiacal releasing (Vettius Valens, Anthology IV.4): periods of years per sign walked from
a lot's sign, each level dividing its unit by twelve, with the loosing of the bond
(interface.md, GET/POST /v1/zodiacal-releasing)."""

from __future__ import annotations

from collections.abc import Iterator

from kernel.deadline import Deadline
from kernel.dignity_tables import TRADITIONAL_RULERS
from kernel.time_lord_periods import Period, TimeQuery, overlaps
from kernel.zodiac import SIGN_KEYS

# Source: interface.md, /v1/zodiacal-releasing (Valens's minor years of the sign rulers),
# Aries first; the twelve total 211.
YEARS_PER_SIGN: tuple[int, ...] = (15, 8, 20, 25, 19, 20, 8, 15, 12, 27, 30, 12)
CIRCUIT_UNITS = sum(YEARS_PER_SIGN)
YEAR_DAYS = 360.0
# Every level's unit in the smallest one (level 4's 5 hours): a level-L period of sign S lasts
# YEARS_PER_SIGN[S] units of UNITS[L]; counting in whole 5-hour units keeps every boundary exact.
UNITS: dict[int, int] = {1: 12**3, 2: 12**2, 3: 12, 4: 1}
UNIT_DAYS = YEAR_DAYS / UNITS[1]
ANGULAR_PLACES = (1, 4, 7, 10)
# Source: interface.md, rule 5: the longest range per deepest level, years.
RANGE_CAP_YEARS: dict[int, int] = {1: 120, 2: 120, 3: 10, 4: 1}


def place_from(sign: int, fortune_sign: int | None) -> int | None:
    """Return the sign's place from the Lot of Fortune's sign counted inclusively (1-12) when
    it is angular (1, 4, 7 or 10), else None; None without a Lot of Fortune."""
    if fortune_sign is None:
        return None
    place = (sign - fortune_sign) % 12 + 1
    return place if place in ANGULAR_PLACES else None


def _period(
    level: int, sign: int, start_units: int, end_units: int, birth_jd: float, fortune_sign: int | None, loosing: bool
) -> Period:
    members = {"sign": SIGN_KEYS[sign], "lord": TRADITIONAL_RULERS[sign], "loosing_of_bond": loosing}
    angle = place_from(sign, fortune_sign)
    if angle is not None:
        members["angle_from_fortune"] = angle
    return Period(level, birth_jd + start_units * UNIT_DAYS, birth_jd + end_units * UNIT_DAYS, members)


def _children(level: int, parent_sign: int, start: int, end: int) -> Iterator[tuple[int, int, int, bool]]:
    """Yield (sign, start, end, loosing) of the level-``level`` periods inside a parent of sign
    ``parent_sign`` spanning [start, end) in 5-hour units: from the parent's sign in order,
    the last cut to the parent's end; after one full circuit (211 of their units) the next
    begins at the sign opposite the parent (the loosing of the bond), once."""
    unit = UNITS[level]
    sign, elapsed, loosed = parent_sign, 0, False
    while start + elapsed * unit < end:
        loosing = False
        if elapsed == CIRCUIT_UNITS and not loosed:
            sign, loosing, loosed = (parent_sign + 6) % 12, True, True
        length = YEARS_PER_SIGN[sign]
        yield sign, start + elapsed * unit, min(start + (elapsed + length) * unit, end), loosing
        elapsed += length
        sign = (sign + 1) % 12


def releasing(
    from_sign: int, fortune_sign: int | None, birth_jd: float, max_level: int, query: TimeQuery, deadline: Deadline
) -> Iterator[Period]:
    """Yield the periods of levels 1 to ``max_level`` that ``query`` selects, walked from
    ``from_sign`` (0 Aries .. 11 Pisces): chapters continue around the zodiac without end;
    members ``sign``, ``lord``, ``loosing_of_bond`` and, when angular, ``angle_from_fortune``."""
    _, high = query.window

    def selected(start: int, end: int) -> bool:
        return overlaps(birth_jd + start * UNIT_DAYS, birth_jd + end * UNIT_DAYS, query)

    def descend(level: int, sign: int, start: int, end: int) -> Iterator[Period]:
        for child_sign, child_start, child_end, loosing in _children(level, sign, start, end):
            deadline.check()
            if birth_jd + child_start * UNIT_DAYS > high:
                return
            if selected(child_start, child_end):
                yield _period(level, child_sign, child_start, child_end, birth_jd, fortune_sign, loosing)
                if level < max_level:
                    yield from descend(level + 1, child_sign, child_start, child_end)

    sign, start = from_sign, 0
    while birth_jd + start * UNIT_DAYS <= high:
        deadline.check()
        end = start + YEARS_PER_SIGN[sign] * UNITS[1]
        if selected(start, end):
            yield _period(1, sign, start, end, birth_jd, fortune_sign, False)
            if max_level > 1:
                yield from descend(2, sign, start, end)
        sign, start = (sign + 1) % 12, end
