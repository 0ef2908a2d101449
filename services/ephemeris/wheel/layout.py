"""The geometry of a chart wheel, from a cast chart: where each sign, cusp, angle, body and
aspect is drawn. Plain numbers, no SVG (``drawing.py`` draws them).

Conventions: the wheel is seen as a horoscope is drawn, the Ascendant at 9 o'clock and the
zodiac running counterclockwise, so the Midheaven stands near the top. A *screen angle* is in
degrees, counterclockwise from 3 o'clock: a longitude ``λ`` (degrees, on the chart's zodiac)
is drawn at ``180 + λ − Ascendant``. A body is marked at its true longitude on the zodiac's
inner edge; its glyph and its label (degree and minute, ``11°06′``, and ℞ when retrograde,
one line of upright text) are one unit drawn along one angle, with a leader line to the mark.
Truth before tidiness: a unit never leaves its body's sign and house (it stands within the arc
both share, SECTOR_MARGIN_DEG inside it), nor, where there is room, the part of the ring
between the cusp and angle lines its body is in (it stands clear of those lines); units that do
not fit side by side stack in tiers, a second and third ring of glyphs further in, their sizes
scaled down as far as the ring's depth needs. Where a line cannot be kept clear (a house
narrower than a glyph), the line is drawn with a gap across the unit (``line_pieces``).

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
from dataclasses import dataclass

from kernel.aspects import AspectMatch
from kernel.chart import Chart, ChartPosition
from kernel.zodiac import SIGN_KEYS, normalize_deg, sign_key_of, sign_of

#: How far (degrees) inside its sign's and house's shared arc a unit's angle stays (less when
#: the arc is narrower than four times this: then a quarter of it).
SECTOR_MARGIN_DEG = 0.5
#: Rounds of pushing crowded units of one tier apart (each moves a crowded pair half the way),
#: and how short of its room (degrees) a pair may stay before the exact pass closes it.
PACK_ROUNDS, PACK_TOLERANCE_DEG = 60, 1e-4
#: The most tiers a crowded stretch of a ring is stacked in, the least scale tried for its
#: units, and how many halvings find the largest scale that fits.
MOST_TIERS, MIN_SCALE, SCALE_STEPS = 6, 0.2, 7
#: The angles of a chart, in the order they are drawn: Ascendant, Midheaven, Descendant, Imum Coeli.
ANGLE_NAMES = ("asc", "mc", "dsc", "ic")
#: The zodiac band's outer and inner edges, the house numbers' ring and the aspect circle of
#: a single wheel (the aspect circle 56% of the radius, so lines to a stellium do not bundle
#: into a fan), and a bi-wheel's circle between its rings, its house numbers and aspect circle.
ZODIAC_OUTER, ZODIAC_INNER = 0.97, 0.82
HOUSE_RING, ASPECT_RING = 0.585, 0.56
BI_DIVIDER, BI_HOUSE_RING, BI_ASPECT_RING = 0.6, 0.372, 0.34
#: The degree scale on the zodiac band's inner edge: how far (fractions of the radius) its
#: ticks reach into the band, every degree, every 5 and every 10 degrees.
TICK_1, TICK_5, TICK_10 = 0.01, 0.018, 0.028
#: A cusp's position's font size (``14°07′``, in the zodiac band's outer rim beside the cusp)
#: and how far (fractions of the radius) inside the band's outer edge it keeps.
CUSP_TEXT, CUSP_RIM = 0.022, 0.006
#: The sign glyphs' size, the angle labels' (ASC, MC …, bold) font size, and the font size of
#: an angle's position (``14°07′`` and its sign's glyph, a little larger) beside its label.
SIGN_GLYPH, ANGLE_TEXT, ANGLE_DEGREE_TEXT = 0.075, 0.04, 0.03
#: Advance widths of Noto Sans (the font the PNG is drawn with, and the SVG's first choice), in
#: thousandths of the font size, of the characters the wheel's labels use (read from the
#: bundled fonts' hmtx tables); ``0`` to ``9`` share one width. Anything else counts as 0.6.
REGULAR_ADVANCE = {**dict.fromkeys("0123456789", 572), "°": 428, "′": 232, " ": 260, "R": 622, "℞": 620}
BOLD_ADVANCE = {"A": 690, "S": 551, "C": 637, "M": 943, "D": 740, "I": 389}
#: A line of label text's height, as a fraction of its font size (the digits' ink, 0.714,
#: and a little room), and the space between a label and its R (of the font size).
TEXT_HEIGHT, RETROGRADE_SPACE = 0.8, 0.2
#: The space kept between a glyph and its label, and between units (or a unit and a cusp
#: line it keeps clear of), as fractions of the radius (scaled with the unit's tier).
LABEL_GAP, UNIT_GAP = 0.012, 0.016
#: The room (fraction of the radius) a line's gap leaves around a unit it could not clear.
LINE_GAP_PAD = 0.006


@dataclass(frozen=True)
class PointRing:
    """Where one ring of bodies is drawn, as fractions of the wheel's radius: the circle its
    marks stand on (inside it), the outermost reach of its glyphs (the first tier's tops), the
    innermost reach of its units (the last tier's labels), and its glyphs' size and labels'
    font size at full scale (a crowded stretch's tiers are scaled down from them)."""

    edge: float
    top: float
    floor: float
    glyph_size: float
    text_size: float


#: The single wheel's one ring, under the zodiac band, down to the house numbers: its glyphs
#: as large as the sign glyphs.
SINGLE_RING = PointRing(ZODIAC_INNER, 0.79, 0.612, SIGN_GLYPH, 0.032)
#: A bi-wheel's rings: the outer chart's under the zodiac band, then a circle dividing the
#: rings, the inner chart's under it, then the house numbers and the aspect circle. Glyphs
#: are a little smaller than the single wheel's so both rings fit; labels a little larger, so
#: that a lone body's reads at 400 px (7 px).
BI_OUTER_RING = PointRing(ZODIAC_INNER, 0.79, BI_DIVIDER + 0.008, 0.068, 0.036)
BI_INNER_RING = PointRing(BI_DIVIDER, BI_DIVIDER - 0.03, BI_HOUSE_RING + 0.026, 0.068, 0.036)


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
    Gauquelin's 36 sectors)."""

    house: int
    longitude: float
    angle_deg: float
    label_deg: float
    degree: int = 0
    minute: int = 0
    position_deg: float | None = None

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
class WheelPoint:
    """One body on a ring: its name, longitude (degrees, chart's zodiac), sign, degree and
    minute within the sign, house, whether retrograde, the screen angle of its true longitude,
    the screen angle its glyph and label are drawn at (within its sign and house), the radius
    (fraction of the wheel's) of its label's centre, of its glyph's centre, its glyph's size
    and label's font size (fractions of the radius), and its tier (0 outermost)."""

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
    glyph_radius: float
    glyph_size: float
    text_size: float
    tier: int

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


def label_box(point: WheelPoint) -> tuple[float, float]:
    """Return the width and height (fractions of the wheel's radius) of ``point``'s label at
    its own font size, its ℞ (when retrograde) included."""
    return _label_box(point.degree, point.minute, point.retrograde, point.text_size)


def _label_box(degree: int, minute: int, retrograde: bool, text_size: float) -> tuple[float, float]:
    width = text_width(f"{degree}°{minute:02d}′", text_size)
    if retrograde:
        width += text_size * RETROGRADE_SPACE + text_width("℞", text_size)
    return width, text_size * TEXT_HEIGHT


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


def label_radius(box: tuple[float, float], glyph_radius: float, glyph_size: float, angle_deg: float) -> float:
    """Return the radius (fraction of the wheel's) of the centre of a label ``box`` drawn at
    ``angle_deg`` under a glyph ``glyph_size`` wide centred at ``glyph_radius``: just inside
    the glyph, as far in as the box reaches along the radius there (the gap scaled with the
    glyph)."""
    scale = glyph_size / SINGLE_RING.glyph_size
    return glyph_radius - glyph_size / 2 - LABEL_GAP * scale - along(*box, angle_deg) / 2


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
        if abs(_signed(angle_deg - at)) < half + math.degrees(LINE_GAP_PAD / low) and high > inner and low < outer
    )
    pieces, start = [], inner
    for low, high in cuts:
        if low > start:
            pieces.append((start, min(low, outer)))
        start = max(start, high)
    if start < outer:
        pieces.append((start, outer))
    return pieces


def wheel_layout(chart: Chart) -> WheelLayout:
    """Return the layout of ``chart``'s wheel: its signs, cusps (as many as the chart's house
    system has: 12, or Gauquelin's 36), angles, bodies and aspects."""
    ascendant = chart.houses.ascendant_deg
    angles = _angles(chart, ascendant)
    points = _points(chart.positions, ascendant, SINGLE_RING, _lines(chart))
    at = {p.body: p.angle_deg for p in points}
    aspects = tuple(
        WheelAspect(a.body_a, a.body_b, a.aspect, a.orb_deg, at[a.body_a], at[a.body_b]) for a in chart.aspects
    )
    return WheelLayout(ascendant, _signs(ascendant), _cusps(chart, ascendant, angles), angles, points, aspects)


def biwheel_layout(inner: Chart, outer: Chart, cross_aspects: list[AspectMatch]) -> WheelLayout:
    """Return the layout of a bi-wheel: ``inner``'s signs, cusps, angles and bodies, ``outer``'s
    bodies on the outer ring (at screen angles turned by the inner Ascendant, placed among
    themselves only, since the rings do not share a radius, each within its sign and the inner
    chart's house its longitude falls in), and ``cross_aspects`` (body_a
    from ``inner``, body_b from ``outer``, as kernel.synastry.inter_chart returns them)."""
    ascendant = inner.houses.ascendant_deg
    angles = _angles(inner, ascendant)
    lines = _lines(inner)
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
        ascendant, _signs(ascendant), _cusps(inner, ascendant, angles), angles, points, aspects, outer_points
    )


def _lines(chart: Chart) -> tuple[list[float], list[float]]:
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


def _cusps(chart: Chart, ascendant: float, angles: tuple[WheelAngle, ...]) -> tuple[WheelCusp, ...]:
    cusps_deg = list(chart.houses.cusps_deg)
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
        degree, minute = _degree_minute(sign_of(cusp)[1])
        position_deg = None
        if len(cusps_deg) <= 12 and all(abs(_signed(at - line)) > 1e-6 for line in on_angles):
            width = text_width(f"{degree}°{minute:02d}′", CUSP_TEXT)
            position_deg = _cusp_position_deg(at, cusp, 1.0 if span > 0 else -1.0, width, on_angles, taken)
            if position_deg is not None:
                taken.append(cusp_position_box(position_deg, width))
        cusps.append(WheelCusp(index + 1, cusp, at, screen_angle(middle, ascendant), degree, minute, position_deg))
    return tuple(cusps)


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
            offset = _signed(centre - cusp_deg)
            clear = (
                sign_low <= longitude + offset - half
                and longitude + offset + half <= sign_low + 30.0
                and all(abs(_signed(centre - line)) >= half for line in lines)
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
        degree, minute = _degree_minute(within)
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
    first = -1.0 if _signed(label_deg - angle_deg) > 0 else 1.0
    for step in range(20):
        for side in (first, -first):
            centre = angle_deg + side * (half + step * 1.0)
            within = (centre - signs[0].start_deg) % 30.0  # signs are 30° apart
            clear = (
                abs(within - 15.0) >= half + glyph_half
                and min(within, 30.0 - within) >= half
                and all(abs(_signed(centre - line)) >= half for _, line, _ in labels)
                and all(abs(_signed(centre - at)) >= half + reach for at, reach in label_halves)
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
            clear_of_glyphs = all(abs(_signed(centre - sign.middle_deg)) >= half + glyph_half for sign in signs)
            clear_of_lines = all(abs(_signed(centre - sign.start_deg)) >= half for sign in signs)
            if clear_of_glyphs and clear_of_lines:
                return normalize_deg(centre)
    return normalize_deg(angle_deg + first * half)


def _points(
    positions: list[ChartPosition], ascendant: float, ring: PointRing, lines: tuple[list[float], list[float]]
) -> tuple[WheelPoint, ...]:
    """Return one ring's bodies, each unit within its sign's and house's shared arc (the houses
    bounded by ``lines``' cusps, longitudes) and, where the ring has room, clear of the lines
    (``lines``' second list, longitudes) on either side of its body; crowded units stacked in
    tiers (``_place``)."""
    cusps, drawn_lines = lines
    turn = 180.0 - ascendant  # a longitude's screen angle is the longitude turned by this
    boxes = [_label_box(*_degree_minute(sign_of(p.longitude)[1]), p.retrograde, ring.text_size) for p in positions]
    sectors = []
    for position in positions:
        longitude = position.longitude
        sign_low = math.floor(longitude / 30.0) * 30.0
        house_low, house_high = _arc_around(longitude, cusps)
        low, high = max(sign_low, house_low), min(sign_low + 30.0, house_high)
        margin = min(SECTOR_MARGIN_DEG, (high - low) / 4)
        sectors.append((low + margin, high - margin))
    drawn_lines = _clearable(positions, sectors, boxes, list(drawn_lines), turn, ring)
    segments: dict[float, list[int]] = {}
    arcs = []
    for index, position in enumerate(positions):
        segment = _arc_around(position.longitude, drawn_lines)
        arcs.append((*sectors[index], segment))
        segments.setdefault(round(normalize_deg(segment[0]), 9), []).append(index)
    placed: dict[int, tuple[float, float, int, float]] = {}
    for members in segments.values():
        segment_low, segment_high = arcs[members[0]][2]
        # Unwrapped into the segment's own arc, in the order of the zodiac.
        unwrapped = {i: segment_low + (positions[i].longitude - segment_low) % 360.0 for i in members}
        members.sort(key=lambda i: (unwrapped[i], i))
        units = [
            _Unit(
                i,
                unwrapped[i],
                arcs[i][0] + unwrapped[i] - positions[i].longitude,
                arcs[i][1] + unwrapped[i] - positions[i].longitude,
                boxes[i],
                normalize_deg(unwrapped[i] + turn),
            )
            for i in members
        ]
        placed.update(_place(units, segment_low, segment_high, ring))
    points = []
    for index, position in enumerate(positions):
        sign, within = sign_key_of(position.longitude)
        degree, minute = _degree_minute(within)
        at, radius, tier, scale = placed[index]
        glyph_deg = normalize_deg(at + turn)
        glyph_size, text_size = ring.glyph_size * scale, ring.text_size * scale
        box = _label_box(degree, minute, position.retrograde, text_size)
        points.append(
            WheelPoint(
                position.body,
                position.longitude,
                sign,
                degree,
                minute,
                position.house,
                position.retrograde,
                screen_angle(position.longitude, ascendant),
                glyph_deg,
                label_radius(box, radius, glyph_size, glyph_deg),
                radius,
                glyph_size,
                text_size,
                tier,
            )
        )
    return tuple(points)


def _clearable(
    positions: list[ChartPosition],
    sectors: list[tuple[float, float]],
    boxes: list[tuple[float, float]],
    lines: list[float],
    turn: float,
    ring: PointRing,
) -> list[float]:
    """Return the ``lines`` (longitudes) the units keep clear of: all of them but those beside
    a unit whose sector (``sectors``, longitudes) leaves it no room to stand clear at full
    size; such a line is drawn with a gap across the units, and the units on both its sides are
    placed together."""
    halves = [
        _unit_width(
            _Unit(0, p.longitude, low, high, box, normalize_deg(p.longitude + turn)),
            ring.top - ring.glyph_size / 2,
            1.0,
            ring,
        )
        / 2
        for p, (low, high), box in zip(positions, sectors, boxes)
    ]
    for _ in range(len(lines) - 1):
        narrow = None
        for position, (low, high), half in zip(positions, sectors, halves):
            line_low, line_high = _arc_around(position.longitude, lines)
            if max(low, line_low + half) > min(high, line_high - half):
                near_low = position.longitude - line_low < line_high - position.longitude
                narrow = normalize_deg(line_low if near_low else line_high)
                break
        if narrow is None:
            break
        lines = [line for line in lines if abs(_signed(line - narrow)) > 1e-9]
    return lines


@dataclass(frozen=True)
class _Unit:
    """A body's unit while it is placed: its index among the ring's bodies, its longitude
    unwrapped into its segment's arc, the least and greatest longitude its angle may take
    (its sign's and house's shared arc, within the margin), its label's box at full scale, and
    its true screen angle (degrees)."""

    index: int
    longitude: float
    low: float
    high: float
    box: tuple[float, float]
    screen_deg: float


def _arc_around(longitude: float, boundaries: list[float]) -> tuple[float, float]:
    """Return the arc (two longitudes, degrees, unwrapped: low ≤ ``longitude`` < high) between
    the two of ``boundaries`` that hold ``longitude``; a body on a boundary is in the arc it
    begins."""
    back = min((longitude - b) % 360.0 for b in boundaries)
    ahead = min((b - longitude) % 360.0 or 360.0 for b in boundaries)
    return longitude - back, longitude + ahead


Placement = dict[int, tuple[float, float, int, float]]


def _place(units: list[_Unit], low: float, high: float, ring: PointRing) -> Placement:
    """Return where the ``units`` of one segment (the arc ``low`` to ``high``, longitudes,
    between two lines) stand, by index: their longitude, glyph radius (fraction of the
    wheel's), tier and scale. One tier at full size when they fit side by side, each within its
    arc and clear of the lines; else the largest scale at which they fit in one tier, or in two
    (alternate units, in the order of the zodiac), three … (each tier count's scale at most what
    the ring's depth allows its tiers), the fewer tiers at equal scale."""
    reach = max(along(*u.box, u.screen_deg) for u in units)
    best: tuple[float, Placement] | None = None
    crowded: Placement = {}
    for tiers in range(1, MOST_TIERS + 1):
        depth = tiers * (ring.glyph_size + LABEL_GAP + reach) + (tiers - 1) * UNIT_GAP
        deepest = min(1.0, (ring.top - ring.floor) / depth)
        if best is not None and deepest <= best[0]:
            continue
        placed, fits = _tiers(units, low, high, ring, tiers, deepest, reach)
        if fits:
            best = (deepest, placed)
            if deepest == 1.0:
                break
            continue
        crowded = crowded or placed
        # The largest scale below the deepest at which these tiers fit (halving the interval).
        least, most = (best[0] if best else MIN_SCALE), deepest
        for _ in range(SCALE_STEPS):
            middle = (least + most) / 2
            placed, fits = _tiers(units, low, high, ring, tiers, middle, reach)
            if fits:
                least, best = middle, (middle, placed)
            else:
                most = middle
    return best[1] if best else crowded


def _tiers(
    units: list[_Unit], low: float, high: float, ring: PointRing, tiers: int, scale: float, reach: float
) -> tuple[Placement, bool]:
    """Return ``_place``'s placement of ``units`` in ``tiers`` tiers at ``scale``, and whether
    every unit fits (if not, the nearest try, crowded); ``reach`` is the most any label reaches
    along the radius at full scale."""
    size = ring.glyph_size
    result: Placement = {}
    fits = True
    for tier in range(tiers):
        radius = ring.top - scale * (size / 2 + tier * (size + LABEL_GAP + reach + UNIT_GAP))
        members = units[tier::tiers]
        widths = [_unit_width(u, radius, scale, ring) for u in members]
        lows, highs = [], []
        for u, width in zip(members, widths):
            clear_low, clear_high = max(u.low, low + width / 2), min(u.high, high - width / 2)
            # A unit wider than its arc between the lines keeps to its sector; the line is
            # drawn with a gap across it.
            lows.append(clear_low if clear_low <= clear_high else u.low)
            highs.append(clear_high if clear_low <= clear_high else u.high)
        gaps = [(a + b) / 2 for a, b in zip(widths, widths[1:])]
        at, packed = _pack([u.longitude for u in members], lows, highs, gaps)
        fits = fits and packed
        result.update({u.index: (x, radius, tier, scale) for u, x in zip(members, at)})
    return result, fits


def _unit_width(unit: _Unit, radius: float, scale: float, ring: PointRing) -> float:
    """Return the angle (degrees) a unit spans across the radius with its glyph centred at
    ``radius`` and scaled by ``scale``, the gap to a neighbour included: its glyph's square's
    and its label's box's reach across the radius, seen from their nearest edges."""
    size, gap = ring.glyph_size * scale, UNIT_GAP * scale
    box = (unit.box[0] * scale, unit.box[1] * scale)
    at = unit.screen_deg
    glyph = (across(size, size, at) + gap) / (radius - along(size, size, at) / 2)
    centre = label_radius(box, radius, size, at)
    label = (across(*box, at) + gap) / (centre - along(*box, at) / 2)
    return math.degrees(max(glyph, label))


def _pack(wanted: list[float], lows: list[float], highs: list[float], gaps: list[float]) -> tuple[list[float], bool]:
    """Return positions (degrees) as near ``wanted`` as crowding allows, each within its
    ``lows`` to ``highs`` and each neighbour at least ``gaps`` ahead of the one before, and
    whether that was possible (if not, the positions of the nearest try, crowded)."""
    count = len(wanted)
    shown = [min(max(w, lo), hi) for w, lo, hi in zip(wanted, lows, highs)]
    if _packed(shown, lows, highs, gaps):
        return shown, True
    # The tightest packing from the arcs' starts fits whenever any packing does.
    tight = []
    for k in range(count):
        tight.append(max(lows[k], tight[-1] + gaps[k - 1]) if k else lows[k])
    if not _packed(tight, lows, highs, gaps):
        return shown, False
    for _ in range(PACK_ROUNDS):
        moved = False
        for k in range(count - 1):
            short = gaps[k] - (shown[k + 1] - shown[k])
            if short > PACK_TOLERANCE_DEG:
                shown[k] = max(lows[k], shown[k] - short / 2)
                shown[k + 1] = min(highs[k + 1], shown[k + 1] + short / 2)
                moved = True
        if not moved:
            break
    # Exactly: pushed ahead where still short, then back where past the arc's end.
    for k in range(1, count):
        shown[k] = max(shown[k], shown[k - 1] + gaps[k - 1])
    shown[-1] = min(shown[-1], highs[-1])
    for k in range(count - 2, -1, -1):
        shown[k] = min(shown[k], highs[k], shown[k + 1] - gaps[k])
    return (shown, True) if _packed(shown, lows, highs, gaps) else (tight, True)


def _packed(shown: list[float], lows: list[float], highs: list[float], gaps: list[float]) -> bool:
    """Return whether ``shown`` keeps within ``lows`` and ``highs`` and its ``gaps``."""
    slack = 1e-9
    return all(lo - slack <= x <= hi + slack for x, lo, hi in zip(shown, lows, highs)) and all(
        b - a >= gap - slack for a, b, gap in zip(shown, shown[1:], gaps)
    )


def _signed(angle_deg: float) -> float:
    """Return an angle difference (degrees) in [-180, 180)."""
    return (angle_deg + 180.0) % 360.0 - 180.0


def _degree_minute(within_sign_deg: float) -> tuple[int, int]:
    """Return the whole degree and minute of an angle within a sign (degrees [0, 30)), the
    minute truncated as an ephemeris prints it (29°59′ is never rounded up to 30°)."""
    total = int(within_sign_deg * 60.0)
    return total // 60, total % 60
