"""The geometry of a chart wheel, from a cast chart: where each sign, cusp, angle, body and
aspect is drawn. Plain numbers, no SVG (``drawing.py`` draws them).

Conventions: the wheel is seen as a horoscope is drawn, the Ascendant at 9 o'clock and the
zodiac running counterclockwise, so the Midheaven stands near the top. A *screen angle* is in
degrees, counterclockwise from 3 o'clock: a longitude ``λ`` (degrees, on the chart's zodiac)
is drawn at ``180 + λ − Ascendant``. A body is marked at its true longitude on the zodiac's
inner edge; its glyph and its label (degree and minute, ``11°06′``, and ℞ when retrograde,
one line of upright text) are one unit drawn along one angle, with a leader line to the mark,
placed within its sign and house by ``placement.py``. Where a line cannot be kept clear of a
unit (a house narrower than a glyph), the line is drawn with a gap across it (``line_pieces``).

Sizes are fractions of the wheel's radius (``geometry.py``).

A bi-wheel (transits, synastry, progressions, returns over a natal chart) is the inner
chart's wheel (its houses, angles and bodies) with a second ring of bodies, the outer
chart's, turned by the inner chart's Ascendant so both charts share one zodiac; its aspects
are only the cross aspects, from an inner body to an outer one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kernel.aspects import AspectMatch
from kernel.chart import Chart
from kernel.zodiac import SIGN_KEYS, normalize_deg, sign_key_of, sign_of
from services.ephemeris.wheel.geometry import (
    ANGLE_DEGREE_TEXT,
    ANGLE_TEXT,
    ASPECT_RING,
    BI_HOUSE_TEXT,
    CUSP_RIM,
    CUSP_TEXT,
    HOUSE_GAP,
    HOUSE_TEXT,
    SECTOR_TEXT,
    SIGN_GLYPH,
    SINGLE_RING,
    TEXT_HEIGHT,
    UNIT_GAP,
    ZODIAC_INNER,
    ZODIAC_OUTER,
    across,
    along,
    biwheel_rings,
    degree_minute,
    house_number_radius,
    screen_angle,
    signed_deg,
    text_width,
)
from services.ephemeris.wheel.placement import WheelPoint, label_box, place_points
from services.ephemeris.wheel.points import chart_points

#: The angles of a chart, in the order they are drawn: Ascendant, Midheaven, Descendant, Imum Coeli.
ANGLE_NAMES = ("asc", "mc", "dsc", "ic")
#: The room (fraction of the radius) a line's gap leaves around a unit it could not clear.
LINE_GAP_PAD = 0.006


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
    the screen angle of its house number (the middle of the house), its degree and minute
    within its sign, and the screen angle of their centre in the zodiac band's outer rim
    beside its line (None where no position is drawn: a cusp on an angle, whose position the
    angle's reads, one whose place beside its line the angle's label and position fill, and
    Gauquelin's 36 sectors), and the radius (fraction of the wheel's) and font size of its
    house number, in the thin ring just outside the aspect circle (``house_number_radius``)."""

    house: int
    longitude: float
    angle_deg: float
    label_deg: float
    degree: int = 0
    minute: int = 0
    position_deg: float | None = None
    label_radius: float = 0.0
    label_size: float = 0.0

    @property
    def position(self) -> str:
        """Return the cusp's degree and minute within its sign: ``14°07′``."""
        return f"{self.degree}°{self.minute:02d}′"


@dataclass(frozen=True)
class WheelAngle:
    """One angle of the chart (asc, mc, dsc, ic): its longitude, screen angle (degrees), the
    screen angle of its label's centre, in the zodiac band beside its line, its degree, minute
    and sign, and the screen angle of the centre of its position (``14°07′`` and the sign's
    glyph) in the band, on the other side of its line where there is room."""

    name: str
    longitude: float
    angle_deg: float
    label_deg: float
    degree: int = 0
    minute: int = 0
    sign: str = "aries"
    position_deg: float = 0.0

    @property
    def position(self) -> str:
        """Return the angle's degree and minute within its sign: ``14°07′``."""
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
    by, the 12 signs, the cusps, the four angles, the points (the bodies and the points drawn
    beside them: ``points.py``) and the bodies' aspects; for a bi-wheel also the outer chart's
    points (``outer_points``, empty on a single wheel), the aspects then being the cross
    aspects (``body_a`` inner, ``body_b`` outer)."""

    ascendant: float
    signs: tuple[WheelSign, ...]
    cusps: tuple[WheelCusp, ...]
    angles: tuple[WheelAngle, ...]
    points: tuple[WheelPoint, ...]
    aspects: tuple[WheelAspect, ...]
    outer_points: tuple[WheelPoint, ...] = ()
    aspect_ring: float = ASPECT_RING
    divider: float = 0.0

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
    """Return the aspect grid of ``layout``: its rows, columns (its bodies; the other points
    have no aspects) and cells, in the order of the layout's aspects."""
    rows = tuple(p.body for p in layout.points if p.kind == "body")
    if layout.is_biwheel:
        columns = tuple(p.body for p in layout.outer_points if p.kind == "body")
        cells = tuple(GridCell(rows.index(a.body_a), columns.index(a.body_b), a) for a in layout.aspects)
        return AspectGrid(rows, columns, cells, triangular=False)
    cells = []
    for a in layout.aspects:
        first, second = rows.index(a.body_a), rows.index(a.body_b)
        cells.append(GridCell(max(first, second), min(first, second), a))
    return AspectGrid(rows, rows, tuple(cells), triangular=True)


Block = tuple[float, float, float, float]
#: A box: left, bottom, right, top (fractions of the radius, y up).
Box = tuple[float, float, float, float]


def unit_blocks(point: WheelPoint) -> tuple[Block, Block]:
    """Return where ``point``'s glyph and its label stand, each as (the screen angle of its
    centre, the half angle in degrees it spans either side of it, and the least and greatest
    radius it reaches, fractions of the wheel's)."""
    glyph_reach = across(point.glyph_size, point.glyph_size, point.glyph_deg) / 2
    glyph_along = along(point.glyph_size, point.glyph_size, point.glyph_deg) / 2
    glyph_in = point.glyph_radius - glyph_along
    box = label_box(point)
    label_along, label_across = along(*box, point.glyph_deg) / 2, across(*box, point.glyph_deg) / 2
    label_in = point.label_radius - label_along
    return (
        (point.glyph_deg, math.degrees(glyph_reach / glyph_in), glyph_in, point.glyph_radius + glyph_along),
        (point.glyph_deg, math.degrees(label_across / label_in), label_in, point.label_radius + label_along),
    )


def sign_blocks(layout: WheelLayout) -> list[Block]:
    """Return where the sign glyphs stand in the zodiac band, as ``unit_blocks`` gives a unit."""
    band = (ZODIAC_OUTER + ZODIAC_INNER) / 2
    return [
        (
            sign.middle_deg,
            math.degrees(across(SIGN_GLYPH, SIGN_GLYPH, sign.middle_deg) / 2 / (band - SIGN_GLYPH / 2)),
            band - SIGN_GLYPH / 2,
            band + SIGN_GLYPH / 2,
        )
        for sign in layout.signs
    ]


def layout_blocks(layout: WheelLayout) -> list[Block]:
    """Return every glyph and label of ``layout``'s bodies (both rings) and its sign glyphs, as
    ``unit_blocks`` gives them: what the cusp and angle lines leave a gap for."""
    blocks = sign_blocks(layout)
    for point in layout.points + layout.outer_points:
        blocks.extend(unit_blocks(point))
    return blocks


def line_pieces(angle_deg: float, inner: float, outer: float, blocks: list[Block]) -> list[tuple[float, float]]:
    """Return the pieces (pairs of radii, fractions of the wheel's, inward first) drawn of a
    line at the screen angle ``angle_deg`` from ``inner`` to ``outer``: all of it but a gap
    LINE_GAP_PAD wider than each of ``blocks`` it would cross (a unit that could not be kept
    clear of the line, a sign glyph on an angle's line)."""
    cuts = sorted(
        (low - LINE_GAP_PAD, high + LINE_GAP_PAD)
        for at, half, low, high in blocks
        if abs(signed_deg(angle_deg - at)) < half + math.degrees(LINE_GAP_PAD / low) and high > inner and low < outer
    )
    pieces, start = [], inner
    for low, high in cuts:
        if low > start:
            pieces.append((start, min(low, outer)))
        start = max(start, high)
    if start < outer:
        pieces.append((start, outer))
    return pieces


def wheel_layout(chart: Chart, *, vertex: bool = False) -> WheelLayout:
    """Return the layout of ``chart``'s wheel: its signs, cusps (as many as the chart's house
    system has: 12, or Gauquelin's 36), angles, points (its bodies, the south node opposite
    each node, its lots, and its Vertex with ``vertex``: ``points.chart_points``) and its
    bodies' aspects."""
    ascendant = chart.houses.ascendant_deg
    angles = _angles(chart, ascendant)
    points = place_points(chart_points(chart, vertex=vertex), ascendant, SINGLE_RING, ring_lines(chart))
    at = {p.body: p.angle_deg for p in points}
    aspects = tuple(
        WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at[a.body_a], at[a.body_b]) for a in chart.aspects
    )
    ends = [at for aspect in aspects for at in (aspect.angle_a_deg, aspect.angle_b_deg)]
    cusps = _cusps(chart, ascendant, angles, (ASPECT_RING, HOUSE_TEXT, ends))
    return WheelLayout(ascendant, _signs(ascendant), cusps, angles, points, aspects)


def biwheel_layout(
    inner: Chart, outer: Chart, cross_aspects: list[AspectMatch], *, vertex: bool = False, size: int = 800
) -> WheelLayout:
    """Return the layout of a bi-wheel: ``inner``'s signs, cusps, angles and points, ``outer``'s
    points (each chart's as ``wheel_layout`` draws them, with ``vertex``) on the outer ring (at
    screen angles turned by the inner Ascendant, placed among themselves only, since the rings
    do not share a radius, each within its sign and the inner chart's house its longitude falls
    in), and ``cross_aspects`` (body_a from ``inner``, body_b from ``outer``, as
    kernel.synastry.inter_chart returns them). Both rings are legible at ``size`` pixels
    (``geometry.legible``: no glyph or label smaller than its least there, a crowded stretch's
    labels shortened or left out first: ``placement.py``); on a small wheel whose inner ring
    does not keep every label whole, that ring deeper, the aspect circle making room for it
    (``geometry.biwheel_rings``)."""
    ascendant = inner.houses.ascendant_deg
    angles = _angles(inner, ascendant)
    lines = ring_lines(inner)
    inner_points = chart_points(inner, vertex=vertex)
    rings = biwheel_rings(size, crowded=False)
    points = place_points(inner_points, ascendant, rings.inner, lines)
    if any(p.label_form != "full" for p in points):
        deeper = biwheel_rings(size, crowded=True)
        if deeper != rings:
            rings, points = deeper, place_points(inner_points, ascendant, deeper.inner, lines)
    outer_points = place_points(chart_points(outer, vertex=vertex), ascendant, rings.outer, lines)
    at_inner = {p.body: p.angle_deg for p in points}
    at_outer = {p.body: p.angle_deg for p in outer_points}
    aspects = tuple(
        WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at_inner[a.body_a], at_outer[a.body_b])
        for a in cross_aspects
    )
    ends = [at for aspect in aspects for at in (aspect.angle_a_deg, aspect.angle_b_deg)]
    cusps = _cusps(inner, ascendant, angles, (rings.aspect_ring, BI_HOUSE_TEXT, ends))
    return WheelLayout(
        ascendant, _signs(ascendant), cusps, angles, points, aspects, outer_points, rings.aspect_ring, rings.divider
    )


def ring_lines(chart: Chart) -> tuple[list[float], list[float]]:
    """Return the longitudes (degrees) bounding the houses (the cusps), and those of the lines
    drawn across the rings of bodies that units keep clear of: the four angles' and the cusps
    of 12 houses (Gauquelin's 36 sectors, 10° apart, leave no room between them for a unit to
    stand clear; their units keep within their sectors all the same)."""
    houses = chart.houses
    cusps = list(houses.cusps_deg)
    angles = [
        houses.ascendant_deg,
        houses.midheaven_deg,
        normalize_deg(houses.ascendant_deg + 180.0),
        normalize_deg(houses.midheaven_deg + 180.0),
    ]
    return cusps, angles + (cusps if len(cusps) <= 12 else [])


def _signs(ascendant: float) -> tuple[WheelSign, ...]:
    return tuple(
        WheelSign(sign, screen_angle(30.0 * index, ascendant), screen_angle(30.0 * index + 15.0, ascendant))
        for index, sign in enumerate(SIGN_KEYS)
    )


def _cusps(
    chart: Chart, ascendant: float, angles: tuple[WheelAngle, ...], numbers: tuple[float, float, list[float]]
) -> tuple[WheelCusp, ...]:
    """Return ``chart``'s cusps as its wheel draws them, with their house numbers (``numbers``:
    the aspect circle's radius, the numbers' font size with 12 houses, and the screen angles
    where the aspect lines end on the circle)."""
    aspect_ring, number_size, ends = numbers
    ends = sorted(set(ends))  # a body ends as many lines as it has aspects
    cusps_deg = list(chart.houses.cusps_deg)
    if len(cusps_deg) > 12:
        number_size = SECTOR_TEXT
    lines = [screen_angle(c, ascendant) for c in cusps_deg] + [a.angle_deg for a in angles]
    signs = _signs(ascendant)
    taken = _band_boxes(signs, angles)
    on_angles = [a.angle_deg for a in angles]
    cusps = []
    for index, cusp in enumerate(cusps_deg):
        following = cusps_deg[(index + 1) % len(cusps_deg)]
        # A house spans the shorter arc to the next cusp: forward along the zodiac, or backward
        # for Gauquelin's sectors, which run with the diurnal motion.
        span = (following - cusp + 180.0) % 360.0 - 180.0
        middle = cusp + span / 2.0
        at = screen_angle(cusp, ascendant)
        degree, minute = degree_minute(sign_of(cusp)[1])
        position_deg = None
        if len(cusps_deg) <= 12 and all(abs(signed_deg(at - line)) > 1e-6 for line in on_angles):
            width = text_width(f"{degree}°{minute:02d}′", CUSP_TEXT)
            position_deg = _cusp_position_deg(at, cusp, 1.0 if span > 0 else -1.0, width, on_angles, taken)
            if position_deg is not None:
                taken.append(cusp_position_box(position_deg, width))
        label_deg = _house_number_deg(
            screen_angle(middle, ascendant), span, str(index + 1), number_size, aspect_ring, ends, lines
        )
        label_radius = house_number_radius(index + 1, number_size, aspect_ring, label_deg)
        cusps.append(WheelCusp(index + 1, cusp, at, label_deg, degree, minute, position_deg, label_radius, number_size))
    return tuple(cusps)


#: How far (degrees) a house number keeps from the ends of the aspect lines on the circle
#: where its house has room (a fan of lines ending just under a number seems to point at it),
#: and the steps (degrees) it is moved in from the middle of its house to find that room.
NUMBER_CLEAR_DEG, NUMBER_STEP_DEG = 9.0, 1.0


def _house_number_deg(
    middle_deg: float, span: float, number: str, size: float, ring: float, ends: list[float], lines: list[float]
) -> float:
    """Return the screen angle (degrees) of the centre of a house's ``number`` set at ``size``,
    in the thin ring outside the aspect circle ``ring``: the middle of the house (``middle_deg``,
    ``span`` degrees wide), unless an aspect line ends (``ends``, screen angles) within
    NUMBER_CLEAR_DEG of it; then the place within the house farthest from every end (up to
    NUMBER_CLEAR_DEG, the nearest to the middle among equals). Always clear of the cusp and
    angle ``lines`` (screen angles), which cross the ring, where the house has room for it."""
    width, height = text_width(number, size), size * TEXT_HEIGHT
    # The half angle the number spans at the circle, whichever way the box is turned (its
    # half diagonal), and a line's gap around it.
    half = math.degrees((math.hypot(width, height) / 2 + LINE_GAP_PAD) / (ring + HOUSE_GAP))
    reach = abs(span) / 2.0 + NUMBER_CLEAR_DEG  # only the lines and ends this near can matter
    lines = [d for d in (signed_deg(line - middle_deg) for line in lines) if abs(d) < reach]
    ends = [d for d in (signed_deg(end - middle_deg) for end in ends) if abs(d) < reach]
    steps = int(abs(span) / 2.0 / NUMBER_STEP_DEG)
    best, best_score = 0.0, -1.0
    for step in sorted(range(-steps, steps + 1), key=abs):
        offset = step * NUMBER_STEP_DEG
        if any(abs(line - offset) < half for line in lines):
            continue
        score = min([NUMBER_CLEAR_DEG] + [abs(end - offset) for end in ends])
        if score > best_score + 1e-9:
            best, best_score = offset, score
        if best_score >= NUMBER_CLEAR_DEG:
            break
    return normalize_deg(middle_deg + best)


def house_number_box(cusp: WheelCusp) -> Box:
    """Return the box (left, bottom, right, top; fractions of the radius, y up) of ``cusp``'s
    house number: its advance width by TEXT_HEIGHT of its font size, centred where it is drawn."""
    width = text_width(str(cusp.house), cusp.label_size)
    return _box_at(cusp.label_radius, cusp.label_deg, width, cusp.label_size * TEXT_HEIGHT)


def cusp_position_box(angle_deg: float, width: float) -> Box:
    """Return the box (left, bottom, right, top; fractions of the radius, y up) of a cusp's
    position ``width`` wide centred at ``angle_deg`` in the zodiac band's outer rim: as far
    out as the band lets it (CUSP_RIM inside its edge)."""
    height = CUSP_TEXT * TEXT_HEIGHT
    radius = ZODIAC_OUTER - CUSP_RIM - along(width, height, angle_deg) / 2
    return _box_at(radius, angle_deg, width, height)


def _box_at(radius: float, angle_deg: float, width: float, height: float) -> Box:
    """Return the box (left, bottom, right, top; y up) ``width`` by ``height`` centred at
    ``radius`` and the screen angle ``angle_deg``."""
    x, y = radius * math.cos(math.radians(angle_deg)), radius * math.sin(math.radians(angle_deg))
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _band_boxes(signs: tuple[WheelSign, ...], angles: tuple[WheelAngle, ...]) -> list[Box]:
    """Return the boxes of what the zodiac band holds: the sign glyphs, the angles' labels
    (their English width) and the angles' positions."""
    band = (ZODIAC_OUTER + ZODIAC_INNER) / 2
    boxes = [_box_at(band, sign.middle_deg, SIGN_GLYPH, SIGN_GLYPH) for sign in signs]
    for angle in angles:
        label = text_width(angle.name.upper(), ANGLE_TEXT, bold=True)
        boxes.append(_box_at(band, angle.label_deg, label, ANGLE_TEXT * TEXT_HEIGHT))
        width = position_width(angle.degree, angle.minute)
        boxes.append(_box_at(band, angle.position_deg, width, ANGLE_DEGREE_TEXT * 1.1))
    return boxes


def _cusp_position_deg(
    cusp_deg: float, longitude: float, inward: float, width: float, lines: list[float], taken: list[Box]
) -> float | None:
    """Return the screen angle (degrees) of the centre of the position ``width`` wide of a cusp
    at ``longitude`` in the band's outer rim, within the cusp's sign: beside its line on its house's side
    (``inward``: +1 when the house runs counterclockwise), else the other side, stepping away
    from the line until it meets no sign boundary, angle line or box ``taken``; None when no
    place within 15° is clear (a cusp a degree from an angle, whose label and position fill
    the band there: the angle's position then reads nearly the cusp's)."""
    height = CUSP_TEXT * TEXT_HEIGHT
    rim = ZODIAC_OUTER - CUSP_RIM
    sign_low = math.floor(longitude / 30.0) * 30.0
    # Only boxes near the cusp can meet its position (16 steps of 1° stay within 0.4 of it).
    x, y = rim * math.cos(math.radians(cusp_deg)), rim * math.sin(math.radians(cusp_deg))
    taken = [b for b in taken if abs((b[0] + b[2]) / 2 - x) < 0.45 and abs((b[1] + b[3]) / 2 - y) < 0.45]
    for step in range(16):
        for side in (inward, -inward):
            half = math.degrees((across(width, height, cusp_deg) / 2 + UNIT_GAP / 2) / (rim - width / 2))
            centre = normalize_deg(cusp_deg + side * (half + step * 1.0))
            box = cusp_position_box(centre, width)
            # Within the cusp's own sign, both edges (longitudes run with the screen angle).
            offset = signed_deg(centre - cusp_deg)
            clear = (
                sign_low <= longitude + offset - half
                and longitude + offset + half <= sign_low + 30.0
                and all(abs(signed_deg(centre - line)) >= half for line in lines)
                and not any(_overlaps(box, other) for other in taken)
            )
            if clear:
                return centre
    return None


def _angles(chart: Chart, ascendant: float) -> tuple[WheelAngle, ...]:
    houses = chart.houses
    angle_longitudes = (
        houses.ascendant_deg,
        houses.midheaven_deg,
        normalize_deg(houses.ascendant_deg + 180.0),
        normalize_deg(houses.midheaven_deg + 180.0),
    )
    signs = _signs(ascendant)
    placed = [
        (name, longitude, screen_angle(longitude, ascendant)) for name, longitude in zip(ANGLE_NAMES, angle_longitudes)
    ]
    labels = [(name, at, _angle_label_deg(name, at, signs)) for name, _, at in placed]
    angles = []
    for (name, longitude, at), (_, _, label_deg) in zip(placed, labels):
        sign, within = sign_key_of(longitude)
        degree, minute = degree_minute(within)
        position_deg = _angle_position_deg(at, label_deg, position_width(degree, minute), signs, labels)
        angles.append(WheelAngle(name, longitude, at, label_deg, degree, minute, sign, position_deg))
    return tuple(angles)


def position_width(degree: int, minute: int) -> float:
    """Return the width (fraction of the radius) of an angle's position as drawn: its degree
    and minute, a space, and its sign's glyph (ANGLE_DEGREE_TEXT * 1.1 square)."""
    return text_width(f"{degree}°{minute:02d}′ ", ANGLE_DEGREE_TEXT) + ANGLE_DEGREE_TEXT * 1.1


def _angle_position_deg(
    angle_deg: float,
    label_deg: float,
    width: float,
    signs: tuple[WheelSign, ...],
    labels: list[tuple[str, float, float]],
) -> float:
    """Return the screen angle (degrees) of the centre of an angle's position, ``width`` wide,
    in the middle of the zodiac band: the other side of its line from its label, clear of the
    sign glyphs and boundaries, of every angle's line and label; stepping away from the line
    when that is taken, then trying the label's side beyond the label."""
    band = (ZODIAC_OUTER + ZODIAC_INNER) / 2
    height = ANGLE_DEGREE_TEXT * 1.1
    half = math.degrees((across(width, height, angle_deg) / 2 + UNIT_GAP) / band)
    glyph_half = math.degrees((SIGN_GLYPH / 2 + UNIT_GAP) / band)
    label_halves = [
        (
            at_label,
            math.degrees(across(text_width(name.upper(), ANGLE_TEXT, bold=True), ANGLE_TEXT, at_label) / 2 / band),
        )
        for name, _, at_label in labels
    ]
    first = -1.0 if signed_deg(label_deg - angle_deg) > 0 else 1.0
    for step in range(20):
        for side in (first, -first):
            centre = angle_deg + side * (half + step * 1.0)
            within = (centre - signs[0].start_deg) % 30.0  # signs are 30° apart
            clear = (
                abs(within - 15.0) >= half + glyph_half
                and min(within, 30.0 - within) >= half
                and all(abs(signed_deg(centre - line)) >= half for _, line, _ in labels)
                and all(abs(signed_deg(centre - at)) >= half + reach for at, reach in label_halves)
            )
            if clear:
                return normalize_deg(centre)
    return normalize_deg(angle_deg + first * half)


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
            clear_of_glyphs = all(abs(signed_deg(centre - sign.middle_deg)) >= half + glyph_half for sign in signs)
            clear_of_lines = all(abs(signed_deg(centre - sign.start_deg)) >= half for sign in signs)
            if clear_of_glyphs and clear_of_lines:
                return normalize_deg(centre)
    return normalize_deg(angle_deg + first * half)
