"""A Western compatibility score of two charts: Ciro Discepolo's points, as kerykeion reads them.

The method (Ciro Discepolo's; kerykeion cites http://www.cirodiscepolo.it/Articoli/Discepoloele.htm,
which we could not read: the method here is kerykeion's reading of it) counts the links between
two births that weigh most in a couple: the two Suns in signs of the same quality, the Sun and
the Moon of the one against the Sun, the Moon and the Ascendant of the other, Venus against
Mars. Its points, orbs and bands below are data, as kerykeion 5.12 computes them
(``kerykeion/relationship_score_factory.py``, with the ``DEFAULT_ACTIVE_ASPECTS`` orbs its
aspects use and ``get_aspect_from_two_points`` in ``kerykeion/aspects/aspects_utils.py``), so the
same two charts score the same. (kerykeion also defines ``DISCEPOLO_SCORE_ACTIVE_ASPECTS``,
other orbs with minor aspects, which its score does not use; neither do we.)
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.chart import Chart
from kernel.zodiac import normalize_deg

#: The method's name in answers.
METHOD = "discepolo"

#: The major aspects the method counts, each with its angle and its orb in degrees
#: (kerykeion's DEFAULT_ACTIVE_ASPECTS; a separation within the orb of an angle, bounds included,
#: makes that aspect). Their orbs do not overlap, so a separation makes at most one.
ASPECT_ORBS_DEG: dict[str, tuple[float, float]] = {
    "conjunction": (0.0, 10.0),
    "opposition": (180.0, 10.0),
    "trine": (120.0, 8.0),
    "sextile": (60.0, 6.0),
    "square": (90.0, 5.0),
}

#: An aspect within this orb (degrees, bound included) is "high precision" and earns the rule's
#: tight points (HIGH_PRECISION_ORBIT_THRESHOLD).
TIGHT_ORB_DEG = 2.0

#: Both Suns in signs of one quality (cardinal, fixed or mutable): the "destiny sign" (DESTINY_SIGN_POINTS).
DESTINY_SIGN_POINTS = 5


@dataclass(frozen=True)
class Rule:
    """One scoring rule: an aspect of one of ``aspects`` between a point of one chart and a point
    of the other whose names are ``pair`` (either way round; one name for Sun-Sun) earns
    ``points``, or ``tight_points`` within :data:`TIGHT_ORB_DEG` when it has them."""

    name: str
    pair: frozenset[str]
    aspects: tuple[str, ...]
    points: int
    tight_points: int | None = None


_HARD = ("conjunction", "opposition", "square")
_ALL = tuple(ASPECT_ORBS_DEG)

#: The rules, in kerykeion's order of evaluation (its _evaluate_* methods; points
#: MAJOR_ASPECT_POINTS_STANDARD 8, MAJOR_ASPECT_POINTS_HIGH_PRECISION 11, the others 4).
RULES: tuple[Rule, ...] = (
    Rule("sun_sun_major", frozenset({"sun"}), _HARD, 8, 11),
    Rule("sun_moon_conjunction", frozenset({"sun", "moon"}), ("conjunction",), 8, 11),
    Rule("sun_moon_other", frozenset({"sun", "moon"}), ("opposition", "square", "trine", "sextile"), 4),
    Rule("sun_sun_minor", frozenset({"sun"}), ("trine", "sextile"), 4),
    Rule("sun_ascendant", frozenset({"sun", "ascendant"}), _ALL, 4),
    Rule("moon_ascendant", frozenset({"moon", "ascendant"}), _ALL, 4),
    Rule("venus_mars", frozenset({"venus", "mars"}), _ALL, 4),
)

#: The points each chart needs, in the order its links are read (A's, each against B's).
POINTS: tuple[str, ...] = ("sun", "moon", "venus", "mars", "ascendant")

#: The bands of the total, lowest first: a total below a band's bound is in that band
#: (kerykeion's SCORE_MAPPING, its names in snake_case).
CATEGORIES: tuple[tuple[str, float], ...] = (
    ("minimal", 5),
    ("medium", 10),
    ("important", 15),
    ("very_important", 20),
    ("exceptional", 30),
    ("rare_exceptional", float("inf")),
)

#: The quality of each sign, Aries (0) to Pisces (11): cardinal, fixed, mutable in turn.
QUALITIES: tuple[str, ...] = ("cardinal", "fixed", "mutable")


@dataclass(frozen=True)
class ScorePart:
    """One contribution to the score: the ``rule`` that gave ``points``, the point of chart A
    (``body_a``) and of chart B (``body_b``), and for an aspect its name and ``orb`` (degrees
    from exact); ``aspect`` and ``orb`` are None for the destiny sign."""

    rule: str
    points: int
    body_a: str
    body_b: str
    aspect: str | None = None
    orb: float | None = None


@dataclass(frozen=True)
class CompatibilityScore:
    """The total ``score``, its ``category`` (:data:`CATEGORIES`) and its ``parts``, whose points sum to it."""

    method: str
    score: int
    category: str
    parts: tuple[ScorePart, ...]


def aspect_between(longitude_a_deg: float, longitude_b_deg: float) -> tuple[str, float] | None:
    """Return the major aspect two ecliptic longitudes (degrees) make within the method's orbs
    and its orb (degrees from exact), or None."""
    separation = abs((normalize_deg(longitude_a_deg - longitude_b_deg) + 180.0) % 360.0 - 180.0)
    for name, (angle, orb) in ASPECT_ORBS_DEG.items():
        if angle - orb <= separation <= angle + orb:
            return name, abs(separation - angle)
    return None


def compatibility_score(points_a: dict[str, float], points_b: dict[str, float]) -> CompatibilityScore:
    """Return the Discepolo score of two charts given as the ecliptic longitudes (degrees, one
    zodiac) of their :data:`POINTS`; a point missing from a chart adds nothing. The parts are
    the destiny sign first, then each aspect A-major (A's points in :data:`POINTS` order, each
    against B's), each rule it meets in :data:`RULES` order."""
    parts: list[ScorePart] = []
    if "sun" in points_a and "sun" in points_b and _quality(points_a["sun"]) == _quality(points_b["sun"]):
        parts.append(ScorePart("destiny_sign", DESTINY_SIGN_POINTS, "sun", "sun"))
    for name_a in POINTS:
        for name_b in POINTS:
            if name_a not in points_a or name_b not in points_b:
                continue
            found = aspect_between(points_a[name_a], points_b[name_b])
            if found is None:
                continue
            aspect, orb = found
            for rule in RULES:
                if rule.pair == frozenset({name_a, name_b}) and aspect in rule.aspects:
                    tight = rule.tight_points is not None and orb <= TIGHT_ORB_DEG
                    points = rule.tight_points if tight else rule.points
                    parts.append(ScorePart(rule.name, points, name_a, name_b, aspect, orb))  # type: ignore[arg-type]
    total = sum(p.points for p in parts)
    category = next(name for name, bound in CATEGORIES if total < bound)
    return CompatibilityScore(METHOD, total, category, tuple(parts))


def _quality(longitude_deg: float) -> str:
    return QUALITIES[int(normalize_deg(longitude_deg) // 30.0) % 3]


def chart_points(chart: Chart) -> dict[str, float]:
    """Return the longitudes (degrees, on the chart's zodiac) of the :data:`POINTS` a cast chart
    has: its bodies among them, and its Ascendant when it has houses."""
    points = {p.body: p.longitude for p in chart.positions if p.body in POINTS}
    if chart.houses is not None:
        points["ascendant"] = chart.houses.ascendant_deg
    return points
