"""The geometry of a chart wheel, from a cast chart: where each sign, cusp, angle, body and
aspect is drawn. Plain numbers, no SVG (``drawing.py`` draws them).

Conventions: the wheel is seen as a horoscope is drawn, the Ascendant at 9 o'clock and the
zodiac running counterclockwise, so the Midheaven stands near the top. A *screen angle* is in
degrees, counterclockwise from 3 o'clock: a longitude ``λ`` (degrees, on the chart's zodiac)
is drawn at ``180 + λ − Ascendant``. A body is marked at its true longitude on the zodiac's
inner edge; its glyph and its label (degree and minute, ``11°06′``, and an R when retrograde,
one line of upright text) are one unit drawn along one spread angle, which may stand a little
aside (spread from its neighbours, never more than needed, and off the cusp lines where that
costs no crowding), with a leader line to the mark.

Sizes are fractions of the wheel's radius; the rings of bodies (``PointRing``) are here, not in
the drawing, because how far a unit must stand from its neighbours depends on how wide its
label is where it stands: upright text is wide across the top and bottom of the wheel and
narrow (one line high) at 3 and 9 o'clock.

A bi-wheel (transits, synastry, progressions, returns over a natal chart) is the inner
chart's wheel (its houses, angles and bodies) with a second ring of bodies, the outer
chart's, turned by the inner chart's Ascendant so both charts share one zodiac; its aspects
are only the cross aspects, from an inner body to an outer one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from kernel.aspects import AspectMatch
from kernel.chart import Chart, ChartPosition
from kernel.zodiac import SIGN_KEYS, normalize_deg, sign_key_of, sign_of

#: The least angle (degrees) between two glyphs on one ring before they are spread apart.
GLYPH_GAP_DEG = 7.0
#: Rounds of pushing crowded glyphs apart; each round moves every crowded pair half the way.
SPREAD_ROUNDS = 200
#: How short of its gap (degrees) a pair of glyphs may stay when the spread stops; and a pair
#: of units (glyph and label), whose widths already hold UNIT_GAP of room.
SPREAD_TOLERANCE_DEG, UNIT_TOLERANCE_DEG = 1e-6, 1e-3
#: The same while units are being moved off the lines (each such spread is done again).
ROUGH_TOLERANCE_DEG = 0.05
#: Rounds of moving units off the cusp and angle lines, each followed by a spread.
LINE_ROUNDS = 6
#: Spreads done again without the cusps next to a unit stuck on an angle's line.
FREEING_ROUNDS = 2
#: How far (degrees) into a unit a line may run before the unit counts as on it: the room
#: between the glyph's ink and the unit's edge (UNIT_GAP) is larger.
LINE_SLACK_DEG = 0.1
#: The angles of a chart, in the order they are drawn: Ascendant, Midheaven, Descendant, Imum Coeli.
ANGLE_NAMES = ("asc", "mc", "dsc", "ic")
#: The zodiac band's outer and inner edges, the house numbers' ring and the aspect circle of
#: a single wheel, and a bi-wheel's circle between its rings, its house numbers and aspect circle.
ZODIAC_OUTER, ZODIAC_INNER = 0.97, 0.82
HOUSE_RING, ASPECT_RING = 0.455, 0.41
BI_DIVIDER, BI_HOUSE_RING, BI_ASPECT_RING = 0.6, 0.362, 0.325
#: The sign glyphs' size and the angle labels' (ASC, MC …, bold) font size.
SIGN_GLYPH, ANGLE_TEXT = 0.075, 0.04
#: Advance widths of Noto Sans (the font the PNG is drawn with, and the SVG's first choice), in
#: thousandths of the font size, of the characters the wheel's labels use (read from the
#: bundled fonts' hmtx tables); ``0`` to ``9`` share one width. Anything else counts as 0.6.
REGULAR_ADVANCE = {**dict.fromkeys("0123456789", 572), "°": 428, "′": 232, " ": 260, "R": 622, "℞": 620}
BOLD_ADVANCE = {"A": 690, "S": 551, "C": 637, "M": 943, "D": 740, "I": 389}
#: A line of label text's height, as a fraction of its font size (the digits' ink, 0.714,
#: and a little room), and the space between a label and its R (of the font size).
TEXT_HEIGHT, RETROGRADE_SPACE = 0.8, 0.2
#: The space kept between a glyph and its label, and between units (or a unit and a cusp
#: line it is moved off), as fractions of the radius.
LABEL_GAP, UNIT_GAP = 0.012, 0.016


@dataclass(frozen=True)
class PointRing:
    """Where one ring of bodies is drawn, as fractions of the wheel's radius: the circle its
    marks stand on (inside it), its glyphs' centres, the glyphs' size, the labels' font size,
    and how far outside the glyph's centre its leader line ends."""

    edge: float
    glyph: float
    glyph_size: float
    text_size: float
    leader_gap: float


#: The single wheel's one ring, under the zodiac band.
SINGLE_RING = PointRing(ZODIAC_INNER, 0.695, 0.07, 0.032, 0.045)
#: A bi-wheel's rings: the outer chart's under the zodiac band, then a circle dividing the
#: rings, the inner chart's under it, then the house numbers and the aspect circle. Glyphs
#: and labels are a little smaller than the single wheel's so both rings fit.
BI_OUTER_RING = PointRing(ZODIAC_INNER, 0.777, 0.052, 0.028, 0.034)
BI_INNER_RING = PointRing(BI_DIVIDER, 0.557, 0.052, 0.028, 0.034)


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
    """One angle of the chart (asc, mc, dsc, ic): its longitude, screen angle (degrees), and
    the screen angle of its label's centre, in the zodiac band beside its line."""

    name: str
    longitude: float
    angle_deg: float
    label_deg: float


@dataclass(frozen=True)
class WheelPoint:
    """One body on a ring: its name, longitude (degrees, chart's zodiac), sign, degree and
    minute within the sign, house, whether retrograde, the screen angle of its true longitude,
    the screen angle its glyph and label are drawn at (spread from crowded neighbours), and
    the radius (fraction of the wheel's) of its label's centre."""

    body: str
    longitude: float
    sign: str
    degree: int
    minute: int
    house: int
    retrograde: bool
    angle_deg: float
    glyph_deg: float
    label_radius: float

    @property
    def label(self) -> str:
        """Return the position's label, degree then minute within the sign: ``11°06′``."""
        return f"{self.degree}°{self.minute:02d}′"


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


@dataclass(frozen=True)
class GridCell:
    """One cell of the aspect grid: its row and column (from 0) and the aspect it shows."""

    row: int
    column: int
    aspect: WheelAspect


@dataclass(frozen=True)
class AspectGrid:
    """The aspect grid of a wheel: the bodies of its rows and of its columns, and one cell per
    aspect. A single wheel's grid is triangular: rows and columns are the same bodies, whose
    glyphs stand on the diagonal, and an aspect's cell is below it (row after column). A
    bi-wheel's is the cross-aspect table: a row per inner body, a column per outer body."""

    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: tuple[GridCell, ...]
    triangular: bool


def aspect_grid(layout: WheelLayout) -> AspectGrid:
    """Return the aspect grid of ``layout``: its rows, columns and cells, in the order of the
    layout's aspects."""
    rows = tuple(p.body for p in layout.points)
    if layout.is_biwheel:
        columns = tuple(p.body for p in layout.outer_points)
        cells = tuple(GridCell(rows.index(a.body_a), columns.index(a.body_b), a) for a in layout.aspects)
        return AspectGrid(rows, columns, cells, triangular=False)
    cells = []
    for a in layout.aspects:
        first, second = rows.index(a.body_a), rows.index(a.body_b)
        cells.append(GridCell(max(first, second), min(first, second), a))
    return AspectGrid(rows, rows, tuple(cells), triangular=True)


def screen_angle(longitude_deg: float, ascendant_deg: float) -> float:
    """Return the screen angle (degrees [0, 360), counterclockwise from 3 o'clock) at which the
    longitude ``longitude_deg`` is drawn on a wheel whose Ascendant is ``ascendant_deg``."""
    return normalize_deg(180.0 + longitude_deg - ascendant_deg)


def spread(
    angles_deg: list[float], gap_deg: float = GLYPH_GAP_DEG, width: Callable[[int, float], float] | None = None
) -> list[float]:
    """Return the angles (degrees) at which glyphs at ``angles_deg`` are drawn so that no two
    neighbours stand closer than ``gap_deg``, nor closer than half the sum of their widths
    when ``width(index, angle)`` gives the degrees the unit at ``index`` spans standing at
    ``angle`` (less when the ring cannot hold them all: then ``gap_deg`` shrinks to 95% of an
    even share, and the room widths ask for beyond it to what the ring has), each moved as
    little as the crowding needs; in the order given. Deterministic."""
    return _spread(angles_deg, gap_deg, width, SPREAD_TOLERANCE_DEG if width is None else UNIT_TOLERANCE_DEG)


def _spread(
    angles_deg: list[float], gap_deg: float, width: Callable[[int, float], float] | None, tolerance: float
) -> list[float]:
    """Return ``spread``'s angles (degrees), each pair left no more than ``tolerance`` degrees
    short of its gap."""
    count = len(angles_deg)
    if count < 2:
        return [normalize_deg(a) for a in angles_deg]
    least = min(gap_deg, 360.0 / count * 0.95)
    order = sorted(range(count), key=lambda i: (normalize_deg(angles_deg[i]), i))
    # Unwrapped positions along the ring in ascending order; the last neighbours the first + 360.
    shown = [normalize_deg(angles_deg[i]) for i in order]
    for _ in range(SPREAD_ROUNDS):
        gaps = _gaps(shown, order, least, width)
        moved = False
        for k in range(count):
            nxt = (k + 1) % count
            ahead = shown[nxt] + (360.0 if nxt == 0 else 0.0)
            short = gaps[k] - (ahead - shown[k])
            if short > tolerance:
                shown[k] -= short / 2
                shown[nxt] += short / 2
                moved = True
        if not moved:
            break
    result = [0.0] * count
    for k, i in enumerate(order):
        result[i] = normalize_deg(shown[k])
    return result


def _gaps(
    shown: list[float], order: list[int], least: float, width: Callable[[int, float], float] | None
) -> list[float]:
    """Return the least angle (degrees) between each unit (in ring order) and the next: at
    least ``least``, half their widths' sum; the room beyond ``least`` scaled down when the
    ring (95% of it, so that neighbours can still be told apart) cannot hold it."""
    count = len(shown)
    if width is None:
        return [least] * count
    widths = [width(i, angle) for i, angle in zip(order, shown)]
    gaps = [max(least, (widths[k] + widths[(k + 1) % count]) / 2) for k in range(count)]
    room, asked = 360.0 * 0.95 - least * count, sum(gaps) - least * count
    if asked > room:
        scale = max(room, 0.0) / asked
        gaps = [least + (gap - least) * scale for gap in gaps]
    return gaps


def label_box(point: WheelPoint, ring: PointRing) -> tuple[float, float]:
    """Return the width and height (fractions of the wheel's radius) of ``point``'s label on
    ``ring``, its R (when retrograde) included."""
    return _label_box(point.degree, point.minute, point.retrograde, ring)


def _label_box(degree: int, minute: int, retrograde: bool, ring: PointRing) -> tuple[float, float]:
    width = text_width(f"{degree}°{minute:02d}′", ring.text_size)
    if retrograde:
        width += ring.text_size * RETROGRADE_SPACE + text_width("R", ring.text_size)
    return width, ring.text_size * TEXT_HEIGHT


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Return the advance width of ``text`` set in Noto Sans at ``size`` (in the units of
    ``size``)."""
    advance = BOLD_ADVANCE if bold else REGULAR_ADVANCE
    return size * sum(advance.get(character, 600) for character in text) / 1000.0


def across(width: float, height: float, angle_deg: float) -> float:
    """Return how far an upright box ``width`` by ``height`` reaches across the radius (along
    the tangent) at screen angle ``angle_deg``, in the box's units."""
    theta = math.radians(angle_deg)
    return width * abs(math.sin(theta)) + height * abs(math.cos(theta))


def along(width: float, height: float, angle_deg: float) -> float:
    """Return how far an upright box ``width`` by ``height`` reaches along the radius at screen
    angle ``angle_deg``, in the box's units."""
    theta = math.radians(angle_deg)
    return width * abs(math.cos(theta)) + height * abs(math.sin(theta))


def label_radius(box: tuple[float, float], ring: PointRing, angle_deg: float) -> float:
    """Return the radius (fraction of the wheel's) of the centre of a label ``box`` drawn at
    ``angle_deg`` on ``ring``: just inside its glyph, as far in as the box reaches along the
    radius there."""
    return ring.glyph - ring.glyph_size / 2 - LABEL_GAP - along(*box, angle_deg) / 2


def _unit_width(box: tuple[float, float], ring: PointRing, angle_deg: float) -> float:
    """Return the angle (degrees) a glyph and its label ``box`` span across the radius at
    ``angle_deg``, the gap to a neighbour included."""
    glyph = (ring.glyph_size + UNIT_GAP) / ring.glyph
    label = (across(*box, angle_deg) + UNIT_GAP) / label_radius(box, ring, angle_deg)
    return math.degrees(max(glyph, label))


def wheel_layout(chart: Chart) -> WheelLayout:
    """Return the layout of ``chart``'s wheel: its signs, cusps (as many as the chart's house
    system has: 12, or Gauquelin's 36), angles, bodies and aspects."""
    ascendant = chart.houses.ascendant_deg
    points = _points(chart.positions, ascendant, SINGLE_RING, _lines(chart, ascendant))
    at = {p.body: p.angle_deg for p in points}
    aspects = tuple(
        WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at[a.body_a], at[a.body_b]) for a in chart.aspects
    )
    return WheelLayout(
        ascendant, _signs(ascendant), _cusps(chart, ascendant), _angles(chart, ascendant), points, aspects
    )


def biwheel_layout(inner: Chart, outer: Chart, cross_aspects: list[AspectMatch]) -> WheelLayout:
    """Return the layout of a bi-wheel: ``inner``'s signs, cusps, angles and bodies, ``outer``'s
    bodies on the outer ring (at screen angles turned by the inner Ascendant, spread among
    themselves only, since the rings do not share a radius), and ``cross_aspects`` (body_a
    from ``inner``, body_b from ``outer``, as kernel.synastry.inter_chart returns them)."""
    ascendant = inner.houses.ascendant_deg
    lines = _lines(inner, ascendant)
    points, outer_points = (
        _points(inner.positions, ascendant, BI_INNER_RING, lines),
        _points(outer.positions, ascendant, BI_OUTER_RING, lines),
    )
    at_inner = {p.body: p.angle_deg for p in points}
    at_outer = {p.body: p.angle_deg for p in outer_points}
    aspects = tuple(
        WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at_inner[a.body_a], at_outer[a.body_b])
        for a in cross_aspects
    )
    return WheelLayout(
        ascendant, _signs(ascendant), _cusps(inner, ascendant), _angles(inner, ascendant), points, aspects, outer_points
    )


def _lines(chart: Chart, ascendant: float) -> tuple[list[float], list[float]]:
    """Return the screen angles (degrees) of the lines drawn across the rings of bodies that
    the units keep off: the four angles', and the cusps of 12 houses (Gauquelin's 36 sectors,
    10° apart, leave no room between them for a unit to stand clear)."""
    cusps = chart.houses.cusps_deg
    return [a.angle_deg for a in _angles(chart, ascendant)], [screen_angle(c, ascendant) for c in cusps] if len(
        cusps
    ) <= 12 else []


def _signs(ascendant: float) -> tuple[WheelSign, ...]:
    return tuple(
        WheelSign(sign, screen_angle(30.0 * index, ascendant), screen_angle(30.0 * index + 15.0, ascendant))
        for index, sign in enumerate(SIGN_KEYS)
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
    angle_longitudes = (
        houses.ascendant_deg,
        houses.midheaven_deg,
        normalize_deg(houses.ascendant_deg + 180.0),
        normalize_deg(houses.midheaven_deg + 180.0),
    )
    signs = _signs(ascendant)
    angles = []
    for name, longitude in zip(ANGLE_NAMES, angle_longitudes):
        at = screen_angle(longitude, ascendant)
        angles.append(WheelAngle(name, longitude, at, _angle_label_deg(name, at, signs)))
    return tuple(angles)


def _angle_label_deg(name: str, angle_deg: float, signs: tuple[WheelSign, ...]) -> float:
    """Return the screen angle (degrees) of the centre of the label of the angle ``name`` drawn
    at ``angle_deg``: in the middle of the zodiac band, beside its line, where it covers no
    sign glyph and no sign's boundary line. Below the horizon's line for the Ascendant and
    Descendant and after the meridian's line for the Midheaven and the IC (counterclockwise),
    the other side when that one is taken; stepping away from the line when both are."""
    band = (ZODIAC_OUTER + ZODIAC_INNER) / 2
    width, height = text_width(name.upper(), ANGLE_TEXT, bold=True), ANGLE_TEXT * TEXT_HEIGHT
    half = math.degrees((across(width, height, angle_deg) / 2 + UNIT_GAP) / band)
    glyph_half = math.degrees((SIGN_GLYPH / 2 + UNIT_GAP) / band)
    first = 1.0 if name in ("asc", "dsc") else -1.0
    for step in range(12):
        for side in (first, -first):
            centre = angle_deg + side * (half + step * 1.0)
            clear_of_glyphs = all(abs(_signed(centre - sign.middle_deg)) >= half + glyph_half for sign in signs)
            clear_of_lines = all(abs(_signed(centre - sign.start_deg)) >= half for sign in signs)
            if clear_of_glyphs and clear_of_lines:
                return normalize_deg(centre)
    return normalize_deg(angle_deg + first * half)


def _points(
    positions: list[ChartPosition], ascendant: float, ring: PointRing, lines_deg: tuple[list[float], list[float]]
) -> tuple[WheelPoint, ...]:
    """Return one ring's bodies: each at the screen angle of its longitude, its glyph and label
    spread from its neighbours on the same ring, and moved off the angle and cusp lines
    ``lines_deg`` (their screen angles) where there is room."""
    angles_deg, cusps_deg = lines_deg
    true_angles = [screen_angle(p.longitude, ascendant) for p in positions]
    boxes = [_label_box(*_degree_minute(sign_of(p.longitude)[1]), p.retrograde, ring) for p in positions]

    widths: dict[tuple[int, int], float] = {}

    def width(index: int, angle_deg: float) -> float:
        # Looked up by the quarter degree: a unit's width changes by far less across it, and
        # the spread asks for it thousands of times.
        key = (index, int(angle_deg * 4.0))
        if key not in widths:
            widths[key] = _unit_width(boxes[index], ring, key[1] / 4.0)
        return widths[key]

    # The angles' heavy lines first: where the cusps leave no room (two bodies in a narrow
    # house beside an angle), a unit pushed onto an angle's line frees itself by ignoring the
    # nearest cusp on either side of it, and the spread is done again.
    for _ in range(FREEING_ROUNDS):
        glyph_angles = _off_lines(true_angles, width, angles_deg + cusps_deg)
        stuck = [angle for i, angle in enumerate(glyph_angles) if _on_line(angle, width(i, angle), angles_deg)]
        near = (
            {
                min(cusps_deg, key=lambda c, a=angle, side=side: (side * _signed(c - a) <= 0, abs(_signed(c - a))))
                for angle in stuck
                for side in (1, -1)
            }
            if cusps_deg
            else set()
        )
        freed = [c for c in cusps_deg if c not in near]
        if freed == cusps_deg:
            break
        cusps_deg = freed
    points = []
    for position, true_angle, glyph_angle, box in zip(positions, true_angles, glyph_angles, boxes):
        sign, within = sign_key_of(position.longitude)
        degree, minute = _degree_minute(within)
        points.append(
            WheelPoint(
                position.body,
                position.longitude,
                sign,
                degree,
                minute,
                position.house,
                position.retrograde,
                true_angle,
                glyph_angle,
                label_radius(box, ring, glyph_angle),
            )
        )
    return tuple(points)


def _off_lines(true_angles: list[float], width: Callable[[int, float], float], lines_deg: list[float]) -> list[float]:
    """Return the angles (degrees) of the units whose true angles are ``true_angles``, spread
    apart and kept off the lines at ``lines_deg`` (screen angles): a unit a line runs through
    is moved just off it, to the side its body's true longitude is on (its own house's side),
    and its neighbours spread again from there, for at most LINE_ROUNDS rounds. The last
    spread always holds, so where the lines leave no room a unit stays on its line (its
    label's halo keeps it readable there)."""
    shown = spread(true_angles, width=width)
    last_moves: list[tuple[int, float]] = []
    for _ in range(LINE_ROUNDS):
        moves = []
        for index, angle in enumerate(shown):
            half = width(index, angle) / 2
            line = _line_under(angle, half, lines_deg)
            if line is not None:
                side = _signed(true_angles[index] - line) or _signed(angle - line) or 1.0
                moves.append((index, normalize_deg(line + math.copysign(half, side))))
        # No unit on a line, or the spread put back the same ones as last time: no room.
        if not moves or [(i, round(at, 3)) for i, at in moves] == last_moves:
            break
        last_moves = [(i, round(at, 3)) for i, at in moves]
        for index, at in moves:
            shown[index] = at
        # Roughly while units are still moved off lines; exactly once they no longer are.
        shown = _spread(shown, GLYPH_GAP_DEG, width, ROUGH_TOLERANCE_DEG)
    return spread(shown, width=width) if last_moves else shown


def _on_line(angle_deg: float, width_deg: float, lines_deg: list[float]) -> bool:
    """Return whether a unit ``width_deg`` wide at ``angle_deg`` covers one of ``lines_deg``."""
    return _line_under(angle_deg, width_deg / 2, lines_deg) is not None


def _line_under(angle_deg: float, half_deg: float, lines_deg: list[float]) -> float | None:
    """Return the first of ``lines_deg`` a unit reaching ``half_deg`` either side of
    ``angle_deg`` covers (by more than LINE_SLACK_DEG: the spread's last rounds leave units
    that far short), or None."""
    reach = half_deg - LINE_SLACK_DEG
    for line in lines_deg:
        if abs((angle_deg - line + 180.0) % 360.0 - 180.0) < reach:
            return line
    return None


def _signed(angle_deg: float) -> float:
    """Return an angle difference (degrees) in [-180, 180)."""
    return (angle_deg + 180.0) % 360.0 - 180.0


def _degree_minute(within_sign_deg: float) -> tuple[int, int]:
    """Return the whole degree and minute of an angle within a sign (degrees [0, 30)), the
    minute truncated as an ephemeris prints it (29°59′ is never rounded up to 30°)."""
    total = int(within_sign_deg * 60.0)
    return total // 60, total % 60
