"""Firdaria: the Persian planetary periods of a life, a 75-year cycle of majors, each planetary
major cut into seven equal sub-periods (interface.md, GET/POST /v1/firdaria)."""

from __future__ import annotations

from collections.abc import Iterator

from kernel.deadline import Deadline
from kernel.time_lord_periods import Period, TimeQuery, overlaps

# Source: interface.md, /v1/firdaria (the sequences of Abu Ma'shar as Bonatti gives them):
# (lord, years) in order; 75 years in all, then the sequence starts over.
DAY_SEQUENCE: tuple[tuple[str, int], ...] = (
    ("sun", 10),
    ("venus", 8),
    ("mercury", 13),
    ("moon", 9),
    ("saturn", 11),
    ("jupiter", 12),
    ("mars", 7),
    ("north_node", 3),
    ("south_node", 2),
)
NIGHT_SEQUENCES: dict[str, tuple[tuple[str, int], ...]] = {
    "nodes_last": (
        ("moon", 9),
        ("saturn", 11),
        ("jupiter", 12),
        ("mars", 7),
        ("sun", 10),
        ("venus", 8),
        ("mercury", 13),
        ("north_node", 3),
        ("south_node", 2),
    ),
    "nodes_after_mars": (
        ("moon", 9),
        ("saturn", 11),
        ("jupiter", 12),
        ("mars", 7),
        ("north_node", 3),
        ("south_node", 2),
        ("sun", 10),
        ("venus", 8),
        ("mercury", 13),
    ),
}
# The Chaldean order (Ptolemy, Tetrabiblos I.4), in which sub-period lords follow the major's.
CHALDEAN_ORDER: tuple[str, ...] = ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
SUB_PERIODS = 7
# Source: interface.md, Limits: the longest range, calendar years.
RANGE_CAP_YEARS = 120
NODES = ("north_node", "south_node")


def sequence(day: bool, night_order: str) -> tuple[tuple[str, int], ...]:
    """Return the (lord, years) majors of a day chart, or of a night chart in ``night_order``."""
    return DAY_SEQUENCE if day else NIGHT_SEQUENCES[night_order]


def sub_lords(major: str) -> tuple[str, ...]:
    """Return the seven sub-period lords of a planetary major: the major first, then the Chaldean order."""
    first = CHALDEAN_ORDER.index(major)
    return tuple(CHALDEAN_ORDER[(first + i) % 7] for i in range(SUB_PERIODS))


def firdaria(
    birth_jd: float, day: bool, night_order: str, year_days: float, query: TimeQuery, deadline: Deadline
) -> Iterator[Period]:
    """Yield the majors (level 1, member ``lord``) and sub-periods (level 2, ``lord`` and
    ``major_lord``) that ``query`` selects, UT1 Julian Days from birth, each major lasting its
    years of ``year_days`` days; node majors have no sub-periods."""
    majors = sequence(day, night_order)
    _, high = query.window
    elapsed_years, index = 0, 0
    while True:
        deadline.check()
        lord, years = majors[index % len(majors)]
        start = birth_jd + elapsed_years * year_days
        end = birth_jd + (elapsed_years + years) * year_days
        if start > high or (query.at_jd is None and start >= high):
            return
        if overlaps(start, end, query):
            yield Period(1, start, end, {"lord": lord})
            if lord not in NODES:
                for i, sub in enumerate(sub_lords(lord)):
                    sub_start = birth_jd + (elapsed_years + years * i / SUB_PERIODS) * year_days
                    sub_end = (
                        end
                        if i == SUB_PERIODS - 1
                        else birth_jd + (elapsed_years + years * (i + 1) / SUB_PERIODS) * year_days
                    )
                    if overlaps(sub_start, sub_end, query):
                        yield Period(2, sub_start, sub_end, {"lord": sub, "major_lord": lord})
        elapsed_years += years
        index += 1
