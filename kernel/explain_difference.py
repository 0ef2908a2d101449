"""Why another program's chart differs from ours: the single causes and pairs of causes
(kernel/difference_causes.py) whose corrected reading reproduces its numbers, ranked.

Each candidate reading is cast only for the points the other program gave (bodies' ecliptic
longitudes, the twelve cusps, Ascendant, MC), with what candidates share computed once: the
bodies' tropical positions per instant and position convention, the houses per instant, place
and system, the ayanamsha per instant (a sidereal longitude is the tropical one less the
ayanamsha, as Swiss Ephemeris computes it). Residuals are theirs minus ours, in arcseconds.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from itertools import combinations

from kernel import engine
from kernel.ayanamshas import AYANAMSHAS
from kernel.bodies import engine_number
from kernel.difference_causes import PLACE_KINDS, Cause, Reading, apply_causes, candidate_causes, compatible
from kernel.houses import HOUSE_SYSTEMS

#: The largest residual (arcseconds) of a reading that explains another program's numbers.
#: Programs print longitudes to the arcminute, rounded (error ≤ 30″) or cut (error < 60″);
#: the ephemerides they use (Swiss Ephemeris, JPL DE4xx, Moshier) agree within about 1″. So a
#: right reading is within 60″ of every number, and a wrong one seldom is: a cusp moves 60″ in
#: 4 s of time, the Moon in 2 minutes.
TOLERANCE_ARCSEC = 60.0

_NODE_SWAP = {"mean_node": "true_node", "true_node": "mean_node"}
# Readings name their conventions by our names, already read: looked up, never parsed again.
_AYANAMSHA_IDS = {a.name: a.id for a in AYANAMSHAS}
_HOUSE_LETTERS = {s.name: s.letter for s in HOUSE_SYSTEMS}
_TRUE_POSITION_FLAGS = engine.FLG_TRUEPOS | engine.FLG_NOABERR | engine.FLG_NOGDEFL


@dataclass(frozen=True)
class Theirs:
    """Another program's numbers, degrees of ecliptic longitude: ``positions`` by our body
    name, ``cusps`` (twelve, house 1 first) or None, ``asc`` and ``mc`` or None."""

    positions: dict[str, float] = field(default_factory=dict)
    cusps: tuple[float, ...] | None = None
    asc: float | None = None
    mc: float | None = None

    def point_names(self) -> list[str]:
        """Return the names of the numbers given: body names, ``cusp_1`` … ``cusp_12``, ``asc``, ``mc``."""
        names = list(self.positions)
        if self.cusps is not None:
            names.extend(f"cusp_{i}" for i in range(1, 13))
        names.extend(name for name in ("asc", "mc") if getattr(self, name) is not None)
        return names

    def values(self) -> list[float]:
        """Return the numbers given, in the order of :meth:`point_names` (degrees)."""
        values = list(self.positions.values())
        if self.cusps is not None:
            values.extend(self.cusps)
        values.extend(v for v in (self.asc, self.mc) if v is not None)
        return values


@dataclass(frozen=True)
class Explanation:
    """One candidate: its ``causes`` (none: the request as sent), the ``reading`` they give,
    each number's residual (theirs minus ours, arcseconds, by point name), their root mean
    square and largest absolute value (arcseconds), and whether it ``explains`` them (largest
    residual within the tolerance)."""

    causes: tuple[Cause, ...]
    reading: Reading
    residuals_arcsec: dict[str, float]
    rms_arcsec: float
    max_arcsec: float
    explains: bool


@dataclass(frozen=True)
class DifferenceExplained:
    """The answer: ``explained`` when some reading reproduces the numbers; ``explanations``
    ranked, the explaining ones (fewest causes first, then the smallest RMS residual) or,
    when none explains, the closest candidates (smallest largest residual first)."""

    explained: bool
    explanations: list[Explanation]
    candidates_tried: int


class _Caster:
    """Casts the points ``theirs`` names at many readings, keeping what they share."""

    def __init__(self, theirs: Theirs):
        self.bodies = list(theirs.positions)
        self.engine_bodies = sorted({*self.bodies, *(_NODE_SWAP[b] for b in self.bodies if b in _NODE_SWAP)})
        self.want_cusps = theirs.cusps is not None
        self.asc_given, self.mc_given = theirs.asc is not None, theirs.mc is not None
        self.want_angles = self.asc_given or self.mc_given
        self.want_houses = self.want_cusps or self.want_angles
        self._jd: dict = {}
        self._positions: dict = {}
        self._houses: dict = {}
        self._ayanamsha: dict = {}
        self._delta_t: dict = {}

    def jd(self, reading: Reading) -> float:
        utc = reading.utc
        jd = self._jd.get(utc)
        if jd is None:
            jd = engine.utc_to_jd_ut1(
                utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second + utc.microsecond / 1e6
            )
            self._jd[utc] = jd
        return jd

    def ayanamsha(self, jd: float, name: str | None) -> float:
        if name is None:
            return 0.0
        key = (jd, name)
        value = self._ayanamsha.get(key)
        if value is None:
            value = self._ayanamsha[key] = engine.ayanamsha_deg(jd, _AYANAMSHA_IDS[name])
        return value

    def _tropical_positions(self, reading: Reading, jd: float) -> dict[str, float]:
        if reading.delta_t_zero:
            delta = self._delta_t.get(jd)
            if delta is None:
                delta = self._delta_t[jd] = engine.delta_t_days(jd)
            # A program that takes TT = UT computes the bodies at TT = our UT: our UT less ΔT.
            jd -= delta
        place = (reading.lon, reading.lat, reading.alt) if reading.topocentric else None
        key = (jd, reading.true_positions, place)
        found = self._positions.get(key)
        if found is None:
            flags = (_TRUE_POSITION_FLAGS if reading.true_positions else 0) | (engine.FLG_TOPOCTR if place else 0)
            # An asteroid (Chiron) has no ephemeris outside the files' span: OutOfRange, a 400.
            with (
                engine.map_engine_errors("the bodies of their numbers"),
                engine.configured(observer_lon_lat_alt=place) if place else contextlib.nullcontext(),
            ):
                found = {b: engine.calc_body(jd, engine_number(b), flags).values[0] for b in self.engine_bodies}
            self._positions[key] = found
        return found

    def _house_points(self, reading: Reading, jd: float) -> tuple[tuple[float, ...], float, float]:
        letter = _HOUSE_LETTERS[reading.house_system] if self.want_cusps else "O"
        key = (jd, reading.lat, reading.lon, letter, reading.ayanamsha)
        found = self._houses.get(key)
        if found is None:
            if reading.ayanamsha is None:
                calc = engine.houses(jd, reading.lat, reading.lon, letter)
            else:
                # Sidereal cusps from the engine itself: the sign-based systems (whole sign,
                # equal from Aries) start at the sidereal signs, not at the tropical ones less
                # the ayanamsha.
                with engine.configured(sidereal_mode=_AYANAMSHA_IDS[reading.ayanamsha]):
                    calc = engine.houses(jd, reading.lat, reading.lon, letter, engine.FLG_SIDEREAL)
            found = self._houses[key] = (calc.cusps[:12], calc.ascmc[0], calc.ascmc[1])
        return found

    def cast(self, reading: Reading) -> list[float]:
        """Return the points' longitudes (degrees) at ``reading``, in :meth:`Theirs.point_names` order."""
        jd = self.jd(reading)
        ayanamsha = self.ayanamsha(jd, reading.ayanamsha)
        values: list[float] = []
        if self.bodies:
            tropical = self._tropical_positions(reading, jd)
            swap = reading.node == "swapped"
            values.extend(tropical[_NODE_SWAP.get(b, b) if swap else b] - ayanamsha for b in self.bodies)
        if self.want_houses:
            cusps, asc, mc = self._house_points(reading, jd)
            if self.want_cusps:
                values.extend(cusps)
            if self.want_angles:
                values.extend(v for v, given in ((asc, self.asc_given), (mc, self.mc_given)) if given)
        return values


def _moves_a_number(kind: str, theirs: Theirs) -> bool:
    """Return True when a cause of ``kind`` can change one of the numbers ``theirs`` gives: the
    house system only the cusps, the node only a node, the position conventions only positions,
    the place only the houses (its topocentric effect is the conventions' own)."""
    houses = theirs.cusps is not None or theirs.asc is not None or theirs.mc is not None
    if kind == "house_system":
        return theirs.cusps is not None
    if kind == "node":
        return any(body in _NODE_SWAP for body in theirs.positions)
    if kind in ("topocentric", "true_positions", "delta_t"):
        return bool(theirs.positions)
    if kind in PLACE_KINDS:
        return houses
    return True


def explain_difference(
    reading: Reading,
    local_hour: int,
    theirs: Theirs,
    *,
    tolerance_arcsec: float = TOLERANCE_ARCSEC,
    closest: int = 3,
) -> DifferenceExplained:
    """Return the readings that reproduce ``theirs`` from the birth as sent (``reading``, its
    clock time showing ``local_hour``): the request as sent when it does (no cause), else every
    single cause that does, else every pair of which neither cause does alone; each reading once
    (the first cause or pair giving it, in the vocabulary's order). When none explains, the
    ``closest`` candidates by their largest residual."""
    caster = _Caster(theirs)
    names, wanted = theirs.point_names(), theirs.values()
    seen: set[Reading] = set()
    tried: list[tuple[float, tuple[Cause, ...], Reading, list[float]]] = []

    def judge(causes: tuple[Cause, ...]) -> bool:
        """Cast the reading ``causes`` give (once per reading); return True when it explains."""
        changed = apply_causes(reading, causes)
        if changed in seen:
            return False
        seen.add(changed)
        residuals = [((t - o + 180.0) % 360.0 - 180.0) * 3600.0 for t, o in zip(wanted, caster.cast(changed))]
        largest = max(map(abs, residuals))
        tried.append((largest, causes, changed, residuals))
        return largest <= tolerance_arcsec

    def explanation(largest: float, causes: tuple[Cause, ...], changed: Reading, residuals: list[float]):
        rms = math.sqrt(sum(r * r for r in residuals) / len(residuals))
        by_point = dict(zip(names, (round(r, 1) for r in residuals), strict=True))
        return Explanation(causes, changed, by_point, round(rms, 1), round(largest, 1), largest <= tolerance_arcsec)

    if judge(()):
        return DifferenceExplained(True, [explanation(*tried[0])], 1)
    singles = [c for c in candidate_causes(reading, local_hour) if _moves_a_number(c.kind, theirs)]
    fits = []
    for cause in singles:
        if judge((cause,)):
            fits.append(tried[-1])
    if not fits:
        for first, second in combinations(singles, 2):
            if compatible(first, second) and judge((first, second)):
                fits.append(tried[-1])
    if fits:
        ranked = sorted((explanation(*fit) for fit in fits), key=lambda e: (len(e.causes), e.rms_arcsec))
        return DifferenceExplained(True, ranked, len(tried))
    tried.sort(key=lambda t: (t[0], len(t[1])))
    return DifferenceExplained(False, [explanation(*t) for t in tried[:closest]], len(tried))
