"""What an uncertain birth time changes: for a birth and a window of birth times around it,
each fact of the chart (the angles' signs, each body's sign and house, the aspects to the
angles, the Moon's nakshatra and pada, the first Vimshottari lord, the profection's lord) with
the interval of birth times around the given one over which it holds, and the times at which
any fact changes (docs/sensitivity.md names every fact).

Every fact is constant between the instants at which one angle of the chart crosses a
boundary: a sign or nakshatra edge, a cusp, a body's longitude plus an aspect's angle and orb.
Those instants are found in two ways, each to well under a second:

- a body's own boundaries (sign, nakshatra, pada) with the kernel's root finder
  (:func:`kernel.search.find_offset_roots`, refined to 1 ms on the ephemeris itself);
- the houses' boundaries (the angles' signs and nakshatras, the cusps passing the bodies, the
  aspects to the angles) on the houses computed by the ephemeris every :data:`GRID_STEP_S`
  seconds: between two samples the angle is the cubic through the four samples around them
  (its error, a fourth difference of a function of period one sidereal day, is below 1e-6
  degree at a two-minute step), whose crossing is bisected to :data:`ROOT_TOLERANCE_S`;
- except in a *rough* step, where the houses' fourth difference exceeds
  :data:`ROUGH_FOURTH_DIFFERENCE_DEG`: near and inside the polar circles the Ascendant races
  (tens of degrees a minute at 66.4°, where no cubic follows it) or jumps by 180° (beyond
  them, where the ecliptic's rising point flips to the other side), so there each crossing is
  bisected on houses computed by the ephemeris at every step of the bisection, and the facts
  are read from such houses too.

The facts' values are then read once in each interval between consecutive candidate
instants; an instant at which no value differs is dropped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from kernel import engine
from kernel.aspects import ASPECT_TYPES, ORB_TOLERANCE_DEG
from kernel.ayanamshas import Ayanamsha
from kernel.conditions import HIGH_LATITUDE, Condition
from kernel.crossings import longitude_and_speed
from kernel.deadline import Deadline
from kernel.dignity_tables import TRADITIONAL_RULERS
from kernel.nakshatras import NAKSHATRA_TABLE, PADA_DEG, SPAN_DEG
from kernel.positions import CalcFlags, Observer, engine_state
from kernel.search import find_offset_roots
from kernel.zodiac import SIGN_KEYS, SIGN_WIDTH_DEG

SECONDS_PER_DAY = 86_400.0
# The houses are sampled every two minutes: outside the polar circles the Ascendant and cusps
# move one way, a few degrees at most between two samples, so each crossing is bracketed.
GRID_STEP_S = 120.0
# A crossing of the interpolated angle is bisected to this; the boundaries are promised to 1 s.
ROOT_TOLERANCE_S = 0.01
# Halvings of a step that bring a crossing to ROOT_TOLERANCE_S.
_BISECTIONS = math.ceil(math.log2(GRID_STEP_S / ROOT_TOLERANCE_S)) + 1
# A step whose houses' fourth difference (degrees, any of the Ascendant, MC and cusps, over
# the five samples around either end) exceeds this is rough: the cubic's error there, about a
# twenty-fifth of it, could pass 1 s of birth time. Below 60° of latitude the largest is 4e-4
# (200 births of tests/unit/kernel/test_birth_time_sensitivity.py); at 66.4° it reaches 80
# and beyond the polar circles the Ascendant's 180° jump makes it hundreds.
ROUGH_FOURTH_DIFFERENCE_DEG = 1e-3
# Chebyshev nodes per body over the window: the Moon's longitude over a day is a polynomial of
# degree 6 to far below a milliarcsecond (its largest term, 6.3 degrees over 27.6 days, has a
# seventh derivative of 2e-4 degree per day^7), so the samples between the nodes are the
# ephemeris's to that.
BODY_NODES = 7
_CHEBYSHEV_NODES = np.cos(np.pi * (np.arange(BODY_NODES) + 0.5) / BODY_NODES)
# The Chebyshev coefficients of the polynomial through values at those nodes: the inverse of
# their Vandermonde matrix, the same for every window.
_CHEBYSHEV_FIT = np.linalg.inv(np.polynomial.chebyshev.chebvander(_CHEBYSHEV_NODES, BODY_NODES - 1))
# The longest window either side of the birth, days (issue 52: up to ±12 h).
MAX_WINDOW_DAYS = 0.5
# The ayanamsha of the Moon's nakshatra, pada and Vimshottari lord when the chart is tropical:
# /v1/vedic's default (docs/vedic.md).
VEDIC_DEFAULT_AYANAMSHA = "lahiri"
# Profection years of /v1/profections' default length (mean years of 365.2422 days).
PROFECTION_YEAR_DAYS = 365.2422
# An angle's unwrapped value is a multiple of the circle away from any boundary it crosses.
_CIRCLE = 360.0
WHOLE_SIGN_LETTER = "W"
# The system Swiss Ephemeris falls back to where another has no cusps (kernel/houses.py).
POLAR_FALLBACK_LETTER = "O"
NAKSHATRA_NAMES = tuple(name for name, _ in NAKSHATRA_TABLE)
NAKSHATRA_LORDS = tuple(lord for _, lord in NAKSHATRA_TABLE)
HOUSE_NUMBERS = tuple(str(n) for n in range(1, 13))
PADA_NUMBERS = tuple(str(n) for n in range(1, 5))


@dataclass(frozen=True)
class SensitivityQuery:
    """A birth and what to read around it: ``birth_jd`` (UT1), the ``place``, the house
    ``letter``, ``bodies`` (resolved names, chart order), ``flags`` (their zodiac), the
    ``aspect_types`` and the one ``orb_deg`` replacing their default orbs (None: each its own),
    ``window_days`` either side of the birth, the ``vedic_ayanamsha`` of the Moon's nakshatra
    when the chart is tropical, and the instant ``at_jd`` whose profection is read (None: none)."""

    birth_jd: float
    place: Observer
    letter: str
    bodies: tuple[str, ...]
    flags: CalcFlags
    aspect_types: tuple[str, ...]
    orb_deg: float | None
    window_days: float
    vedic_ayanamsha: Ayanamsha
    at_jd: float | None


@dataclass(frozen=True)
class FactSpan:
    """One fact at the birth: its ``value`` and the interval of birth times around the birth
    over which it holds, ``holds_from`` to ``holds_until`` (UT1 JD), None where it holds to
    the window's edge."""

    fact: str
    value: str | None
    holds_from: float | None
    holds_until: float | None


@dataclass(frozen=True)
class FactChange:
    """One fact changing at a birth time: its value ``before`` and ``after`` it."""

    fact: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class ChartChange:
    """The chart changing at ``jd`` (UT1): the facts that change there."""

    jd: float
    facts: tuple[FactChange, ...]


@dataclass(frozen=True)
class Sensitivity:
    """The facts at the birth and every change inside the window ``start_jd`` to ``end_jd``."""

    start_jd: float
    end_jd: float
    facts: tuple[FactSpan, ...]
    changes: tuple[ChartChange, ...]
    warnings: tuple[Condition, ...] = ()


def birth_time_sensitivity(query: SensitivityQuery, deadline: Deadline) -> Sensitivity:
    """Return each fact of the chart at ``query.birth_jd`` with the birth times over which it
    holds inside the window, and the instants at which the chart changes, in time order."""
    start = query.birth_jd - query.window_days
    end = query.birth_jd + query.window_days
    grid = _Grid(query, start, end)
    deadline.check()
    candidates = [*grid.house_crossings(), *_body_boundaries(query, start, end, deadline)]
    if query.at_jd is not None:
        age = math.floor((query.at_jd - query.birth_jd) / PROFECTION_YEAR_DAYS)
        candidates += [query.at_jd - years * PROFECTION_YEAR_DAYS for years in (age, age + 1)]
    cuts = np.unique(np.asarray([t for t in candidates if start < t < end], dtype=float))
    edges = np.concatenate(([start], cuts, [end]))
    values = grid.facts_at(0.5 * (edges[:-1] + edges[1:]))
    here = int(np.searchsorted(cuts, query.birth_jd, side="right"))
    facts = []
    for name, (codes, labels) in values.items():
        differs = np.nonzero(codes[1:] != codes[:-1])[0]
        before = differs[differs < here]
        after = differs[differs >= here]
        facts.append(
            FactSpan(
                name,
                labels[codes[here]],
                float(cuts[before[-1]]) if len(before) else None,
                float(cuts[after[0]]) if len(after) else None,
            )
        )
    matrix = np.stack([codes for codes, _ in values.values()])
    names = list(values)
    label_sets = [labels for _, labels in values.values()]
    changes = []
    for index in np.nonzero(np.any(matrix[:, 1:] != matrix[:, :-1], axis=0))[0]:
        changed = tuple(
            FactChange(names[f], label_sets[f][matrix[f, index]], label_sets[f][matrix[f, index + 1]])
            for f in np.nonzero(matrix[:, index] != matrix[:, index + 1])[0]
        )
        changes.append(ChartChange(float(cuts[index]), changed))
    return Sensitivity(start, end, tuple(facts), tuple(changes), grid.warnings)


class _Grid:
    """The chart's angles sampled over the window (the houses every GRID_STEP_S from the
    ephemeris, the bodies from their Chebyshev fits), each unwrapped into a continuous
    function of time, with the facts read from them."""

    def __init__(self, query: SensitivityQuery, start: float, end: float):
        self.query = query
        self.step = GRID_STEP_S / SECONDS_PER_DAY
        count = math.ceil((end - start) / self.step)
        # One sample more either side, so that every step inside the window has the four
        # samples its cubic needs.
        self.times = start + self.step * np.arange(-1, count + 2)
        self.t0 = float(self.times[0])
        self.sidereal = query.flags.sidereal is not None
        houses, used = _houses(query, self.times)
        self.letter = used
        self.warnings: tuple[Condition, ...] = ()
        if used != query.letter:
            self.warnings = (
                Condition(
                    HIGH_LATITUDE,
                    f"The houses of letter {query.letter} do not exist at latitude {query.place.latitude_deg:.2f}° "
                    "for part of the window; every house fact is read in Porphyrius houses instead.",
                ),
            )
        # Whole-sign cusps jump with the Ascendant's sign: no cubic follows them, and a body
        # changes house only when the Ascendant changes sign.
        self.whole_sign = used == WHOLE_SIGN_LETTER
        self.asc = np.unwrap(houses[:, 0], period=_CIRCLE)
        self.mc = np.unwrap(houses[:, 1], period=_CIRCLE)
        self.cusps = np.unwrap(houses[:, 2:], period=_CIRCLE, axis=0)
        self.rough = self._rough_steps()
        self.bodies = _body_samples(query.bodies, query.flags, query.place, self.times, start, end)
        vedic_flags = replace(query.flags, sidereal=query.vedic_ayanamsha) if not self.sidereal else query.flags
        self.vedic_moon = _body_samples(("moon",), vedic_flags, query.place, self.times, start, end)[:, 0]
        self.start, self.end = start, end
        self.aspects = [ASPECT_TYPES[name] for name in query.aspect_types]
        self._exact = np.asarray([a.angle_deg for a in self.aspects])
        self._orbs = np.asarray(
            [query.orb_deg if query.orb_deg is not None else a.default_orb_deg for a in self.aspects]
        )

    def house_crossings(self) -> list[float]:
        """Return every instant in the window at which an angle or cusp crosses a boundary of
        a fact: the angles' sign (and nakshatra) edges, each cusp passing each body, each body's
        distance from the Ascendant and MC passing an aspect's edge or the point where two
        aspects' orbs are equal."""
        angles = np.stack([self.asc, self.mc], axis=1)

        def exact_angles(times: np.ndarray) -> np.ndarray:
            return self._exact_houses(times)[:, :2]

        def exact_passing(times: np.ndarray) -> np.ndarray:
            cusps = self._exact_houses(times)[:, 2:]
            return (cusps[:, :, None] - self._at(self.bodies, times)[:, None, :]).reshape(len(times), -1)

        def exact_distances(times: np.ndarray) -> np.ndarray:
            angles = self._exact_houses(times)[:, :2]
            return (angles[:, :, None] - self._at(self.bodies, times)[:, None, :]).reshape(len(times), -1)

        found = self._crossings(angles, np.arange(0.0, _CIRCLE, SIGN_WIDTH_DEG), exact_angles)
        if self.sidereal:
            found += self._crossings(angles, np.arange(0.0, _CIRCLE, SPAN_DEG), exact_angles)
        if self.bodies.shape[1] and not self.whole_sign:
            passing = (self.cusps[:, :, None] - self.bodies[:, None, :]).reshape(len(self.times), -1)
            found += self._crossings(passing, np.zeros(1), exact_passing)
        if self.bodies.shape[1]:
            distances = (angles[:, :, None] - self.bodies[:, None, :]).reshape(len(self.times), -1)
            found += self._crossings(distances, np.asarray(self._aspect_edges()) % _CIRCLE, exact_distances)
        return found

    def _rough_steps(self) -> np.ndarray:
        """Return, for each step of the grid (samples i to i + 1), whether the cubic through
        the four samples around it may be off: the fourth difference of the Ascendant, the MC
        or a cusp (not whole-sign cusps, which are no cubic's) centred on i or i + 1 exceeds
        ROUGH_FOURTH_DIFFERENCE_DEG."""
        series = np.column_stack([self.asc, self.mc] + ([] if self.whole_sign else [self.cusps]))
        # The fourth difference centred on samples 2 .. n - 3.
        fourth = np.abs(np.diff(series, n=4, axis=0)).max(axis=1) > ROUGH_FOURTH_DIFFERENCE_DEG
        centred = np.zeros(len(self.times) + 1, dtype=bool)
        centred[2 : len(self.times) - 2] = fourth
        return centred[:-1] | centred[1:]

    def _exact_houses(self, times: np.ndarray) -> np.ndarray:
        """Return the Ascendant, the MC and the 12 cusps (degrees, rows as :func:`_houses`'s)
        at each of ``times``, computed by the ephemeris in the system the grid used."""
        return _house_rows(self.query, self.letter, times)

    def _aspect_orbs(self) -> list[float]:
        """Return each aspect type's orb (degrees): the query's one orb, else its default."""
        orb = self.query.orb_deg
        return [orb if orb is not None else a.default_orb_deg for a in self.aspects]

    def _aspect_edges(self) -> list[float]:
        """Return the signed distances body to angle at which the best aspect may change: each
        aspect's angle plus and minus its orb, and the midpoint between two aspects' angles
        where their orbs overlap (the smaller orb wins on either side of it)."""
        orbs = self._aspect_orbs()
        edges = [a.angle_deg + side * orb for a, orb in zip(self.aspects, orbs) for side in (-1.0, 1.0)]
        edges += [
            0.5 * (a.angle_deg + b.angle_deg)
            for i, (a, orb_a) in enumerate(zip(self.aspects, orbs))
            for b, orb_b in zip(self.aspects[i + 1 :], orbs[i + 1 :])
            if abs(a.angle_deg - b.angle_deg) <= orb_a + orb_b + ORB_TOLERANCE_DEG
        ]
        return sorted({e for edge in edges for e in (edge, -edge)})

    def _crossings(self, series: np.ndarray, edges: np.ndarray, exact) -> list[float]:
        """Return the instants inside the window at which a column of ``series`` (unwrapped
        degrees on the grid) passes one of ``edges`` (degrees, modulo 360): on the cubic
        between samples, or in a rough step on ``exact`` (times -> the series' rows computed
        by the ephemeris)."""
        edges = np.unique(edges % _CIRCLE)
        turns = np.floor(series / _CIRCLE)
        # How many edges lie at or below each sample, counted along the unwrapped circle.
        rank = turns * len(edges) + np.searchsorted(edges, series - turns * _CIRCLE, side="right")
        step_index, column = np.nonzero(rank[1:-2] != rank[2:-1])
        if not len(step_index):
            return []
        index = step_index + 1
        rows, targets = [], []
        for i, c in zip(index.tolist(), column.tolist()):
            low, high = sorted((rank[i, c], rank[i + 1, c]))
            for r in range(int(low), int(high)):
                turn, k = divmod(r, len(edges))
                rows.append((i, c))
                targets.append(turn * _CIRCLE + edges[k])
        at = np.asarray(rows)
        targets_array = np.asarray(targets)
        samples = np.stack([series[at[:, 0] + k, at[:, 1]] for k in (-1, 0, 1, 2)], axis=1)
        fraction = _cubic_root(samples - targets_array[:, None])
        rough = self.rough[at[:, 0]]
        if rough.any():
            fraction[rough] = self._exact_root(series, at[rough], targets_array[rough], exact)
        return (self.times[at[:, 0]] + fraction * self.step).tolist()

    def _exact_root(self, series: np.ndarray, at: np.ndarray, targets: np.ndarray, exact) -> np.ndarray:
        """Return, for each (step, column) of ``at``, where in the step (a fraction of it) the
        column of ``series`` computed by ``exact`` passes its target, bisected to
        ROOT_TOLERANCE_S. Each value is read as the turn nearest the middle of the step's two
        samples: a racing angle stays between them, and one that jumps 180° is on the side of
        one or the other, so that every edge the jump passes is placed at the jump."""
        low_sample = series[at[:, 0], at[:, 1]]
        middle_sample = 0.5 * (low_sample + series[at[:, 0] + 1, at[:, 1]])
        below = low_sample < targets
        low = np.zeros(len(at))
        high = np.ones(len(at))
        start = self.times[at[:, 0]]
        columns = np.arange(len(at))
        for _ in range(_BISECTIONS):
            middle = 0.5 * (low + high)
            value = exact(start + middle * self.step)[columns, at[:, 1]]
            value += _CIRCLE * np.round((middle_sample - value) / _CIRCLE)
            same = (value < targets) == below
            low = np.where(same, middle, low)
            high = np.where(same, high, middle)
        return 0.5 * (low + high)

    def _at(self, series: np.ndarray, times: np.ndarray) -> np.ndarray:
        """Return ``series`` (rows on the grid) at ``times``, each the cubic through the four
        samples around it."""
        position = (times - self.t0) / self.step
        index = np.clip(np.floor(position).astype(int), 1, len(self.times) - 3)
        x = position - index
        weights = _lagrange_weights(x)
        rows = np.stack([series[index + k] for k in (-1, 0, 1, 2)], axis=1)
        return np.einsum("pk,pk...->p...", weights, rows)

    def facts_at(self, times: np.ndarray) -> dict[str, tuple[np.ndarray, Sequence[str | None]]]:
        """Return each fact's value at each of ``times`` (UT1 JD inside the window), by name in
        the documented order: an array of codes and the values they stand for."""
        asc = self._at(self.asc, times) % _CIRCLE
        mc = self._at(self.mc, times) % _CIRCLE
        cusps = None if self.whole_sign else self._at(self.cusps, times) % _CIRCLE
        rough = self.rough[np.clip(np.floor((times - self.t0) / self.step).astype(int), 0, len(self.rough) - 1)]
        if rough.any():
            exact = self._exact_houses(times[rough]) % _CIRCLE
            asc[rough], mc[rough] = exact[:, 0], exact[:, 1]
            if cusps is not None:
                cusps[rough] = exact[:, 2:]
        if cusps is None:
            cusps = (np.floor(asc / SIGN_WIDTH_DEG)[:, None] + np.arange(12)[None, :]) * SIGN_WIDTH_DEG % _CIRCLE
        bodies = self._at(self.bodies, times) % _CIRCLE if self.bodies.shape[1] else None
        moon = self._at(self.vedic_moon, times) % _CIRCLE
        signs = (np.floor(asc / SIGN_WIDTH_DEG).astype(int) % 12, SIGN_KEYS)
        facts = {"asc_sign": signs, "mc_sign": (np.floor(mc / SIGN_WIDTH_DEG).astype(int) % 12, SIGN_KEYS)}
        if self.sidereal:
            facts["asc_nakshatra"] = (_nakshatra_numbers(asc), NAKSHATRA_NAMES)
            facts["mc_nakshatra"] = (_nakshatra_numbers(mc), NAKSHATRA_NAMES)
        aspect_names = [a.name for a in self.aspects] + [None]
        for index, body in enumerate(self.query.bodies):
            lon = bodies[:, index]
            facts[f"{body}_sign"] = (np.floor(lon / SIGN_WIDTH_DEG).astype(int) % 12, SIGN_KEYS)
            past = (lon[:, None] - cusps) % _CIRCLE
            facts[f"{body}_house"] = (np.argmin(past, axis=1), HOUSE_NUMBERS)
            facts[f"{body}_aspect_asc"] = (self._best_aspects(lon, asc), aspect_names)
            facts[f"{body}_aspect_mc"] = (self._best_aspects(lon, mc), aspect_names)
        nakshatras = _nakshatra_numbers(moon)
        facts["moon_nakshatra"] = (nakshatras, NAKSHATRA_NAMES)
        facts["moon_pada"] = (np.floor(moon / PADA_DEG).astype(int) % 4, PADA_NUMBERS)
        facts["vimshottari_lord"] = (nakshatras, NAKSHATRA_LORDS)
        if self.query.at_jd is not None:
            ages = np.floor((self.query.at_jd - times) / PROFECTION_YEAR_DAYS).astype(int)
            facts["profection_lord"] = ((signs[0] + ages) % 12, TRADITIONAL_RULERS)
        return facts

    def _best_aspects(self, lon: np.ndarray, angle: np.ndarray) -> np.ndarray:
        """Return the aspect of each body longitude to each angle longitude, as an index into
        the aspect types: the admitted type with the smallest orb, ties to the first listed (as
        :func:`kernel.aspects.find_aspects`), len(aspect types) where none is admitted."""
        if not self.aspects:
            return np.zeros(len(lon), dtype=int)
        separation = np.abs((lon - angle + 180.0) % _CIRCLE - 180.0)
        off = np.abs(separation[:, None] - self._exact[None, :])
        off = np.where(off <= self._orbs[None, :] + ORB_TOLERANCE_DEG, off, np.inf)
        best = np.argmin(off, axis=1)
        return np.where(np.isfinite(off[np.arange(len(lon)), best]), best, len(self.aspects))


def _houses(query: SensitivityQuery, times: np.ndarray) -> tuple[np.ndarray, str]:
    """Return, for each of ``times``, the Ascendant, the MC and the 12 cusps (degrees, in the
    chart's zodiac) as the ephemeris gives them (the rows of /v1/natal-chart's houses), and the
    letter of the system that made them: the query's, or Porphyrius ("O") for the whole window
    when the query's has no cusps at some of its times (inside the polar circles), so that the
    cusps never jump from one system to the other."""
    place = query.place
    sidereal = query.flags.sidereal
    flags = engine.FLG_SIDEREAL if sidereal is not None else 0
    out = np.empty((len(times), 14))
    letter = query.letter
    with engine.configured(sidereal_mode=sidereal.id if sidereal is not None else None):
        row = 0
        while row < len(times):
            raw = engine.houses(float(times[row]), place.latitude_deg, place.longitude_deg, letter, flags)
            if raw.polar_fallback and letter != POLAR_FALLBACK_LETTER:
                letter, row = POLAR_FALLBACK_LETTER, 0
                continue
            out[row, 0] = raw.ascmc[0]
            out[row, 1] = raw.ascmc[1]
            out[row, 2:] = raw.cusps[:12]
            row += 1
    return out, letter


def _house_rows(query: SensitivityQuery, letter: str, times: np.ndarray) -> np.ndarray:
    """Return the Ascendant, the MC and the 12 cusps (degrees, in the chart's zodiac) at each
    of ``times`` in the system of ``letter``, as the ephemeris gives them."""
    sidereal = query.flags.sidereal
    flags = engine.FLG_SIDEREAL if sidereal is not None else 0
    out = np.empty((len(times), 14))
    with engine.configured(sidereal_mode=sidereal.id if sidereal is not None else None):
        for row, jd in enumerate(times.tolist()):
            raw = engine.houses(jd, query.place.latitude_deg, query.place.longitude_deg, letter, flags)
            out[row, :2] = raw.ascmc[:2]
            out[row, 2:] = raw.cusps[:12]
    return out


def _body_samples(
    bodies: Sequence[str], flags: CalcFlags, place: Observer, times: np.ndarray, start: float, end: float
) -> np.ndarray:
    """Return each body's unwrapped longitude (degrees, columns in ``bodies``' order) at
    ``times``, from the polynomial through its ephemeris positions at BODY_NODES Chebyshev
    nodes over the window."""
    margin = 2.0 * (times[1] - times[0])
    low, high = start - margin, end + margin
    nodes = 0.5 * (low + high) + 0.5 * (high - low) * _CHEBYSHEV_NODES
    values = np.empty((BODY_NODES, len(bodies)))
    with engine_state(flags, place):
        for column, body in enumerate(bodies):
            longitude = longitude_and_speed(body, flags)
            values[:, column] = [longitude(float(t))[0] for t in nodes]
    coefficients = _CHEBYSHEV_FIT @ np.unwrap(values, period=_CIRCLE, axis=0)
    scaled = (2.0 * times - (low + high)) / (high - low)
    return np.polynomial.chebyshev.chebvander(scaled, BODY_NODES - 1) @ coefficients


def _body_boundaries(query: SensitivityQuery, start: float, end: float, deadline: Deadline) -> list[float]:
    """Return the instants in the window at which a body enters a sign (the Moon a pada, and
    so a nakshatra, in the Vedic zodiac too), each found by the kernel's root finder on the
    ephemeris's own longitudes, to 1 ms."""
    found: list[float] = []
    vedic = replace(query.flags, sidereal=query.vedic_ayanamsha) if query.flags.sidereal is None else query.flags
    searches = [(body, query.flags, SIGN_WIDTH_DEG) for body in query.bodies]
    searches.append(("moon", vedic, PADA_DEG))
    for body, flags, width in searches:
        with engine_state(flags, query.place):
            longitude = longitude_and_speed(body, flags)
            first, last = longitude(start)[0], longitude(end)[0]
            low, high = sorted((first, first + ((last - first + 180.0) % _CIRCLE - 180.0)))
            # Every boundary the body may reach, with one width of slack each side for a
            # station inside the window (a body turning back never goes further than that in a day).
            targets = [k * width for k in range(math.floor(low / width) - 1, math.ceil(high / width) + 2)]
            offsets = [(_offset(target), _rated_offset(longitude, target)) for target in targets]
            for roots in find_offset_roots(longitude, offsets, start, end, end - start, deadline):
                found.extend(root.jd for root in roots)
    return found


def _offset(target: float):
    return lambda value: (value - target + 180.0) % _CIRCLE - 180.0


def _rated_offset(longitude, target: float):
    def offset(jd: float) -> tuple[float, float]:
        value, speed = longitude(jd)
        return (value - target + 180.0) % _CIRCLE - 180.0, speed

    return offset


def _lagrange_weights(x: np.ndarray) -> np.ndarray:
    """Return the weights of the samples at -1, 0, 1, 2 of the cubic through them, at ``x``."""
    return np.stack(
        [
            -x * (x - 1.0) * (x - 2.0) / 6.0,
            (x + 1.0) * (x - 1.0) * (x - 2.0) / 2.0,
            -(x + 1.0) * x * (x - 2.0) / 2.0,
            (x + 1.0) * x * (x - 1.0) / 6.0,
        ],
        axis=-1,
    )


def _cubic_root(samples: np.ndarray) -> np.ndarray:
    """Return, for each row of four samples at -1, 0, 1, 2, where the cubic through them
    changes sign between 0 and 1 (the samples at 0 and 1 of opposite signs or one zero), as a
    fraction of the step, bisected to ROOT_TOLERANCE_S."""
    c0, c1, c2, c3 = _CUBIC_COEFFICIENTS @ samples.T
    low = np.zeros(len(samples))
    high = np.ones(len(samples))
    low_value = samples[:, 1]
    for _ in range(_BISECTIONS):
        middle = 0.5 * (low + high)
        value = c0 + middle * (c1 + middle * (c2 + middle * c3))
        same = (value < 0.0) == (low_value < 0.0)
        low = np.where(same, middle, low)
        low_value = np.where(same, value, low_value)
        high = np.where(same, high, middle)
    return 0.5 * (low + high)


# The power coefficients (1, x, x^2, x^3) of the cubic through samples at -1, 0, 1, 2.
_CUBIC_COEFFICIENTS = np.linalg.inv(np.vander(np.array([-1.0, 0.0, 1.0, 2.0]), 4, increasing=True))


def _nakshatra_numbers(longitudes: np.ndarray) -> np.ndarray:
    """Return the nakshatra (0 Ashwini .. 26 Revati) of each sidereal longitude."""
    return np.floor(longitudes / SPAN_DEG).astype(int) % len(NAKSHATRA_TABLE)
