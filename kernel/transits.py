"""Transit scans: every window in which a moving body stands within orb of an aspect to a
natal point or to another moving body, with the moments the aspect perfects.

How it is found. Each moving body is sampled once on a grid (its step as for crossings:
a day for the Moon, five for the Sun, ten for Pluto; the finest of them all when bodies are
scanned against each other); for every pair the grid is cut at the pair's turning points (where the relative
motion changes sign: a station), so that between two samples the distance to an aspect is
monotonic. The distance's crossings of -orb, 0 and +orb then show as sign changes between
samples (numpy, every target and aspect at once), and each is refined with Newton steps on
the exact ephemeris. A window opens and closes at the ±orb crossings; its exacts are the
zero crossings inside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kernel import bodies as body_table
from kernel import engine
from kernel.aspects import ASPECT_TYPES
from kernel.deadline import Deadline
from kernel.search import TIME_TOLERANCE_DAYS, bisect_sign_change, refine_root

MOON = "moon"
# Dates read between two looks at the deadline: a few milliseconds of engine calls.
_DATES_PER_CHECK = 60
# Source: interface.md, Limits: the longest transit range, days (with moon=include, shorter).
MAX_RANGE_DAYS = 366.0
MAX_RANGE_DAYS_WITH_MOON = 183.0
#: The Moon policies of a scan (interface.md, /v1/transits ``moon``): scan the Moon only for its
#: returns on a long range, scan it fully, or leave it out.
RETURNS_ONLY, INCLUDE, EXCLUDE = "returns_only", "include", "exclude"
#: From this range (days) on, returns_only scans the Moon for its returns alone.
MOON_RETURNS_ONLY_FROM_DAYS = 14.0


@dataclass
class TransitEvent:
    """One contiguous in-orb window of ``moving`` to ``target`` by ``aspect``: ``enter`` and
    ``leave`` (UT1 JD; the range's ends when clamped) and the ``exacts`` inside it, ascending."""

    moving: str
    aspect: str
    target: str
    enter: float
    leave: float
    exacts: list[float] = field(default_factory=list)
    clamped_start: bool = False
    clamped_end: bool = False


def _configurations(aspects: Sequence[str]) -> list[tuple[str, float]]:
    """Return (aspect, signed angle) for each aspect: both sides of the circle, once for 0° and 180°."""
    out = []
    for name in aspects:
        angle = ASPECT_TYPES[name].angle_deg
        out += [(name, angle)] if angle in (0.0, 180.0) else [(name, angle), (name, -angle)]
    return out


def _wrap(values):
    return (values + 180.0) % 360.0 - 180.0


class _Body:
    """A moving body's apparent geocentric longitude of date and speed, sampled (``samples``:
    (longitude, speed) at each time of its grid) and on demand."""

    def __init__(self, name: str, samples: list[tuple[float, float]]):
        self.name = name
        #: jd (UT1) -> (longitude, speed): degrees and degrees per day.
        self.at = engine.longitude_and_speed(body_table.engine_number(name), engine.FLG_SPEED)
        values = np.array(samples)
        self.longitudes, self.speeds = values[:, 0], values[:, 1]

    def with_stations(self, times: np.ndarray, deadline: Deadline) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the samples with the body's stations inserted (found once, shared by every
        natal target: against a fixed point the only turning points are the body's own)."""
        if not hasattr(self, "_stations"):
            extra = []
            for i in np.flatnonzero(np.signbit(self.speeds[:-1]) != np.signbit(self.speeds[1:])):
                deadline.check()
                turn = bisect_sign_change(
                    lambda t: self.at(t)[1], float(times[i]), float(times[i + 1]), float(self.speeds[i])
                )
                extra.append((turn, *self.at(turn)))
            self._stations = _merged(times, self.longitudes, self.speeds, extra)
        return self._stations


@dataclass(frozen=True)
class _Pair:
    moving: _Body
    target: str
    fixed_longitude: float | None
    other: _Body | None

    def offset(self, jd: float) -> tuple[float, float]:
        """The moving body's longitude minus the target's (degrees, unwrapped) and its rate."""
        lon, speed = self.moving.at(jd)
        if self.other is None:
            return lon - self.fixed_longitude, speed
        other_lon, other_speed = self.other.at(jd)
        return lon - other_lon, speed - other_speed

    def distance(self, angle: float, level: float) -> Callable[[float], tuple[float, float]]:
        """Return jd -> (the offset's distance past ``angle``, wrapped to [-180, 180), minus
        ``level``; its rate): degrees and degrees per day. The arithmetic of :meth:`offset`
        and :func:`_wrap` in one function, since a scan calls it a hundred thousand times."""
        at, fixed = self.moving.at, self.fixed_longitude
        if self.other is None:

            def fixed_distance(jd: float) -> tuple[float, float]:
                lon, speed = at(jd)
                return (lon - fixed - angle + 180.0) % 360.0 - 180.0 - level, speed

            return fixed_distance
        other_at = self.other.at

        def mutual_distance(jd: float) -> tuple[float, float]:
            (lon, speed), (other_lon, other_speed) = at(jd), other_at(jd)
            return (lon - other_lon - angle + 180.0) % 360.0 - 180.0 - level, speed - other_speed

        return mutual_distance


def sampled_bodies(grids: dict[str, np.ndarray], deadline: Deadline) -> dict[str, _Body]:
    """Return each body of ``grids`` sampled at its grid's times. Bodies on one grid (the same
    array: one step, Jupiter and Saturn, Uranus to Pluto) are read date by date, all of them at a
    date in turn, which costs the engine a third for each after the first; the same values."""
    on_grid: dict[int, list[str]] = {}
    for name, times in grids.items():
        on_grid.setdefault(id(times), []).append(name)
    bodies = {}
    for names in on_grid.values():
        times = grids[names[0]].tolist()
        numbers = [body_table.engine_number(name) for name in names]
        rows: list[list[tuple[float, float]]] = []
        for block in range(0, len(times), _DATES_PER_CHECK):
            deadline.check()
            rows += engine.longitudes_and_speeds_by_date(
                numbers, engine.FLG_SPEED, times[block : block + _DATES_PER_CHECK]
            )
        for index, name in enumerate(names):
            bodies[name] = _Body(name, [row[index] for row in rows])
    return {name: bodies[name] for name in grids}


def _merged(times, offsets, rates, extra: list[tuple[float, float, float]]):
    """Return the samples with ``extra`` (time, offset, rate) samples inserted in time order."""
    if not extra:
        return times, offsets, rates
    extra_t, extra_o, extra_r = (np.array(column) for column in zip(*extra))
    all_t = np.concatenate([times, extra_t])
    order = np.argsort(all_t, kind="stable")
    return all_t[order], np.concatenate([offsets, extra_o])[order], np.concatenate([rates, extra_r])[order]


def _mutual_samples(pair: _Pair, times: np.ndarray, deadline: Deadline) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return a pair of moving bodies' sample times, offsets and rates with its turning points inserted."""
    offsets, rates = pair.moving.longitudes - pair.other.longitudes, pair.moving.speeds - pair.other.speeds
    extra = []
    for i in np.flatnonzero(np.signbit(rates[:-1]) != np.signbit(rates[1:])):
        deadline.check()
        turn = bisect_sign_change(lambda t: pair.offset(t)[1], float(times[i]), float(times[i + 1]), float(rates[i]))
        extra.append((turn, *pair.offset(turn)))
    return _merged(times, offsets, rates, extra)


def _crossings(
    pairs: Sequence[_Pair], times, offsets, angles: np.ndarray, levels: np.ndarray, deadline: Deadline
) -> list[list[list[list[float]]]]:
    """Return, for each of ``pairs`` (its offsets a row of ``offsets``, sampled at ``times``), each
    of ``angles`` and each of ``levels`` (degrees), when the pair's distance from the angle
    crosses the level, ascending: ``found[pair][angle][level]``. The samples of every pair, angle
    and level are compared in one array (a body against a chart's points has hundreds), each
    bracket then refined."""
    values = _wrap(offsets[:, None, None, :] - angles[None, :, None, None]) - levels[None, None, :, None]
    before, after = values[..., :-1], values[..., 1:]
    brackets = (np.signbit(before) != np.signbit(after)) & (np.abs(after - before) < 180.0)
    found: list[list[list[list[float]]]] = [[[[] for _ in levels] for _ in angles] for _ in pairs]
    distances: dict[tuple[int, int, int], Callable[[float], tuple[float, float]]] = {}
    at_pair, at_angle, at_level, at_step = np.nonzero(brackets)
    # Each bracket's ends and values as Python floats, read out of the arrays at once.
    ends = zip(
        at_pair.tolist(),
        at_angle.tolist(),
        at_level.tolist(),
        times[at_step].tolist(),
        times[at_step + 1].tolist(),
        values[at_pair, at_angle, at_level, at_step].tolist(),
        values[at_pair, at_angle, at_level, at_step + 1].tolist(),
    )
    for pair, angle, level, low, high, value_low, value_high in ends:
        deadline.check()
        distance = distances.get((pair, angle, level))
        if distance is None:
            distance = distances[(pair, angle, level)] = pairs[pair].distance(
                float(angles[angle]), float(levels[level])
            )
        found[pair][angle][level].append(refine_root(distance, low, high, value_low, value_high))
    return found


def _pair_windows(
    pairs: Sequence[_Pair], configurations: list[tuple[str, float]], orb: float, times, offsets, deadline: Deadline
) -> list[list[TransitEvent]]:
    """Return each pair's in-orb windows of every signed aspect angle over the sampled range, the
    pairs sampled at the same ``times`` (their offsets the rows of ``offsets``)."""
    angles = np.array([angle for _, angle in configurations], dtype=float)
    crossings = _crossings(pairs, times, offsets, angles, np.array([orb, -orb, 0.0]), deadline)
    in_orb_at_start = (np.abs(_wrap(offsets[:, :1] - angles[None, :])) <= orb).tolist()
    span = float(times[0]), float(times[-1])
    found: list[list[TransitEvent]] = []
    for pair, pair_crossings, pair_in_orb in zip(pairs, crossings, in_orb_at_start):
        events: list[TransitEvent] = []
        for (aspect, _), (outer, inner, exacts), in_orb in zip(configurations, pair_crossings, pair_in_orb):
            events += _windows(pair, aspect, span, in_orb, sorted(outer + inner), exacts)
        found.append(events)
    return found


def _windows(
    pair: _Pair, aspect: str, span: tuple[float, float], in_orb_at_start: bool, edges: list[float], exacts: list[float]
) -> list[TransitEvent]:
    """Return the pair's in-orb windows of one signed aspect angle over ``span`` (UT1 JD) from
    its ±orb crossings (``edges``) and its exact contacts, ascending."""
    start, end = span
    # Each ±orb crossing toggles the pair in or out of orb; one in orb at the start opens a
    # window clamped to it, one still in orb at the end is clamped to that.
    opened: float | None = start if in_orb_at_start else None
    clamped = opened is not None
    events: list[TransitEvent] = []
    for edge in edges:
        if opened is None:
            opened, clamped = edge, False
            continue
        events.append(TransitEvent(pair.moving.name, aspect, pair.target, opened, edge, clamped_start=clamped))
        opened = None
    if opened is not None:
        events.append(
            TransitEvent(pair.moving.name, aspect, pair.target, opened, end, clamped_start=clamped, clamped_end=True)
        )
    for event in events:
        event.exacts = [
            t for t in exacts if event.enter - TIME_TOLERANCE_DAYS <= t <= event.leave + TIME_TOLERANCE_DAYS
        ]
    return events


def _grid(start: float, end: float, step: float) -> np.ndarray:
    count = max(int(np.ceil((end - start) / step)), 1)
    return np.linspace(start, end, count + 1)


def scan(
    start_jd: float,
    end_jd: float,
    moving: Sequence[str],
    targets: Sequence[tuple[str, float | None]],
    aspects: Sequence[str],
    orb: float,
    deadline: Deadline,
) -> list[TransitEvent]:
    """Return every in-orb window over [start_jd, end_jd] (UT1 JD) of each moving body to each
    target, ordered by enter, then moving, then target (both in the order given).

    ``targets`` are (name, fixed longitude) for natal points, or (moving body name, None) to
    scan moving bodies against each other, each unordered pair once. Windows
    open and close where the distance to the aspect crosses ``orb`` (degrees), clamped to the
    range's ends, with every exact contact inside (refined to 1 ms).

    A moving body whose ephemeris does not cover the range raises OutOfRange about ``moving``.
    """
    names = list(dict.fromkeys([*moving, *(name for name, longitude in targets if longitude is None)]))
    for name in names:
        body_table.check_span(name, start_jd, end_jd, about="moving")
    if any(longitude is None for _, longitude in targets):
        # Moving bodies against each other: one grid for all, fine enough for the fastest pair.
        common = _grid(start_jd, end_jd, min(body_table.step_days(name) for name in names))
        grids = dict.fromkeys(names, common)
    else:
        # Against fixed points only a body's own motion matters: each on the grid its speed allows.
        by_step: dict[float, np.ndarray] = {}
        grids = {
            name: by_step.setdefault(step, _grid(start_jd, end_jd, step))
            for name, step in ((name, body_table.step_days(name)) for name in names)
        }
    bodies = sampled_bodies(grids, deadline)
    configurations = _configurations(aspects)
    events: list[TransitEvent] = []
    rank_moving = {name: i for i, name in enumerate(moving)}
    fixed = [(target, longitude) for target, longitude in targets if longitude is not None]
    for name in moving:
        body = bodies[name]
        # Against fixed points a body's samples (its stations inserted) serve every point: one
        # array for them all, each point's windows taken in the order of the targets.
        fixed_windows = iter(_fixed_windows(body, fixed, configurations, orb, grids[name], deadline) if fixed else [])
        for target, longitude in targets:
            if longitude is not None:
                events += next(fixed_windows)
                continue
            # Moving bodies against each other pair once each (and never with themselves); a
            # natal point of the same name is a real target (the Sun returning to the natal Sun).
            if target == name or rank_moving.get(target, len(moving)) < rank_moving[name]:
                continue
            pair = _Pair(body, target, None, bodies[target])
            pair_times, offsets, _ = _mutual_samples(pair, grids[name], deadline)
            (windows,) = _pair_windows([pair], configurations, orb, pair_times, offsets[None, :], deadline)
            events += windows
    rank_target = {name: i for i, (name, _) in enumerate(targets)}
    events.sort(key=lambda e: (e.enter, rank_moving[e.moving], rank_target[e.target]))
    return events


def _fixed_windows(
    body: _Body,
    points: list[tuple[str, float]],
    configurations: list[tuple[str, float]],
    orb: float,
    times: np.ndarray,
    deadline: Deadline,
) -> list[list[TransitEvent]]:
    """Return the in-orb windows of ``body`` to each of ``points`` (name, longitude in degrees), in their order."""
    body_times, longitudes, _ = body.with_stations(times, deadline)
    offsets = longitudes[None, :] - np.array([longitude for _, longitude in points], dtype=float)[:, None]
    pairs = [_Pair(body, name, longitude, None) for name, longitude in points]
    return _pair_windows(pairs, configurations, orb, body_times, offsets, deadline)


@dataclass
class TransitScan:
    """A transit scan's answer: the ``moving`` bodies it kept (without the Moon under
    ``exclude``), its ``events`` (ordered by enter, then moving body, then target, each in the
    order given) and the ``notes`` its Moon policy adds (prose)."""

    moving: list[str]
    events: list[TransitEvent]
    notes: list[str]


def scan_transits(
    start_jd: float,
    end_jd: float,
    moving: Sequence[str],
    points: Sequence[tuple[str, float]] | None,
    aspects: Sequence[str],
    orb: float,
    moon: str,
    deadline: Deadline,
) -> TransitScan:
    """Return the transit scan of ``moving`` bodies over [start_jd, end_jd] (UT1 JD): against
    the natal ``points`` (name, longitude in degrees), or against each other when ``points`` is
    None, with ``aspects`` within ``orb`` degrees, under the Moon policy ``moon``:

    - ``exclude``: the Moon is not scanned (nor kept among the moving bodies);
    - ``include``: the Moon is scanned as every body is;
    - ``returns_only``: on a range of MOON_RETURNS_ONLY_FROM_DAYS or more the Moon is scanned
      only for its conjunction to the natal Moon (the lunar return), and a note says what was
      dropped; on a shorter range, as every body is.
    """
    kept = [body for body in moving if not (moon == EXCLUDE and body == MOON)]
    returns_only = MOON in kept and moon == RETURNS_ONLY and end_jd - start_jd >= MOON_RETURNS_ONLY_FROM_DAYS
    scanned = [body for body in kept if not (returns_only and body == MOON)]
    targets: list[tuple[str, float | None]] = [(name, None) for name in scanned] if points is None else list(points)
    events = scan(start_jd, end_jd, scanned, targets, aspects, orb, deadline)
    notes: list[str] = []
    if returns_only:
        natal_moon = [(name, longitude) for name, longitude in (points or []) if name == MOON]
        if natal_moon:
            events += scan(start_jd, end_jd, [MOON], natal_moon, ["conjunction"], orb, deadline)
        notes.append(_returns_only_note(aspects, [name for name, _ in targets if name != MOON], bool(natal_moon)))
    rank_moving = {name: i for i, name in enumerate(kept)}
    rank_target = {name: i for i, name in enumerate([n for n, _ in points] if points else kept)}
    events.sort(key=lambda e: (e.enter, rank_moving[e.moving], rank_target[e.target]))
    return TransitScan(kept, events, notes)


def _returns_only_note(aspects: Sequence[str], others: list[str], natal_moon: bool) -> str:
    kept = (
        "only for its conjunction to the natal Moon (the lunar return)"
        if natal_moon
        else "not at all (no natal Moon is among the targets)"
    )
    return (
        f"moon=returns_only on a range of {MOON_RETURNS_ONLY_FROM_DAYS:g} days or more: the Moon was scanned {kept}; "
        f"dropped: the Moon's {', '.join(aspects)} to {', '.join(others)}. Send moon=include (183 days at most) to "
        "scan them."
    )
