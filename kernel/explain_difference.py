"""Why another program's chart differs from ours: the single causes and pairs of causes
(kernel/difference_causes.py) whose corrected reading reproduces its numbers, ranked.

Each candidate reading is cast only for the points the other program gave (bodies' ecliptic
longitudes, the twelve cusps, Ascendant, MC, the houses bodies are in, the nakshatras of the
Vedic chart's points, the Vimshottari mahadashas' starts), with what candidates share computed
once: the bodies' tropical positions per instant and position convention, the houses per
instant, place and system, the ayanamsha per instant (a sidereal longitude is the tropical one
less the ayanamsha, as Swiss Ephemeris computes it). Residuals are theirs minus ours: a
longitude's in arcseconds, a dasha start's in seconds of time; a nakshatra or a body's house is
matched or not.

Mixed numbers are weighed in units of their tolerances: each longitude residual over
:data:`TOLERANCE_ARCSEC`, each date residual over :data:`TOLERANCE_SECONDS`, a nakshatra or a
house 0 when matched and else 1 plus the distance (over TOLERANCE_ARCSEC) of our point outside
theirs. A reading explains the numbers when every such ratio is at most 1; explanations rank by
the root mean square of the ratios (:attr:`Explanation.score`), the closest candidates by the
largest.
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
from kernel.nakshatras import NAKSHATRA_TABLE, SPAN_DEG
from kernel.vimshottari import CYCLE_YEARS, DASHA_YEARS, LORDS, YEAR_LENGTHS, balance_at_birth, first_mahadasha

#: The largest residual (arcseconds) of a reading that explains another program's numbers.
#: Programs print longitudes to the arcminute, rounded (error ≤ 30″) or cut (error < 60″);
#: the ephemerides they use (Swiss Ephemeris, JPL DE4xx, Moshier) agree within about 1″. So a
#: right reading is within 60″ of every number, and a wrong one seldom is: a cusp moves 60″ in
#: 4 s of time, the Moon in 2 minutes.
TOLERANCE_ARCSEC = 60.0
#: The largest residual (seconds of time) of a reading that explains a Vimshottari dasha start.
#: A dasha's start moves with the Moon: one arcsecond of the Moon at birth moves every start
#: by up to 3.65 hours (20 years of Venus over the 13°20' of a nakshatra), and a second of
#: birth time by up to 2 hours (the Moon's 0.55″ a second). Programs on Swiss Ephemeris agree
#: with us to the millisecond on the same Moon (tests/unit/kernel/test_vimshottari.py, PyJHora);
#: what is left is UT1 - UTC (under 0.9 s, which programs taking UTC as UT ignore: under 1.8
#: hours) and printing to the minute. Six hours holds those and still tells the dasha years
#: apart over a lifetime: julian and sidereal years part by 6 hours after 39 years, gregorian
#: and sidereal after 18, savana and any other after 14 days.
TOLERANCE_SECONDS = 6 * 3600.0
#: The ayanamsha the Vedic numbers (nakshatras, dashas) are cast with when the reading is
#: tropical: the Vedic endpoints' default.
VEDIC_DEFAULT_AYANAMSHA = "lahiri"
#: The points whose nakshatra another program may give, and the body each is cast from
#: (Rahu the node as named, mean; Ketu opposite it; asc the Ascendant).
NAKSHATRA_POINTS: dict[str, str] = {
    "sun": "sun",
    "moon": "moon",
    "mars": "mars",
    "mercury": "mercury",
    "jupiter": "jupiter",
    "venus": "venus",
    "saturn": "saturn",
    "rahu": "mean_node",
    "ketu": "mean_node",
    "asc": "asc",
}
_NAKSHATRA_INDEX = {name: index for index, (name, _) in enumerate(NAKSHATRA_TABLE)}
_DASHA_YEARS = dict(DASHA_YEARS)
_SECONDS_PER_DAY = 86400.0

_NODE_SWAP = {"mean_node": "true_node", "true_node": "mean_node"}
# Readings name their conventions by our names, already read: looked up, never parsed again.
_AYANAMSHA_IDS = {a.name: a.id for a in AYANAMSHAS}
_HOUSE_LETTERS = {s.name: s.letter for s in HOUSE_SYSTEMS}
_TRUE_POSITION_FLAGS = engine.FLG_TRUEPOS | engine.FLG_NOABERR | engine.FLG_NOGDEFL


@dataclass(frozen=True)
class Theirs:
    """Another program's numbers: degrees of ecliptic longitude, ``positions`` by our body
    name, ``cusps`` (twelve, house 1 first) or None, ``asc`` and ``mc`` or None, ``houses``
    (the house 1-12 a body is in, by our body name); the Vedic
    ones, ``nakshatras`` (a nakshatra's name by a point of :data:`NAKSHATRA_POINTS`) and
    ``dashas`` (Vimshottari mahadashas, ``(lord, start, span)``: the start a UT1 Julian Day,
    ``span`` 0 for an instant, or the days from ``start`` a start printed as a date alone
    may be anywhere in: 1)."""

    positions: dict[str, float] = field(default_factory=dict)
    cusps: tuple[float, ...] | None = None
    asc: float | None = None
    mc: float | None = None
    nakshatras: dict[str, str] = field(default_factory=dict)
    dashas: tuple[tuple[str, float, float], ...] = ()
    houses: dict[str, int] = field(default_factory=dict)

    def point_names(self) -> list[str]:
        """Return the names of the longitudes given: body names, ``cusp_1`` … ``cusp_12``, ``asc``, ``mc``."""
        names = list(self.positions)
        if self.cusps is not None:
            names.extend(f"cusp_{i}" for i in range(1, 13))
        names.extend(name for name in ("asc", "mc") if getattr(self, name) is not None)
        return names

    def vedic(self) -> bool:
        """Return True when nakshatras or dashas are given."""
        return bool(self.nakshatras or self.dashas)

    def western(self) -> bool:
        """Return True when longitudes, cusps, angles or houses are given."""
        return bool(self.positions or self.cusps or self.houses) or self.asc is not None or self.mc is not None

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
    each longitude's residual (theirs minus ours, arcseconds, by point name) with their root
    mean square and largest absolute value (arcseconds; None without longitudes), each dasha
    start's (``<lord>_mahadasha``, seconds) with the largest absolute (None without dashas),
    whether each nakshatra (``<point>_nakshatra``) and house (``<body>_house``) is matched
    (``matched``), the ``score`` (root mean square
    of every residual in units of its tolerance) and whether it ``explains`` them."""

    causes: tuple[Cause, ...]
    reading: Reading
    residuals_arcsec: dict[str, float]
    rms_arcsec: float | None
    max_arcsec: float | None
    explains: bool
    residuals_s: dict[str, float] = field(default_factory=dict)
    max_s: float | None = None
    matched: dict[str, bool] = field(default_factory=dict)
    score: float = 0.0


@dataclass(frozen=True)
class DifferenceExplained:
    """The answer: ``explained`` when some reading reproduces the numbers; ``explanations``
    ranked, the explaining ones (fewest causes first, then the smallest score: the RMS of the
    residuals over their tolerances) or, when none explains, the closest candidates (smallest
    largest residual over its tolerance first)."""

    explained: bool
    explanations: list[Explanation]
    candidates_tried: int


class _Caster:
    """Casts the points ``theirs`` names at many readings, keeping what they share."""

    def __init__(self, theirs: Theirs):
        self.bodies = list(theirs.positions)
        self.nakshatra_points = list(theirs.nakshatras)
        self.want_moon = bool(theirs.dashas)
        vedic_bodies = {NAKSHATRA_POINTS[p] for p in self.nakshatra_points if p != "asc"}
        if self.want_moon:
            vedic_bodies.add("moon")
        self.house_bodies = list(theirs.houses)
        named = {*self.bodies, *vedic_bodies, *self.house_bodies}
        self.engine_bodies = sorted({*named, *(_NODE_SWAP[b] for b in named if b in _NODE_SWAP)})
        self.want_cusps = theirs.cusps is not None
        self.cast_cusps = self.want_cusps or bool(self.house_bodies)
        self.asc_given, self.mc_given = theirs.asc is not None, theirs.mc is not None
        self.want_angles = self.asc_given or self.mc_given
        self.want_vedic_asc = "asc" in theirs.nakshatras
        self.want_tropical = bool(self.engine_bodies)
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
        letter = _HOUSE_LETTERS[reading.house_system] if self.cast_cusps else "O"
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
        swap = reading.node == "swapped"
        tropical = self._tropical_positions(reading, jd) if self.want_tropical else {}
        values.extend(tropical[_NODE_SWAP.get(b, b) if swap else b] - ayanamsha for b in self.bodies)
        if self.want_cusps or self.want_angles:
            cusps, asc, mc = self._house_points(reading, jd)
            if self.want_cusps:
                values.extend(cusps)
            if self.want_angles:
                values.extend(v for v, given in ((asc, self.asc_given), (mc, self.mc_given)) if given)
        return values

    def cast_houses(self, reading: Reading) -> tuple[dict[str, float], tuple[float, ...]]:
        """Return the longitudes (degrees, the reading's zodiac) of the bodies whose house is
        given, and the twelve cusps of the reading's house system."""
        jd = self.jd(reading)
        ayanamsha = self.ayanamsha(jd, reading.ayanamsha)
        tropical = self._tropical_positions(reading, jd)
        swap = reading.node == "swapped"
        cusps, _, _ = self._house_points(reading, jd)
        return {b: tropical[_NODE_SWAP.get(b, b) if swap else b] - ayanamsha for b in self.house_bodies}, cusps

    def cast_vedic(self, reading: Reading) -> tuple[dict[str, float], float | None, float]:
        """Return the sidereal longitudes (degrees) of the nakshatra points at ``reading``, the
        Moon's (None unless dashas are given) and the birth's UT1 Julian Day: the reading's
        ayanamsha, else :data:`VEDIC_DEFAULT_AYANAMSHA`; Rahu the node as named (or the other
        when swapped), Ketu opposite it."""
        jd = self.jd(reading)
        ayanamsha = self.ayanamsha(jd, reading.ayanamsha or VEDIC_DEFAULT_AYANAMSHA)
        tropical = self._tropical_positions(reading, jd) if self.want_tropical else {}
        swap = reading.node == "swapped"
        longitudes: dict[str, float] = {}
        for point in self.nakshatra_points:
            if point == "asc":
                _, asc, _ = self._house_points(reading, jd)
                # The houses are sidereal already when the reading is; else tropical.
                longitudes[point] = asc - (0.0 if reading.ayanamsha else ayanamsha)
                continue
            body = NAKSHATRA_POINTS[point]
            longitude = tropical[_NODE_SWAP.get(body, body) if swap else body] - ayanamsha
            longitudes[point] = longitude + (180.0 if point == "ketu" else 0.0)
        moon = tropical["moon"] - ayanamsha if self.want_moon else None
        return longitudes, moon, jd


def _outside_deg(longitude: float, start: float, span: float) -> float:
    """Return how far (degrees) ``longitude`` lies outside the arc of ``span`` degrees from
    ``start`` (all degrees), 0 inside."""
    past = (longitude - start) % 360.0
    if past < span:
        return 0.0
    return min(past - span, 360.0 - past)


def _house_arc(cusps: tuple[float, ...], house: int) -> tuple[float, float]:
    """Return the start and span (degrees) of ``house`` (1-12): from its cusp to the next."""
    start = cusps[house - 1]
    return start, (cusps[house % 12] - start) % 360.0


def _dasha_residuals_s(
    dashas: tuple[tuple[str, float, float], ...], birth_jd: float, moon: float, year_days: float
) -> list[float]:
    """Return each given mahadasha start less ours (seconds): ours the start of the same lord's
    mahadasha nearest theirs (the cycle repeats every 120 years); theirs, when it spans a day
    (a date alone), the nearest instant of that day to ours (0 when ours falls in it)."""
    start, _ = first_mahadasha(birth_jd, moon, year_days)
    first = LORDS.index(balance_at_birth(moon).lord)
    offsets: dict[str, float] = {}
    years = 0
    for step in range(len(LORDS)):
        lord = LORDS[(first + step) % len(LORDS)]
        offsets[lord] = years
        years += _DASHA_YEARS[lord]
    residuals = []
    for lord, their_start, span in dashas:
        offset = offsets[lord]
        cycle = round(((their_start - start) / year_days - offset) / CYCLE_YEARS)
        ours = start + (offset + cycle * CYCLE_YEARS) * year_days
        nearest = min(max(ours, their_start), their_start + span)
        residuals.append((nearest - ours) * _SECONDS_PER_DAY)
    return residuals


def _vedic_ayanamsha(name: str | None) -> str:
    """Return the ayanamsha Vedic numbers are cast in for a zodiac ``name`` (None or tropical: the default)."""
    return VEDIC_DEFAULT_AYANAMSHA if name in (None, "tropical") else name


def _moves_a_number(cause: Cause, reading: Reading, theirs: Theirs) -> bool:
    """Return True when ``cause`` can change one of the numbers ``theirs`` gives of ``reading``:
    when only Vedic numbers are given, the tropical zodiac none (it casts them in lahiri, which
    is tried by name) nor the ayanamsha they are cast in as sent; and by its kind: the house
    system only the cusps and houses, the node only a node (or Rahu's or Ketu's nakshatra), the
    position conventions only positions (the Vedic bodies' and the Moon's of the dashas), the
    place only the houses (the Ascendant's nakshatra too; its topocentric effect is the
    conventions' own), the dasha year only dashas."""
    kind = cause.kind
    if kind == "zodiac" and not theirs.western():
        return cause.value != "tropical" and cause.value != _vedic_ayanamsha(reading.ayanamsha)
    houses = (
        theirs.cusps is not None
        or theirs.asc is not None
        or theirs.mc is not None
        or "asc" in theirs.nakshatras
        or bool(theirs.houses)
    )
    bodies = bool(theirs.positions or theirs.houses or theirs.dashas) or any(p != "asc" for p in theirs.nakshatras)
    if kind == "house_system":
        return theirs.cusps is not None or bool(theirs.houses)
    if kind == "node":
        nodes = {*theirs.positions, *theirs.houses}
        return any(body in _NODE_SWAP for body in nodes) or bool({"rahu", "ketu"} & set(theirs.nakshatras))
    if kind in ("topocentric", "true_positions", "delta_t"):
        return bodies
    if kind in PLACE_KINDS:
        return houses
    if kind == "year_length":
        return bool(theirs.dashas)
    return True


def explain_difference(
    reading: Reading,
    local_hour: int,
    theirs: Theirs,
    *,
    tolerance_arcsec: float = TOLERANCE_ARCSEC,
    tolerance_s: float = TOLERANCE_SECONDS,
    closest: int = 3,
) -> DifferenceExplained:
    """Return the readings that reproduce ``theirs`` from the birth as sent (``reading``, its
    clock time showing ``local_hour``): the request as sent when it does (no cause), else every
    single cause that does, else every pair of which neither cause does alone; each reading once
    (the first cause or pair giving it, in the vocabulary's order). When none explains, the
    ``closest`` candidates by their largest residual in units of its tolerance."""
    caster = _Caster(theirs)
    names, wanted = theirs.point_names(), theirs.values()
    dasha_names = [f"{lord}_mahadasha" for lord, _, _ in theirs.dashas]
    seen: set[Reading] = set()
    tried: list[_Tried] = []

    def judge(causes: tuple[Cause, ...]) -> bool:
        """Cast the reading ``causes`` give (once per reading); return True when it explains."""
        changed = apply_causes(reading, causes)
        if changed in seen:
            return False
        seen.add(changed)
        arcsec = [((t - o + 180.0) % 360.0 - 180.0) * 3600.0 for t, o in zip(wanted, caster.cast(changed))]
        ratios = [abs(r) / tolerance_arcsec for r in arcsec]
        seconds: list[float] = []
        matched: dict[str, bool] = {}
        outside: dict[str, float] = {}
        if theirs.houses:
            longitudes, cusps = caster.cast_houses(changed)
            for body, house in theirs.houses.items():
                outside[f"{body}_house"] = _outside_deg(longitudes[body], *_house_arc(cusps, house))
        if theirs.vedic():
            longitudes, moon, jd = caster.cast_vedic(changed)
            for point, nakshatra in theirs.nakshatras.items():
                start = _NAKSHATRA_INDEX[nakshatra] * SPAN_DEG
                outside[f"{point}_nakshatra"] = _outside_deg(longitudes[point], start, SPAN_DEG)
            if moon is not None:
                seconds = _dasha_residuals_s(theirs.dashas, jd, moon, YEAR_LENGTHS[changed.year_length])
                ratios.extend(abs(r) / tolerance_s for r in seconds)
        for point, degrees in outside.items():
            matched[point] = degrees == 0.0
            ratios.append(0.0 if degrees == 0.0 else 1.0 + degrees * 3600.0 / tolerance_arcsec)
        tried.append(_Tried(max(ratios), causes, changed, arcsec, seconds, matched, ratios))
        return max(ratios) <= 1.0

    def explanation(found: _Tried) -> Explanation:
        arcsec, seconds = found.arcsec, found.seconds
        score = math.sqrt(sum(r * r for r in found.ratios) / len(found.ratios))
        return Explanation(
            found.causes,
            found.reading,
            dict(zip(names, (round(r, 1) for r in arcsec), strict=True)),
            round(math.sqrt(sum(r * r for r in arcsec) / len(arcsec)), 1) if arcsec else None,
            round(max(map(abs, arcsec)), 1) if arcsec else None,
            found.largest <= 1.0,
            dict(zip(dasha_names, (round(r, 1) for r in seconds), strict=True)),
            round(max(map(abs, seconds)), 1) if seconds else None,
            found.matched,
            round(score, 4),
        )

    if judge(()):
        return DifferenceExplained(True, [explanation(tried[0])], 1)
    singles = [c for c in candidate_causes(reading, local_hour) if _moves_a_number(c, reading, theirs)]
    fits = []
    for cause in singles:
        if judge((cause,)):
            fits.append(tried[-1])
    if not fits:
        for first, second in combinations(singles, 2):
            if compatible(first, second) and judge((first, second)):
                fits.append(tried[-1])
    if fits:
        ranked = sorted((explanation(fit) for fit in fits), key=lambda e: (len(e.causes), e.score))
        return DifferenceExplained(True, ranked, len(tried))
    tried.sort(key=lambda t: (t.largest, len(t.causes)))
    return DifferenceExplained(False, [explanation(t) for t in tried[:closest]], len(tried))


@dataclass(frozen=True)
class _Tried:
    """A reading cast: its largest residual in units of its tolerance, its causes, the reading,
    the longitude residuals (arcseconds), the dasha residuals (seconds), each nakshatra's
    and house's match (by point name) and every residual's ratio to its tolerance."""

    largest: float
    causes: tuple[Cause, ...]
    reading: Reading
    arcsec: list[float]
    seconds: list[float]
    matched: dict[str, bool]
    ratios: list[float]
