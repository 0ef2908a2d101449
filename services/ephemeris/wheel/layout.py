"""The geometry of a chart wheel, from a cast chart: where each sign, cusp, angle, body and
aspect is drawn. Plain numbers, no SVG (``drawing.py`` draws them).

Conventions: the wheel is seen as a horoscope is drawn, the Ascendant at 9 o'clock and the
zodiac running counterclockwise, so the Midheaven stands near the top. A *screen angle* is in
degrees, counterclockwise from 3 o'clock: a longitude ``λ`` (degrees, on the chart's zodiac)
is drawn at ``180 + λ − Ascendant``. A body is marked at its true longitude on the zodiac's
inner edge; its glyph may stand a little aside (spread from its neighbours, never more than
needed), with a leader line to the mark.

A bi-wheel (transits, synastry, progressions, returns over a natal chart) is the inner
chart's wheel (its houses, angles and bodies) with a second ring of bodies, the outer
chart's, turned by the inner chart's Ascendant so both charts share one zodiac; its aspects
are only the cross aspects, from an inner body to an outer one.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.aspects import AspectMatch
from kernel.chart import Chart, ChartPosition
from kernel.zodiac import SIGNS, normalize_deg, sign_of

#: The least angle (degrees) between two glyphs on one ring before they are spread apart.
GLYPH_GAP_DEG = 7.0
#: Rounds of pushing crowded glyphs apart; each round moves every crowded pair half the way.
SPREAD_ROUNDS = 200
#: The angles of a chart, in the order they are drawn: Ascendant, Midheaven, Descendant, Imum Coeli.
ANGLE_NAMES = ("asc", "mc", "dsc", "ic")


@dataclass(frozen=True)
class WheelSign:
    """One sign of the zodiac ring: its name (lowercase) and the screen angles (degrees) where it begins
    and where its glyph stands (its middle)."""

    sign: str
    start_deg: float
    middle_deg: float


@dataclass(frozen=True)
class WheelCusp:
    """One house cusp: its house number, longitude (degrees, chart's zodiac), screen angle,
    and the screen angle of its house number (the middle of the house)."""

    house: int
    longitude: float
    angle_deg: float
    label_deg: float


@dataclass(frozen=True)
class WheelAngle:
    """One angle of the chart (asc, mc, dsc, ic): its longitude and screen angle (degrees)."""

    name: str
    longitude: float
    angle_deg: float


@dataclass(frozen=True)
class WheelPoint:
    """One body on a ring: its name, longitude (degrees, chart's zodiac), sign, degree and
    minute within the sign, house, whether retrograde, the screen angle of its true longitude
    and the screen angle its glyph is drawn at (spread from crowded neighbours)."""

    body: str
    longitude: float
    sign: str
    degree: int
    minute: int
    house: int
    retrograde: bool
    angle_deg: float
    glyph_deg: float


@dataclass(frozen=True)
class WheelAspect:
    """One aspect line between two bodies' true longitudes: the bodies, the aspect's name,
    its orb (degrees) and the screen angles of its two ends."""

    body_a: str
    body_b: str
    aspect: str
    orb: float
    angle_a_deg: float
    angle_b_deg: float


@dataclass(frozen=True)
class WheelLayout:
    """Everything a wheel draws, in screen angles: the Ascendant's longitude the wheel turns
    by, the 12 signs, the cusps, the four angles, the bodies and the aspects; for a bi-wheel
    also the outer chart's bodies (``outer_points``, empty on a single wheel), the aspects
    then being the cross aspects (``body_a`` inner, ``body_b`` outer)."""

    ascendant: float
    signs: tuple[WheelSign, ...]
    cusps: tuple[WheelCusp, ...]
    angles: tuple[WheelAngle, ...]
    points: tuple[WheelPoint, ...]
    aspects: tuple[WheelAspect, ...]
    outer_points: tuple[WheelPoint, ...] = ()

    @property
    def is_biwheel(self) -> bool:
        """Return whether the layout has a second (outer) ring of bodies."""
        return bool(self.outer_points)


def screen_angle(longitude_deg: float, ascendant_deg: float) -> float:
    """Return the screen angle (degrees [0, 360), counterclockwise from 3 o'clock) at which the
    longitude ``longitude_deg`` is drawn on a wheel whose Ascendant is ``ascendant_deg``."""
    return normalize_deg(180.0 + longitude_deg - ascendant_deg)


def spread(angles_deg: list[float], gap_deg: float = GLYPH_GAP_DEG) -> list[float]:
    """Return the angles (degrees) at which glyphs at ``angles_deg`` are drawn so that no two
    neighbours stand closer than ``gap_deg`` (less when the ring cannot hold them all), each
    moved as little as the crowding needs; in the order given. Deterministic."""
    count = len(angles_deg)
    if count < 2:
        return [normalize_deg(a) for a in angles_deg]
    gap = min(gap_deg, 360.0 / count * 0.95)
    order = sorted(range(count), key=lambda i: (normalize_deg(angles_deg[i]), i))
    # Unwrapped positions along the ring in ascending order; the last neighbours the first + 360.
    shown = [normalize_deg(angles_deg[i]) for i in order]
    for _ in range(SPREAD_ROUNDS):
        moved = False
        for k in range(count):
            nxt = (k + 1) % count
            ahead = shown[nxt] + (360.0 if nxt == 0 else 0.0)
            short = gap - (ahead - shown[k])
            if short > 1e-9:
                shown[k] -= short / 2
                shown[nxt] += short / 2
                moved = True
        if not moved:
            break
    result = [0.0] * count
    for k, i in enumerate(order):
        result[i] = normalize_deg(shown[k])
    return result


def wheel_layout(chart: Chart) -> WheelLayout:
    """Return the layout of ``chart``'s wheel: its signs, cusps (as many as the chart's house
    system has: 12, or Gauquelin's 36), angles, bodies and aspects."""
    ascendant = chart.houses.ascendant_deg
    points = _points(chart.positions, ascendant)
    at = {p.body: p.angle_deg for p in points}
    aspects = tuple(WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at[a.body_a], at[a.body_b]) for a in chart.aspects)
    return WheelLayout(ascendant, _signs(ascendant), _cusps(chart, ascendant), _angles(chart, ascendant), points, aspects)


def biwheel_layout(inner: Chart, outer: Chart, cross_aspects: list[AspectMatch]) -> WheelLayout:
    """Return the layout of a bi-wheel: ``inner``'s signs, cusps, angles and bodies, ``outer``'s
    bodies on the outer ring (at screen angles turned by the inner Ascendant, spread among
    themselves only, since the rings do not share a radius), and ``cross_aspects`` (body_a
    from ``inner``, body_b from ``outer``, as kernel.synastry.inter_chart returns them)."""
    ascendant = inner.houses.ascendant_deg
    points, outer_points = _points(inner.positions, ascendant), _points(outer.positions, ascendant)
    at_inner = {p.body: p.angle_deg for p in points}
    at_outer = {p.body: p.angle_deg for p in outer_points}
    aspects = tuple(WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at_inner[a.body_a], at_outer[a.body_b]) for a in cross_aspects)
    return WheelLayout(ascendant, _signs(ascendant), _cusps(inner, ascendant), _angles(inner, ascendant), points, aspects, outer_points)


def _signs(ascendant: float) -> tuple[WheelSign, ...]:
    return tuple(
        WheelSign(sign.lower(), screen_angle(30.0 * index, ascendant), screen_angle(30.0 * index + 15.0, ascendant))
        for index, sign in enumerate(SIGNS)
    )


def _cusps(chart: Chart, ascendant: float) -> tuple[WheelCusp, ...]:
    cusps_deg = list(chart.houses.cusps_deg)
    cusps = []
    for index, cusp in enumerate(cusps_deg):
        following = cusps_deg[(index + 1) % len(cusps_deg)]
        # A house spans the shorter arc to the next cusp: forward along the zodiac, or backward
        # for Gauquelin's sectors, which run with the diurnal motion.
        span = (following - cusp + 180.0) % 360.0 - 180.0
        middle = cusp + span / 2.0
        cusps.append(WheelCusp(index + 1, cusp, screen_angle(cusp, ascendant), screen_angle(middle, ascendant)))
    return tuple(cusps)


def _angles(chart: Chart, ascendant: float) -> tuple[WheelAngle, ...]:
    houses = chart.houses
    angle_longitudes = (houses.ascendant_deg, houses.midheaven_deg, normalize_deg(houses.ascendant_deg + 180.0), normalize_deg(houses.midheaven_deg + 180.0))
    return tuple(WheelAngle(name, longitude, screen_angle(longitude, ascendant)) for name, longitude in zip(ANGLE_NAMES, angle_longitudes))


def _points(positions: list[ChartPosition], ascendant: float) -> tuple[WheelPoint, ...]:
    """Return one ring's bodies: each at the screen angle of its longitude, its glyph spread
    from its neighbours on the same ring."""
    true_angles = [screen_angle(p.longitude, ascendant) for p in positions]
    glyph_angles = spread(true_angles)
    points = []
    for position, true_angle, glyph_angle in zip(positions, true_angles, glyph_angles):
        sign, within = sign_of(position.longitude)
        degree, minute = _degree_minute(within)
        points.append(WheelPoint(position.body, position.longitude, sign.lower(), degree, minute, position.house, position.retrograde, true_angle, glyph_angle))
    return tuple(points)


def _degree_minute(within_sign_deg: float) -> tuple[int, int]:
    """Return the whole degree and minute of an angle within a sign (degrees [0, 30)), the
    minute truncated as an ephemeris prints it (29°59′ is never rounded up to 30°)."""
    total = int(within_sign_deg * 60.0)
    return total // 60, total % 60
