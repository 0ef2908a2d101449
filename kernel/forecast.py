"""A birth's forecast: one time-ordered list of what concerns the chart over a range, every
event in one shape (/v1/forecast).

Each kind is found by the very kernel function its own endpoint calls, with that endpoint's
settings (:class:`ForecastSettings`): transits (:func:`kernel.transits.scan_transits`, as
/v1/transits), stations (:func:`kernel.stations.find_stations`), sign ingresses
(:func:`kernel.crossings.sign_ingresses_until`, as /v1/calendar), lunations
(:func:`kernel.lunations.find_lunations`), global eclipses (:func:`kernel.eclipses.eclipses_between`),
void-of-course periods (:func:`kernel.void_of_course_periods.void_periods`), solar and lunar
returns (:func:`kernel.crossings.crossings_until` of the natal longitude, the instants /v1/returns finds), and the
periods of profections, zodiacal releasing and firdaria. An event keeps the record its finder
gave (``record``), so the service writes it as the endpoint's own record.

An event belongs to a range when its instant lies in [start, end): a transit window gives an
event where it enters orb, one at each exact and one where it leaves, but no event at an end
the range clamps; a period (void of course, a time-lord period) gives one event at its start.
So two ranges that overlap give the same events over their overlap.

Identifiers (:func:`event_id`) are a digest of the chart's key (its birth and settings), the
kind, the phase, the bodies and point, and the event's UTC instant floored to the minute: the
finders refine instants to 1 ms, and a search over another range may land a millisecond
away, which changes the minute only when the instant lies within that millisecond of a
minute's turn.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kernel.bodies import SUN
from kernel.chart import zodiacal_house
from kernel.crossings import crossings_until, sign_ingresses_until
from kernel.deadline import Deadline
from kernel.directed_contacts import DIRECTION_ORB_DEG, direction_windows, progression_windows
from kernel.eclipses import LUNAR, SOLAR, eclipses_between
from kernel.firdaria import firdaria
from kernel.houses import HouseSystem, compute_houses
from kernel.lunations import find_lunations
from kernel.natal_points import NatalPoints, natal_points
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.profections import mean_boundaries, profections
from kernel.releasing import releasing
from kernel.sampled_positions import NOTHING_SAMPLED, SampledPositions
from kernel.stations import find_stations, station_grid_samples
from kernel.time_lord_periods import Period, TimeQuery, flatten
from kernel.timescale import Moment
from kernel.transits import EXCLUDE, MOON, TransitEvent, scan_transits
from kernel.void_of_course_periods import MoonSamples, VoidPeriod, periods_sampled, sample_span
from kernel.zodiac import sign_index

TRANSIT, STATION, INGRESS, LUNATION, ECLIPSE = "transit", "station", "ingress", "lunation", "eclipse"
VOID_OF_COURSE, RETURN, PROFECTION, RELEASING, FIRDARIA = (
    "void_of_course",
    "return",
    "profection",
    "releasing",
    "firdaria",
)
DIRECTION, PROGRESSION = "direction", "progression"
#: The kinds, in the order that orders events falling at one instant.
KINDS = (
    TRANSIT,
    STATION,
    INGRESS,
    LUNATION,
    ECLIPSE,
    VOID_OF_COURSE,
    RETURN,
    PROFECTION,
    RELEASING,
    FIRDARIA,
    DIRECTION,
    PROGRESSION,
)
#: The kinds whose events are windows of a moving point to a natal point (enter, exact, leave),
#: each holding a kernel.transits.TransitEvent.
WINDOW_KINDS = (TRANSIT, DIRECTION, PROGRESSION)
#: The kinds of the time-lord periods: their bodies rule the period, none moves in it.
TIME_LORD_KINDS = (PROFECTION, RELEASING, FIRDARIA)
#: A transit window's phases.
ENTER, EXACT, LEAVE = "enter", "exact", "leave"
#: The bodies whose returns a forecast holds: the solar and the lunar return.
RETURN_BODIES = (SUN, MOON)
FORTUNE = "part_of_fortune"
_MINUTES_PER_DAY = 1440


@dataclass(frozen=True)
class ForecastSettings:
    """What each finder runs with: the settings of the kind's own endpoint.

    Transits: ``moving`` against the natal ``natal_bodies`` and the angles, ``aspects`` within
    ``orb`` degrees (the Moon moves in no transit: its conjunction to the natal Moon is the lunar
    return). Stations of ``station_bodies``; sign ingresses of ``ingress_bodies``; lunations of
    ``phases``; void of course against ``void_bodies`` (the Moon aside) by ``void_aspects``.
    Profections from ``profection_from`` in years of ``year_days`` (and their months with
    ``profection_months``); releasing from ``releasing_from`` to ``releasing_levels``; firdaria
    in ``firdaria_order`` with years of ``year_days``. The natal house of a lunation or an
    eclipse is counted in ``house_system``.
    """

    moving: tuple[str, ...]
    natal_bodies: tuple[str, ...]
    aspects: tuple[str, ...]
    orb: float
    station_bodies: tuple[str, ...]
    ingress_bodies: tuple[str, ...]
    phases: tuple[str, ...]
    void_bodies: tuple[str, ...]
    void_aspects: tuple[str, ...]
    profection_from: str
    profection_months: bool
    year_days: float
    releasing_from: str
    releasing_levels: int
    firdaria_order: str
    house_system: HouseSystem

    def key(self) -> str:
        """Return the settings as text, a part of a chart's key (:func:`chart_key`)."""
        return repr(replace(self, house_system=self.house_system.name))


@dataclass(frozen=True)
class Chart:
    """The natal chart a forecast reads: its ``points`` (bodies, angles, lots, sect), its
    ``cusps`` (degrees, house 1 first, in the settings' house system) and its ``key``."""

    points: NatalPoints
    cusps: list[float]
    key: str


@dataclass(frozen=True)
class ForecastEvent:
    """One event: its ``kind``, ``phase`` (a transit's enter, exact or leave; a station's or an
    ingress's direction; a lunation's phase; an eclipse's or a return's solar or lunar; a
    time-lord period's level), its instant ``jd`` (UT1) and a period's own ``end_jd``, the
    ``bodies`` moving or ruling, the natal ``point`` concerned, the ``natal_house`` (1-12) a
    lunation or an eclipse falls in, the finder's own ``record`` and the event's ``id``."""

    kind: str
    phase: str
    jd: float
    bodies: tuple[str, ...]
    record: Any
    point: str | None = None
    end_jd: float | None = None
    natal_house: int | None = None
    id: str = ""


@dataclass(frozen=True)
class EclipseAt:
    """A global eclipse of ``kind`` (solar or lunar), its finder's ``eclipse`` record, and the
    ecliptic ``longitude_deg`` where it falls: the Sun's at a solar maximum, the Moon's at a lunar one."""

    kind: str
    eclipse: Any
    longitude_deg: float


@dataclass(frozen=True)
class BodyReturn:
    """``body`` back on its ``natal_longitude_deg`` at ``jd`` (UT1), as /v1/returns finds it."""

    body: str
    jd: float
    natal_longitude_deg: float


def natal_chart(birth: Moment, place: Observer, settings: ForecastSettings) -> Chart:
    """Return the natal chart of a birth at ``place``: the natal points (the bodies, the angles
    and every lot they allow; tropical), the cusps of ``settings.house_system`` and the key."""
    points = natal_points(birth, place, settings.natal_bodies, lots=True)
    houses = compute_houses(birth, place.latitude_deg, place.longitude_deg, settings.house_system)
    return Chart(points, list(houses.cusps_deg), chart_key(birth, place, settings))


def chart_key(birth: Moment, place: Observer, settings: ForecastSettings) -> str:
    """Return the text that names a chart in its events' ids: the birth to the millisecond,
    the place to 1e-6 degrees, and the settings."""
    return f"{birth.jd_ut1:.9f}|{place.latitude_deg:.6f}|{place.longitude_deg:.6f}|{settings.key()}"


def event_id(key: str, kind: str, phase: str, bodies: Sequence[str], point: str | None, jd: float) -> str:
    """Return an event's identifier: ``fc_`` and 24 hex digits of the SHA-256 of the chart's
    ``key``, the kind, phase, bodies, point and the minute (UT1, floored) of ``jd``, joined by
    ``|`` (:func:`event_ids` of ``key``)."""
    return event_ids(key)(kind, phase, bodies, point, jd)


def event_ids(key: str) -> Callable[[str, str, Sequence[str], str | None, float], str]:
    """Return (kind, phase, bodies, point, jd) -> :func:`event_id` of the chart's ``key``: the
    key's digest state taken once and copied for each event (a chart's key is a kilobyte of
    settings; the rest of the text a few dozen bytes)."""
    keyed = hashlib.sha256(f"{key}|".encode())

    def identify(kind: str, phase: str, bodies: Sequence[str], point: str | None, jd: float) -> str:
        digest = keyed.copy()
        digest.update("|".join((kind, phase, ",".join(bodies), point or "", minute_of(jd))).encode())
        return "fc_" + digest.hexdigest()[:24]

    return identify


def minute_of(jd: float) -> str:
    """Return the minute of a UT1 Julian Day, floored, as the count of minutes since JD 0."""
    return str(math.floor(jd * _MINUTES_PER_DAY))


def forecast(
    chart: Chart,
    start_jd: float,
    end_jd: float,
    kinds: Iterable[str],
    settings: ForecastSettings,
    deadline: Deadline,
    *,
    eclipses: Sequence[tuple[str, Any]] | None = None,
) -> list[ForecastEvent]:
    """Return the events of ``kinds`` whose instant lies in [start_jd, end_jd) (UT1 Julian
    Days), with their ids, ordered by instant, then kind (in :data:`KINDS` order), then phase,
    bodies and point.

    ``eclipses``, when given, are the global eclipses (kind, eclipse) of
    :func:`kernel.eclipses.eclipses_between` over a span holding the range, solar first: the
    eclipse events are taken from them instead of searched again. An eclipse search finds the
    same eclipse, to the bit, from any start before it (Swiss Ephemeris refines each from its
    lunation's number).

    The void-of-course search samples the Moon and the planets every half day; the ingress,
    return and lunation searches read those samples where their grids meet them
    (:mod:`kernel.sampled_positions`), so each finds the instants it finds alone."""
    wanted = set(kinds)
    samples = void_samples(start_jd, end_jd, settings, deadline) if VOID_OF_COURSE in wanted else None
    sampled = NOTHING_SAMPLED if samples is None else samples.sampled_positions()
    finders: dict[str, Callable[[], list[ForecastEvent]]] = {
        TRANSIT: lambda: transit_events(chart, start_jd, end_jd, settings, deadline),
        STATION: lambda: station_events(start_jd, end_jd, settings, deadline),
        INGRESS: lambda: ingress_events(start_jd, end_jd, settings, deadline, sampled),
        LUNATION: lambda: lunation_events(chart, start_jd, end_jd, settings, deadline, sampled),
        ECLIPSE: lambda: eclipse_events(chart, start_jd, end_jd, deadline, eclipses),
        VOID_OF_COURSE: lambda: void_events(samples, settings, deadline),
        RETURN: lambda: return_events(chart, start_jd, end_jd, deadline, sampled),
        PROFECTION: lambda: profection_events(chart, start_jd, end_jd, settings, deadline),
        RELEASING: lambda: releasing_events(chart, start_jd, end_jd, settings, deadline),
        FIRDARIA: lambda: firdaria_events(chart, start_jd, end_jd, settings, deadline),
        DIRECTION: lambda: direction_events(chart, start_jd, end_jd, settings, deadline),
        PROGRESSION: lambda: progression_events(chart, start_jd, end_jd, settings, deadline),
    }
    events = [event for kind in KINDS if kind in wanted for event in finders[kind]()]
    identify = event_ids(chart.key)
    return ordered([_with_id(e, identify(e.kind, e.phase, e.bodies, e.point, e.jd)) for e in events])


def _with_id(event: ForecastEvent, identifier: str) -> ForecastEvent:
    """Return ``event`` with its ``id``: built field by field, since dataclasses.replace, reading
    the fields by introspection, costs three times as much over a year's 1,700 events."""
    return ForecastEvent(
        event.kind,
        event.phase,
        event.jd,
        event.bodies,
        event.record,
        event.point,
        event.end_jd,
        event.natal_house,
        identifier,
    )


def ordered(events: Iterable[ForecastEvent]) -> list[ForecastEvent]:
    """Return ``events`` by instant, then kind (in :data:`KINDS` order), phase, bodies and point."""
    rank = {kind: index for index, kind in enumerate(KINDS)}
    return sorted(events, key=lambda e: (e.jd, rank[e.kind], e.phase, e.bodies, e.point or ""))


def select(events: Iterable[ForecastEvent], bodies: Sequence[str], moving: Sequence[str] = ()) -> list[ForecastEvent]:
    """Return the events that concern one of ``bodies`` (every event when empty): one moving or
    ruling among them, or at a natal point of that name; and, when ``moving`` is not empty, in
    which one of ``moving`` moves (:func:`moving_bodies`)."""
    wanted, movers = set(bodies), set(moving)
    return [
        e
        for e in events
        if (not wanted or wanted.intersection(e.bodies) or e.point in wanted)
        and (not movers or movers.intersection(moving_bodies(e)))
    ]


def moving_bodies(event: ForecastEvent) -> tuple[str, ...]:
    """Return the bodies that move in ``event``: a transit's transiting body, the body of a
    station, an ingress or a return, the Sun and the Moon of a lunation or an eclipse, the Moon
    of a void-of-course period (its ``bodies``); none in a time-lord period, whose bodies rule."""
    return () if event.kind in TIME_LORD_KINDS else event.bodies


def movers(settings: ForecastSettings) -> tuple[str, ...]:
    """Return the bodies that move in a forecast's events under ``settings``: the Sun and the
    Moon (lunations, eclipses, returns, void of course), the transiting, stationing and
    ingressing bodies."""
    return tuple(dict.fromkeys((SUN, MOON, *settings.moving, *settings.station_bodies, *settings.ingress_bodies)))


def natal_targets(chart: Chart, settings: ForecastSettings) -> dict[str, float]:
    """Return the natal points a forecast's transits aim at, by name, with their longitudes
    (degrees): the settings' natal bodies, the Ascendant and the Midheaven, those the chart has."""
    return {
        name: chart.points.longitudes[name]
        for name in (*settings.natal_bodies, "ascendant", "midheaven")
        if name in chart.points.longitudes
    }


def _inside(jd: float, start_jd: float, end_jd: float) -> bool:
    return start_jd <= jd < end_jd


def transit_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return a transit's events: each window's entry into orb, its exacts and its exit, those
    the range does not clamp, each holding its window (:class:`kernel.transits.TransitEvent`)."""
    points = list(natal_targets(chart, settings).items())
    scan = scan_transits(start_jd, end_jd, settings.moving, points, settings.aspects, settings.orb, EXCLUDE, deadline)
    return window_events(TRANSIT, scan.events, start_jd, end_jd)


def direction_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the true-solar-arc directions of the natal targets (the natal bodies, the
    Ascendant, the Midheaven) to each other, by the transits' aspects within
    DIRECTION_ORB_DEG, as windows (:func:`kernel.directed_contacts.direction_windows`); none
    without a natal Sun."""
    points = natal_targets(chart, settings)
    if SUN not in points:
        return []
    natal_jd = chart.points.birth.jd_ut1
    windows = direction_windows(
        natal_jd, points[SUN], start_jd, end_jd, list(points.items()), settings.aspects, DIRECTION_ORB_DEG, deadline
    )
    return window_events(DIRECTION, windows, start_jd, end_jd)


def progression_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the secondary progressed Moon's and transiting bodies' contacts to the natal
    targets, by the transits' aspects within DIRECTION_ORB_DEG, as windows
    (:func:`kernel.directed_contacts.progression_windows`)."""
    points = list(natal_targets(chart, settings).items())
    bodies = tuple(dict.fromkeys((SUN, MOON, *settings.moving)))
    windows = progression_windows(
        chart.points.birth.jd_ut1, start_jd, end_jd, bodies, points, settings.aspects, DIRECTION_ORB_DEG, deadline
    )
    return window_events(PROGRESSION, windows, start_jd, end_jd)


def window_events(kind: str, windows: Iterable[TransitEvent], start_jd: float, end_jd: float) -> list[ForecastEvent]:
    """Return the events of ``kind`` of each window: its entry into orb, its exacts and its
    exit, those in [start_jd, end_jd) the range does not clamp, each holding its window; the
    window's moving body is the event's body, its target the event's point."""
    events = []
    for window in windows:
        instants = [] if window.clamped_start else [(ENTER, window.enter)]
        instants += [(EXACT, jd) for jd in window.exacts]
        instants += [] if window.clamped_end else [(LEAVE, window.leave)]
        events += [
            ForecastEvent(kind, phase, jd, (window.moving,), window, point=window.target)
            for phase, jd in instants
            if _inside(jd, start_jd, end_jd)
        ]
    return events


def station_events(
    start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the stations of the settings' bodies in the range (:class:`kernel.stations.Station`),
    their grids read date by date for every body at once (:func:`kernel.stations.station_grid_samples`)."""
    sampled = station_grid_samples(settings.station_bodies, start_jd, end_jd, deadline)
    return [
        ForecastEvent(STATION, station.event, station.jd, (body,), station)
        for body in settings.station_bodies
        for station in find_stations(body, start_jd, end_jd, deadline, sampled=sampled)
        if _inside(station.jd, start_jd, end_jd)
    ]


def ingress_events(
    start_jd: float,
    end_jd: float,
    settings: ForecastSettings,
    deadline: Deadline,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[ForecastEvent]:
    """Return the sign ingresses of the settings' bodies in the range, each record a
    (:class:`kernel.crossings.Crossing`, sign index) pair as /v1/calendar finds it (its grid's
    samples read from ``sampled`` where it holds them)."""
    return [
        ForecastEvent(INGRESS, "direct" if found[0].direct else "retrograde", found[0].jd, (body,), found)
        for body in settings.ingress_bodies
        for found in sign_ingresses_until(body, start_jd, end_jd, deadline, sampled=sampled)
        if _inside(found[0].jd, start_jd, end_jd)
    ]


def lunation_events(
    chart: Chart,
    start_jd: float,
    end_jd: float,
    settings: ForecastSettings,
    deadline: Deadline,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[ForecastEvent]:
    """Return the lunations of the settings' phases in the range, each with the natal house of
    the Moon's longitude (:class:`kernel.lunations.Lunation`; its grid's samples read from
    ``sampled`` where it holds them)."""
    return [
        ForecastEvent(
            LUNATION,
            lunation.phase,
            lunation.jd,
            (SUN, MOON),
            lunation,
            natal_house=zodiacal_house(lunation.moon_longitude_deg, chart.cusps),
        )
        for lunation in find_lunations(start_jd, end_jd, list(settings.phases), deadline, sampled=sampled)
        if _inside(lunation.jd, start_jd, end_jd)
    ]


def eclipses_at(
    start_jd: float, end_jd: float, deadline: Deadline, found: Sequence[tuple[str, Any]] | None = None
) -> list[EclipseAt]:
    """Return the global solar and lunar eclipses whose maximum lies in the range, solar first,
    each with the longitude it falls at (the Sun's, or the Moon's, apparent geocentric of date):
    those of ``found`` (kind, eclipse) when given, else searched."""
    if found is None:
        found = [
            (kind, eclipse) for kind in (SOLAR, LUNAR) for eclipse in eclipses_between(kind, start_jd, end_jd, deadline)
        ]
    located = []
    for kind, eclipse in found:
        if _inside(eclipse.maximum, start_jd, end_jd):
            body = SUN if kind == SOLAR else MOON
            (position,) = compute_positions(Moment.from_jd_ut1(eclipse.maximum), [body], CalcFlags()).records
            located.append(EclipseAt(kind, eclipse, position.longitude))
    return located


def eclipse_events(
    chart: Chart,
    start_jd: float,
    end_jd: float,
    deadline: Deadline,
    found: Sequence[tuple[str, Any]] | None = None,
) -> list[ForecastEvent]:
    """Return the global eclipses in the range at their maximum, with the natal house of the
    longitude they fall at (:class:`EclipseAt`; those of ``found`` as :func:`eclipses_at` takes them)."""
    return [
        ForecastEvent(
            ECLIPSE,
            at.kind,
            at.eclipse.maximum,
            (SUN, MOON),
            at,
            natal_house=zodiacal_house(at.longitude_deg, chart.cusps),
        )
        for at in eclipses_at(start_jd, end_jd, deadline, found)
    ]


def void_samples(start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline) -> MoonSamples:
    """Return the Moon and the settings' other void-of-course bodies sampled over the span the
    search for the range's void-of-course periods reads (:func:`kernel.void_of_course_periods.sample_span`)."""
    return sample_span(start_jd, end_jd, [body for body in settings.void_bodies if body != MOON], deadline)


def void_events(samples: MoonSamples, settings: ForecastSettings, deadline: Deadline) -> list[ForecastEvent]:
    """Return the void-of-course periods that begin in the range ``samples`` were taken for
    (:func:`void_samples`), at their start, with their end
    (:class:`kernel.void_of_course_periods.VoidPeriod`)."""
    periods: list[VoidPeriod] = periods_sampled(samples, settings.void_aspects, deadline)
    return [
        ForecastEvent(VOID_OF_COURSE, period.sign_key, period.start_jd, (MOON,), period, end_jd=period.end_jd)
        for period in periods
        if _inside(period.start_jd, samples.start_jd, samples.end_jd)
    ]


def body_returns(
    chart: Chart,
    body: str,
    start_jd: float,
    end_jd: float,
    deadline: Deadline,
    sampled: SampledPositions = NOTHING_SAMPLED,
) -> list[BodyReturn]:
    """Return ``body``'s returns to its natal longitude in the range, every crossing counted,
    as /v1/returns finds them from the range's start (tropical, geocentric; the search's grid
    samples read from ``sampled`` where it holds them)."""
    natal = chart.points.longitudes[body]
    found = crossings_until(body, natal, start_jd, end_jd, deadline, flags=CalcFlags(speed=True), sampled=sampled)
    return [BodyReturn(body, c.jd, natal) for c in found if _inside(c.jd, start_jd, end_jd)]


def return_events(
    chart: Chart, start_jd: float, end_jd: float, deadline: Deadline, sampled: SampledPositions = NOTHING_SAMPLED
) -> list[ForecastEvent]:
    """Return the solar and lunar returns in the range (:class:`BodyReturn`; the searches' grid
    samples read from ``sampled`` where it holds them)."""
    return [
        ForecastEvent(RETURN, "solar" if body == SUN else "lunar", found.jd, (body,), found, point=body)
        for body in RETURN_BODIES
        if body in chart.points.longitudes
        for found in body_returns(chart, body, start_jd, end_jd, deadline, sampled)
    ]


def life_query(chart: Chart, start_jd: float, end_jd: float) -> TimeQuery | None:
    """Return the time-lords' query of the range (its start cut to birth), None when the range ends by birth."""
    birth = chart.points.birth.jd_ut1
    return None if end_jd <= birth else TimeQuery(start_jd=max(start_jd, birth), end_jd=end_jd)


def _period_events(
    kind: str,
    periods: Iterable[Period],
    query: TimeQuery,
    start_jd: float,
    end_jd: float,
    lords: Callable[[Period], tuple[str, ...]],
) -> list[ForecastEvent]:
    """Return an event at the start of each period that begins in the range, with the period's
    own end; its record is the period as the technique's endpoint gives it over the range
    (:func:`kernel.time_lord_periods.flatten`: its end clamped to the range's, and flagged)."""
    return [
        ForecastEvent(
            kind,
            f"level_{period.level}",
            period.start_jd,
            lords(period),
            flatten([period], query)[0],
            end_jd=period.end_jd,
        )
        for period in periods
        if _inside(period.start_jd, start_jd, end_jd)
    ]


def profection_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the profection years (level 1) and months (level 2) that begin in the range, as
    /v1/profections gives them (mean years) (:class:`kernel.time_lord_periods.Period`)."""
    query = life_query(chart, start_jd, end_jd)
    if query is None:
        return []
    birth = chart.points.birth.jd_ut1
    from_sign = sign_index(chart.points.longitudes[settings.profection_from])
    found = profections(
        from_sign, birth, mean_boundaries(birth, settings.year_days), settings.profection_months, query, deadline
    )
    return _period_events(PROFECTION, found, query, start_jd, end_jd, lambda p: (p.members["lord"],))


def releasing_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the zodiacal-releasing periods that begin in the range, as /v1/zodiacal-releasing gives them."""
    query = life_query(chart, start_jd, end_jd)
    longitudes = chart.points.longitudes
    if query is None or settings.releasing_from not in longitudes:
        return []
    fortune = sign_index(longitudes[FORTUNE]) if FORTUNE in longitudes else None
    found = releasing(
        sign_index(longitudes[settings.releasing_from]),
        fortune,
        chart.points.birth.jd_ut1,
        settings.releasing_levels,
        query,
        deadline,
    )
    return _period_events(RELEASING, found, query, start_jd, end_jd, lambda p: (p.members["lord"],))


def firdaria_events(
    chart: Chart, start_jd: float, end_jd: float, settings: ForecastSettings, deadline: Deadline
) -> list[ForecastEvent]:
    """Return the firdaria periods that begin in the range, as /v1/firdaria gives them for the chart's sect."""
    query = life_query(chart, start_jd, end_jd)
    if query is None or chart.points.is_day is None:
        return []
    found = firdaria(
        chart.points.birth.jd_ut1, chart.points.is_day, settings.firdaria_order, settings.year_days, query, deadline
    )
    return _period_events(
        FIRDARIA, found, query, start_jd, end_jd, lambda p: tuple(dict.fromkeys((p.members["lord"], *_major(p))))
    )


def _major(period: Period) -> tuple[str, ...]:
    major = period.members.get("major_lord")
    return () if major is None else (major,)
