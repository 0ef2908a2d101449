"""Positions one search has already asked the engine for, kept by body and date so that another
search over the same dates reads them instead of asking again: a forecast's void-of-course
search samples the Moon and the planets every half day, and its ingress, return and lunation
searches step over grids that meet those dates (their steps are whole multiples of half a day
from the same start).

A kept value is the engine's own answer for that body, date and flags, so a search that reads
it computes the very instants it computes without it: only the engine calls are saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kernel import bodies as body_table
from kernel import engine
from kernel.search import RatedFunction


@dataclass(frozen=True)
class SampledPositions:
    """Each body's (first coordinate, degrees; its speed, degrees per day) at the UT1 Julian Days
    it was sampled at, ``by_body[body][jd]``, all computed with the engine ``flags``."""

    flags: int = 0
    by_body: Mapping[str, Mapping[float, tuple[float, float]]] = field(default_factory=dict)

    def longitude_and_speed(self, body: str, flags: int) -> RatedFunction:
        """Return jd -> ``engine.longitude_and_speed`` of ``body`` under ``flags`` at jd: the kept
        value when the body was sampled at jd with the same flags, else the engine's call."""
        compute = engine.longitude_and_speed(body_table.engine_number(body), flags)
        kept = self.by_body.get(body) if flags == self.flags else None
        if not kept:
            return compute

        def kept_or_computed(jd: float) -> tuple[float, float]:
            value = kept.get(jd)
            return compute(jd) if value is None else value

        return kept_or_computed


#: No position kept: every call goes to the engine.
NOTHING_SAMPLED = SampledPositions()
