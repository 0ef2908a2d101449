"""Directed-to-natal and secondary-progressed-to-natal contacts as windows (/v1/forecast kinds
``direction`` and ``progression``), each a :class:`kernel.transits.TransitEvent`: entering orb,
exact, leaving, as a transit's window is.

Both are transit scans in progressed time. A date ``t`` (UT1 JD) of life stands for the
progressed moment ``natal + (t - natal) / year_days`` (``kernel/progressions.py``), a day for a
year, and back: so the scan runs over the progressed moments of the range, against fixed
points, and every instant it finds is taken back to the date of life it stands for
(its 1 ms refinement becomes 0.37 s).

- Progressions: each progressed body against each natal point, by the aspects, within the orb.
- Directions (true solar arc): the directed point P stands at natal P + (progressed Sun - natal
  Sun), so directed P makes aspect A to natal T exactly when the progressed Sun makes A to the
  fixed longitude natal T - natal P + natal Sun: one scan of the Sun against one such point per
  pair. A point is not directed to itself (that contact is the arc alone, 0 at birth).

The range is cut to begin at birth: nothing is directed or progressed before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernel.bodies import SUN
from kernel.deadline import Deadline
from kernel.progressions import TROPICAL_YEAR_DAYS
from kernel.transits import TransitEvent, scan
from kernel.zodiac import normalize_deg

#: The orb of a direction and of a progression in a forecast, degrees: one degree, a year of
#: solar arc, the orb usual for directions (docs/forecast.md).
DIRECTION_ORB_DEG = 1.0
_PAIR = "\t"


def progressed_jd(natal_jd: float, jd: float, year_days: float = TROPICAL_YEAR_DAYS) -> float:
    """Return the progressed moment (UT1 JD) the date ``jd`` stands for: a day for each year."""
    return natal_jd + (jd - natal_jd) / year_days


def date_of_life(natal_jd: float, progressed: float, year_days: float = TROPICAL_YEAR_DAYS) -> float:
    """Return the date (UT1 JD) the progressed moment ``progressed`` stands for."""
    return natal_jd + (progressed - natal_jd) * year_days


def progression_windows(
    natal_jd: float,
    start_jd: float,
    end_jd: float,
    bodies: Sequence[str],
    points: Sequence[tuple[str, float]],
    aspects: Sequence[str],
    orb: float,
    deadline: Deadline,
    year_days: float = TROPICAL_YEAR_DAYS,
) -> list[TransitEvent]:
    """Return the windows over [start_jd, end_jd] (UT1 JD) of each secondary progressed body of
    ``bodies`` to each natal point of ``points`` (name, longitude in degrees), by ``aspects``
    within ``orb`` degrees; ``moving`` is the progressed body, ``target`` the natal point."""
    span = _span(natal_jd, start_jd, end_jd, year_days)
    if span is None:
        return []
    windows = scan(*span, bodies, points, aspects, orb, deadline)
    return [_dated(w, natal_jd, year_days, w.moving, w.target) for w in windows]


def direction_windows(
    natal_jd: float,
    natal_sun_deg: float,
    start_jd: float,
    end_jd: float,
    points: Sequence[tuple[str, float]],
    aspects: Sequence[str],
    orb: float,
    deadline: Deadline,
    year_days: float = TROPICAL_YEAR_DAYS,
) -> list[TransitEvent]:
    """Return the windows over [start_jd, end_jd] (UT1 JD) of each point of ``points`` (name,
    natal longitude in degrees) directed by the true solar arc to each other natal point, by
    ``aspects`` within ``orb`` degrees; ``natal_sun_deg`` is the natal Sun's longitude.
    ``moving`` is the directed point, ``target`` the natal point."""
    span = _span(natal_jd, start_jd, end_jd, year_days)
    if span is None:
        return []
    fixed = [
        (f"{directed}{_PAIR}{target}", normalize_deg(target_deg - directed_deg + natal_sun_deg))
        for directed, directed_deg in points
        for target, target_deg in points
        if directed != target
    ]
    windows = scan(*span, [SUN], fixed, aspects, orb, deadline)
    return [_dated(w, natal_jd, year_days, *w.target.split(_PAIR)) for w in windows]


def _span(natal_jd: float, start_jd: float, end_jd: float, year_days: float) -> tuple[float, float] | None:
    """Return the progressed moments of the range cut to begin at birth, or None when it ends by then."""
    start_jd = max(start_jd, natal_jd)
    if end_jd <= start_jd:
        return None
    return progressed_jd(natal_jd, start_jd, year_days), progressed_jd(natal_jd, end_jd, year_days)


def _dated(window: TransitEvent, natal_jd: float, year_days: float, moving: str, target: str) -> TransitEvent:
    """Return a progressed-time window with its instants taken back to the dates of life."""
    return TransitEvent(
        moving,
        window.aspect,
        target,
        date_of_life(natal_jd, window.enter, year_days),
        date_of_life(natal_jd, window.leave, year_days),
        [date_of_life(natal_jd, jd, year_days) for jd in window.exacts],
        window.clamped_start,
        window.clamped_end,
    )
