"""The order of significance of a forecast's events (/v1/forecast rank=significance): which
events matter first when a birth's year or decade is read, written as a table of classes.

An event takes the first class of :data:`SIGNIFICANCE` that matches it; the classes are
ordered most significant first, and the events of one class keep the time order of the
forecast (:func:`kernel.forecast.ordered`). The order and its reasons are the project's
choice, stated here once and in docs/forecast.md, following the weight astrologers give a
transit: how long it lasts and how rarely it comes (the slow movers'), and how personal the
natal point it touches is (the angles and the luminaries).

What a class matches is read from the event alone: its kind and phase, the speed class of the
body that moves in a transit, a station or an ingress (:data:`SLOW_MOVERS` or not), and the
natal point it concerns: a transit's target, or the natal point an eclipse falls on (within
the forecast's transit orb, by conjunction), an angle or a luminary (:data:`ANGLES_AND_LUMINARIES`)
or another natal point.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kernel.forecast import (
    DIRECTION,
    ECLIPSE,
    ENTER,
    EXACT,
    FIRDARIA,
    INGRESS,
    LEAVE,
    LUNATION,
    PROFECTION,
    PROGRESSION,
    RELEASING,
    RETURN,
    STATION,
    TRANSIT,
    VOID_OF_COURSE,
    WINDOW_KINDS,
    EclipseAt,
    ForecastEvent,
)

#: The slow movers of a forecast, the slowest last: a contact of theirs lasts weeks to months
#: (retrograde loops repeat it) and comes back after years. The nodes, Chiron and the
#: asteroids would follow them, but move in no forecast event.
SLOW_MOVERS = ("jupiter", "saturn", "uranus", "neptune", "pluto")
#: The natal points first among equals: the angles (the chart's orientation to the place)
#: and the luminaries (the Sun and the Moon), the most personal points of a chart.
ANGLES_AND_LUMINARIES = ("ascendant", "midheaven", "sun", "moon")

#: The speed classes of the body that moves in a transit, a station or an ingress.
SLOW, FAST = "slow", "fast"
#: What an event concerns: an angle or a luminary, another natal point, or no natal point.
ANGLE_OR_LUMINARY, NATAL_POINT, NO_POINT = "angle_or_luminary", "natal_point", "no_point"
_STATIONS = ("station_retrograde", "station_direct")


@dataclass(frozen=True)
class SignificanceClass:
    """One class of the order: the events of ``kinds`` (and of ``phases``, the speed class of
    their moving body among ``movers``, the natal point they concern among ``points``; None
    matches any), ``name`` and ``reason`` saying why it stands where it does."""

    name: str
    kinds: frozenset[str]
    reason: str
    phases: frozenset[str] | None = None
    movers: frozenset[str] | None = None
    points: frozenset[str] | None = None

    def matches(self, kind: str, phase: str, mover: str | None, point: str) -> bool:
        """Return whether an event of ``kind`` and ``phase``, whose moving body is of speed
        class ``mover`` (None for a kind without one) and which concerns ``point``, is of this class."""
        return (
            kind in self.kinds
            and (self.phases is None or phase in self.phases)
            and (self.movers is None or mover in self.movers)
            and (self.points is None or point in self.points)
        )


def _class(name: str, kinds: Iterable[str], reason: str, **matching: Iterable[str]) -> SignificanceClass:
    return SignificanceClass(
        name, frozenset(kinds), reason, **{key: frozenset(values) for key, values in matching.items()}
    )


#: The classes, most significant first. Every event matches one (the last two take every
#: transit and every void-of-course period).
SIGNIFICANCE: tuple[SignificanceClass, ...] = (
    _class(
        "slow_exact_to_angle_or_luminary",
        [TRANSIT, DIRECTION, PROGRESSION],
        "A slow mover exact on an angle or a luminary: the longest contacts, to the most personal points.",
        phases=[EXACT],
        movers=[SLOW],
        points=[ANGLE_OR_LUMINARY],
    ),
    _class(
        "slow_exact_to_natal_point",
        [TRANSIT, DIRECTION, PROGRESSION],
        "A slow mover exact on another natal point: a contact of months, coming back after years.",
        phases=[EXACT],
        movers=[SLOW],
        points=[NATAL_POINT],
    ),
    _class(
        "eclipse_on_natal_point",
        [ECLIPSE],
        "An eclipse on a natal point: a turning point of the year, touching the chart itself.",
        points=[ANGLE_OR_LUMINARY, NATAL_POINT],
    ),
    _class(
        "slow_station",
        [STATION],
        "A slow mover stationing: it stands on its degree for weeks, and its retrograde loop repeats its contacts.",
        movers=[SLOW],
    ),
    _class(
        "slow_window",
        [TRANSIT, DIRECTION, PROGRESSION],
        "A slow mover entering or leaving orb: the bounds of a contact of months.",
        phases=[ENTER, LEAVE],
        movers=[SLOW],
    ),
    _class(
        "slow_ingress",
        [INGRESS],
        "A slow mover entering a sign: a change of a year (Jupiter) to decades (Pluto).",
        movers=[SLOW],
    ),
    _class(
        "year_opening",
        [RETURN, PROFECTION, RELEASING, FIRDARIA],
        "The solar return and the first level of a time-lord period: each opens a period of a year or more.",
        phases=["solar", "level_1"],
    ),
    _class("other_eclipse", [ECLIPSE], "An eclipse on no natal point: a turning point of the sky, not the chart's."),
    _class(
        "fast_exact_to_angle_or_luminary",
        [TRANSIT],
        "A fast mover (the Sun, Mercury, Venus, Mars) exact on an angle or a luminary: a day's contact, yearly.",
        phases=[EXACT],
        movers=[FAST],
        points=[ANGLE_OR_LUMINARY],
    ),
    _class(
        "fast_exact_or_station",
        [TRANSIT, STATION],
        "A fast mover exact on another natal point, or stationing: a day's contact, or a turn every year or two.",
        phases=[EXACT, *_STATIONS],
        movers=[FAST],
    ),
    _class(
        "month",
        [LUNATION, RETURN, INGRESS, PROFECTION, RELEASING, FIRDARIA],
        "What comes every month or so: lunations, lunar returns, fast movers' ingresses, time-lords' sub-periods.",
    ),
    _class("fast_window", [TRANSIT], "A fast mover entering or leaving orb: the bounds of a contact of days."),
    _class("void_of_course", [VOID_OF_COURSE], "The Moon void of course: hours, every two or three days."),
)


def mover_class(event: ForecastEvent) -> str | None:
    """Return the speed class (SLOW or FAST) of the body that moves in a transit, a station or
    an ingress, SLOW for a direction or a progression (a degree in a year, or a month for the
    progressed Moon); None for the other kinds (their movers are the Sun and the Moon, or none)."""
    if event.kind in (DIRECTION, PROGRESSION):
        return SLOW
    if event.kind not in (TRANSIT, STATION, INGRESS):
        return None
    return SLOW if event.bodies[0] in SLOW_MOVERS else FAST


def point_class(event: ForecastEvent, points: Mapping[str, float], orb_deg: float) -> str:
    """Return what ``event`` concerns among the natal ``points`` (name: longitude, degrees): a
    transit's target, or the point an eclipse falls on (its longitude within ``orb_deg`` of the
    point's), as ANGLE_OR_LUMINARY or NATAL_POINT; NO_POINT for the other events."""
    if event.kind in WINDOW_KINDS:
        target = event.point
    elif event.kind == ECLIPSE:
        target = eclipse_point(event.record, points, orb_deg)
    else:
        target = None
    if target is None:
        return NO_POINT
    return ANGLE_OR_LUMINARY if target in ANGLES_AND_LUMINARIES else NATAL_POINT


def eclipse_point(eclipse: EclipseAt, points: Mapping[str, float], orb_deg: float) -> str | None:
    """Return the natal point an eclipse falls on: the one of ``points`` (name: longitude,
    degrees) nearest its longitude, an angle or a luminary first at equal distance, when
    within ``orb_deg``; None when none is."""
    best: tuple[float, int, str] | None = None
    for name, longitude in points.items():
        distance = abs((eclipse.longitude_deg - longitude + 180.0) % 360.0 - 180.0)
        candidate = (distance, 0 if name in ANGLES_AND_LUMINARIES else 1, name)
        if distance <= orb_deg and (best is None or candidate < best):
            best = candidate
    return None if best is None else best[2]


def significance(event: ForecastEvent, points: Mapping[str, float], orb_deg: float) -> int:
    """Return the index in :data:`SIGNIFICANCE` of the class of ``event`` (0 most significant),
    the natal ``points`` (name: longitude, degrees) and ``orb_deg`` deciding what an eclipse falls on."""
    mover, point = mover_class(event), point_class(event, points, orb_deg)
    for index, rank_class in enumerate(SIGNIFICANCE):
        if rank_class.matches(event.kind, event.phase, mover, point):
            return index
    raise ValueError(f"No class of significance matches a {event.kind} event ({event.phase}).")


def by_significance(
    events: Iterable[ForecastEvent], points: Mapping[str, float], orb_deg: float
) -> list[ForecastEvent]:
    """Return ``events`` (in time order) ordered by their class of :data:`SIGNIFICANCE`, most
    significant first, each class keeping their order (the sort is stable)."""
    return sorted(events, key=lambda event: significance(event, points, orb_deg))
