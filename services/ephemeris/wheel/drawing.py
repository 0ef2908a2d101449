"""A chart wheel drawn as a standalone SVG document from its layout (``layout.py``).

The document needs nothing from outside: colours are presentation attributes (``themes.py``),
glyphs are ``<symbol>`` outlines of the Noto Sans Symbols fonts (SIL OFL 1.1, extracted into
``glyph_outlines.json`` by deploy/extract_glyphs.py), there is no script and no reference to
another host. It is ``role="img"`` with a ``<title>`` and a ``<desc>`` that reads the chart
in words; each body is a ``<g class="point">`` with ``data-body``, ``data-longitude`` and
``data-house`` (and, on a bi-wheel, ``data-ring``: inner or outer), each aspect a ``<g class="aspect">`` with
``data-aspect``, ``data-body-a`` and ``data-body-b``, so a web page can style and hook them. The same layout and theme
give the same bytes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from kernel.zodiac import SIGN_KEYS
from services.ephemeris.wheel.header import HeaderLine
from services.ephemeris.wheel.layout import (
    ANGLE_DEGREE_TEXT,
    ANGLE_TEXT,
    ASPECT_RING,
    BI_ASPECT_RING,
    BI_DIVIDER,
    BI_HOUSE_RING,
    BI_INNER_RING,
    BI_OUTER_RING,
    CUSP_TEXT,
    HOUSE_RING,
    SIGN_GLYPH,
    SINGLE_RING,
    TICK_1,
    TICK_5,
    TICK_10,
    ZODIAC_INNER,
    ZODIAC_OUTER,
    PointRing,
    WheelAngle,
    WheelCusp,
    WheelLayout,
    WheelPoint,
    aspect_grid,
    cusp_position_box,
    label_box,
    layout_blocks,
    line_pieces,
    position_width,
    text_width,
)
from services.ephemeris.wheel.table import PositionsTable, positions_table
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import ELEMENT_OF_SIGN, HARD_ASPECTS, SOFT_ASPECTS, Theme
from shared.pictures.words import ENGLISH, Words

#: The house numbers' font size (of 12 houses, of Gauquelin's 36), as fractions of the
#: wheel's radius; the other sizes are the layout's.
HOUSE_TEXT, SECTOR_TEXT = 0.045, 0.028
#: The thickness of the halo under a body's label (of its font size): a cusp line the label
#: could not be moved off is cut where the label crosses it.
LABEL_HALO = 0.25
#: The aspects drawn solid, in every theme: the conjunction, the hard and the soft ones
#: (themes.py); the minor ones are dashed.
SOLID_ASPECTS = HARD_ASPECTS | SOFT_ASPECTS | {"conjunction"}
#: The aspect grid's square (beside or under the wheel), its side as a share of the wheel's
#: size, and the margin around the grid inside it (a share of its side). The whole picture is
#: then GRID_SHARE wider (aside) or taller (below) than the wheel.
GRID_SHARE, GRID_MARGIN = 0.75, 0.05
#: The places of the aspect grid (none, to the right of the wheel, under it) and how many
#: grid sides each adds to the picture's width and height.
GRID_EXTENT: dict[str, tuple[int, int]] = {"none": (0, 0), "aside": (1, 0), "below": (0, 1)}
#: The places of the positions-and-cusps table, as the grid's: none, aside, below.
TABLE_PLACES = ("none", "aside", "below")
#: The header's font size (a share of the wheel's size), its lines' height (of the font
#: size) and the room above its first line and below its last (of the font size).
HEADER_TEXT, HEADER_LINE, HEADER_MARGIN = 0.021, 1.4, 0.6
#: How far below a line's centre its baseline lies, of the font size: half the digits' ink
#: (0.714, layout.py's TEXT_HEIGHT).
CENTRE_TO_BASELINE = 0.357
#: The ring labels' font size (a share of the wheel's size), in the corners of a bi-wheel's
#: square, where the round wheel leaves room.
RING_LABEL_TEXT = 0.019
#: The grid's axis labels' font size, a share of the grid's side (they stand in its margin).
AXIS_TEXT = 0.026
#: The table's largest font size (a share of the wheel's size) and its rows' height (of the
#: font size); a long table's rows shrink to fit its box.
TABLE_TEXT, TABLE_ROW = 0.022, 1.5
#: The table's columns' widths, in its font size: a body's glyph, one ring's placement (its
#: position, sign, mark and house), the gap before the houses' block, and that block.
TABLE_COLUMNS = (1.8, 8.4, 1.6, 8.0)
#: Each sign's place in the zodiac (0 for aries), which gives its element's colour.
SIGN_INDEX = {sign: index for index, sign in enumerate(SIGN_KEYS)}
#: The glyph of a body whose glyph is another's: both nodes of the Moon are drawn as its north
#: node (☊), the point they name, and both apogees of its orbit, however asked (mean_apogee or
#: its alias lilith, osc_apogee), as Black Moon Lilith (⚸). Every other body's glyph bears its
#: own name (glyph_outlines.json).
GLYPH_OF_BODY = {
    "mean_node": "north_node",
    "true_node": "north_node",
    "mean_apogee": "black_moon_lilith",
    "lilith": "black_moon_lilith",
    "osc_apogee": "black_moon_lilith",
}


@dataclass(frozen=True)
class Frame:
    """Where the parts of a picture stand (pixels, from its top left corner): its width and
    height, the header's height (0 without one), the wheel's square's top left corner, the
    grid's and the table's boxes (left, top, width, height; None when not drawn)."""

    width: int
    height: int
    header: int
    wheel: tuple[int, int]
    grid: tuple[float, float, int, int] | None
    table: tuple[int, int, int, int] | None


def frame(size: int, grid: str = "none", table: str = "none", header_lines: int = 0) -> Frame:
    """Return the frame of a wheel ``size`` pixels square under a header of ``header_lines``
    lines (as wide as the picture), with its aspect grid ``grid`` and its table ``table``, each
    none, aside or below: what is aside stands to the right of the wheel, the grid first, each
    GRID_SHARE of ``size`` wide and ``size`` tall (the grid's square centred on the wheel's
    height); what is below stands under the wheel, the grid first, each GRID_SHARE of ``size``
    tall and ``size`` wide (the grid's square centred on the wheel's width)."""
    side = round(size * GRID_SHARE)
    header = header_height(size, header_lines)
    right, bottom = size, header + size
    grid_box = table_box = None
    if grid == "aside":
        grid_box, right = (right, header + (size - side) / 2, side, side), right + side
    elif grid == "below":
        grid_box, bottom = ((size - side) / 2, bottom, side, side), bottom + side
    if table == "aside":
        table_box, right = (right, header, side, size), right + side
    elif table == "below":
        table_box, bottom = (0, bottom, size, side), bottom + side
    return Frame(right, bottom, header, (0, header), grid_box, table_box)


def header_height(size: int, lines: int) -> int:
    """Return the height (pixels) of a header of ``lines`` lines over a wheel ``size`` pixels
    wide: 0 without lines."""
    if not lines:
        return 0
    return round(size * HEADER_TEXT * (HEADER_LINE * lines + 2 * HEADER_MARGIN))


def picture_size(size: int, grid: str = "none", table: str = "none", header_lines: int = 0) -> tuple[int, int]:
    """Return the whole picture's width and height (pixels) of a wheel ``size`` pixels square
    with its aspect grid ``grid`` and its table ``table`` (none, aside: wider, or below:
    taller) under a header of ``header_lines`` lines (``frame``)."""
    placed = frame(size, grid, table, header_lines)
    return placed.width, placed.height


def draw_svg(
    layout: WheelLayout,
    theme: Theme,
    *,
    size: int,
    title: str,
    rings: tuple[str, str] | None = None,
    grid: str = "none",
    words: Words = ENGLISH,
    band: str = "plain",
    header: tuple[HeaderLine, ...] = (),
    ring_labels: tuple[tuple[str, str], tuple[str, str]] | None = None,
    table: str = "none",
) -> str:
    """Return the SVG document (text) of the wheel ``layout`` in ``theme``, ``size`` pixels
    square, titled ``title``, its labels and description in ``words``' language (named by the
    root's ``xml:lang`` and ``lang``); a bi-wheel's description names its charts by ``rings`` (the
    inner one's and the outer one's, e.g. "natal chart", "transits at 2024-01-01T00:00:00Z").
    With ``grid`` aside or below, the aspect grid stands to the right of the wheel or under it
    and the picture (``picture_size``) is wider or taller; the wheel keeps its size. So does
    the positions-and-cusps ``table`` (``frame``). The ``header`` lines (``header.py``) stand
    above the wheel, as wide as the picture; a bi-wheel's ``ring_labels`` (the outer ring's two
    lines, then the inner one's) stand in the upper and lower left corners of its square, and
    its grid's axes are labelled with their second lines (the charts with their dates).
    ``band`` fills the zodiac band plain or tints each sign's segment by its element
    (``Theme.band_fill``)."""
    half = size / 2.0
    radius = half * 0.98
    placed = frame(size, grid, table, len(header))
    width, height = placed.width, placed.height
    parts: list[str] = [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" '
            f'xml:lang="{words.lang}" lang="{words.lang}" width="{width}" height="{height}" viewBox="0 0 {width} '
            f'{height}" aria-labelledby="wheel-title wheel-desc">'
        ),
        f'<title id="wheel-title">{escape(title)}</title>',
        f'<desc id="wheel-desc">{escape(describe(layout, rings, words))}</desc>',
        _symbols(layout, with_aspects=grid != "none"),
        f'<rect width="{width}" height="{height}" fill="{theme.background}"/>',
    ]
    if header:
        parts.append(_header(header, theme, size))
        parts.append(f'<g class="wheel" transform="translate(0 {placed.header})">')
    parts.append(_zodiac(layout, theme, half, radius, band))
    parts.append(_houses(layout, theme, half, radius, words))
    parts.append(_aspects(layout, theme, half, radius, words))
    if layout.is_biwheel:
        parts.append(_points(layout.outer_points, BI_OUTER_RING, theme, half, radius, words, ring="outer"))
        parts.append(_points(layout.points, BI_INNER_RING, theme, half, radius, words, ring="inner"))
    else:
        parts.append(_points(layout.points, SINGLE_RING, theme, half, radius, words))
    if ring_labels is not None:
        parts.append(_ring_labels(ring_labels, theme, size))
    if header:
        parts.append("</g>")
    if placed.grid is not None:
        axes = (ring_labels[1][1], ring_labels[0][1]) if ring_labels is not None else None
        parts.append(_grid(layout, theme, placed.grid, words, axes))
    if placed.table is not None:
        parts.append(_table(positions_table(layout), theme, size, placed.table, words))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def describe(layout: WheelLayout, rings: tuple[str, str] | None = None, words: Words = ENGLISH) -> str:
    """Return the chart in ``words``' language, as a screen reader reads the picture: each
    body's sign, degree and house (and retrograde), then the Ascendant and Midheaven
    ("Sun in 21° Cancer in the 9th house; …"). A bi-wheel reads both charts, ``Inner:
    <rings[0]>: …. Outer: <rings[1]>: …`` in English, each outer body in its own chart's
    house."""
    angles = []
    for angle in layout.angles[:2]:
        sign_index = int(angle.longitude // 30.0) % 12
        angles.append(words.angle_clause(angle.name, int(angle.longitude % 30.0), layout.signs[sign_index].sign))
    if not layout.is_biwheel:
        return "; ".join(_bodies_in_words(layout.points, words) + angles) + "."
    inner_name, outer_name = rings or (words.chart("inner"), words.chart("outer"))
    inner = "; ".join(_bodies_in_words(layout.points, words) + angles)
    outer = "; ".join(_bodies_in_words(layout.outer_points, words, outer=True))
    return words.biwheel(inner_name, inner, outer_name, outer)


def _bodies_in_words(points: tuple[WheelPoint, ...], words: Words, *, outer: bool = False) -> list[str]:
    return [words.body_clause(p.body, p.degree, p.sign, p.retrograde, p.house, outer=outer) for p in points]


def _symbols(layout: WheelLayout, *, with_aspects: bool = False) -> str:
    outlines = glyph_outlines()
    bodies = layout.points + layout.outer_points
    names = [sign.sign for sign in layout.signs] + [glyph_name(p.body) for p in bodies]
    if with_aspects:
        names += [a.aspect for a in layout.aspects if a.aspect in outlines]
    defs = [
        f'<symbol id="glyph-{name}" viewBox="-500 -500 1000 1000"><path d="{outlines[name]}"/></symbol>'
        for name in dict.fromkeys(names)
    ]
    return "<defs>" + "".join(defs) + "</defs>"


def _xy(half: float, radius: float, angle_deg: float) -> tuple[float, float]:
    theta = math.radians(angle_deg)
    return half + radius * math.cos(theta), half - radius * math.sin(theta)


def _f(value: float) -> str:
    """Return a coordinate as the picture writes it: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _line(a: tuple[float, float], b: tuple[float, float], colour: str, width: float, extra: str = "") -> str:
    return (
        f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{colour}" '
        f'stroke-width="{_f(width)}"{extra}/>'
    )


def _glyph(name: str, centre: tuple[float, float], size: float, colour: str) -> str:
    x, y = centre
    return (
        f'<use xlink:href="#glyph-{name}" href="#glyph-{name}" x="{_f(x - size / 2)}" y="{_f(y - size / 2)}" '
        f'width="{_f(size)}" height="{_f(size)}" fill="{colour}"/>'
    )


def _text(
    at: tuple[float, float],
    text: str,
    size: float,
    colour: str,
    *,
    bold: bool = False,
    halo: str | None = None,
    anchor: str = "middle",
    css_class: str = "",
    rotate: float = 0.0,
    baseline: bool = False,
) -> str:
    """Return a text centred at ``at`` (its start there with ``anchor`` start, its end with
    end; its baseline there with ``baseline``, at a whole pixel, where engines agree on how
    its letters fall on the pixels, as they do not quite on a text's centre); with ``halo``
    (a colour) outlined in it under the fill, so it stays readable over the lines it stands
    on; turned ``rotate`` degrees (clockwise) about ``at``."""
    weight = ' font-weight="bold"' if bold else ""
    outline = f' stroke="{halo}" stroke-width="{_f(size * 0.25)}" paint-order="stroke"' if halo else ""
    named = f' class="{css_class}"' if css_class else ""
    turned = f' transform="rotate({_f(rotate)} {_f(at[0])} {_f(at[1])})"' if rotate else ""
    vertical = "" if baseline else ' dominant-baseline="central"'
    if baseline:
        at = (round(at[0]), round(at[1]))
    return (
        f'<text{named} x="{_f(at[0])}" y="{_f(at[1])}" font-family="Noto Sans, sans-serif" font-size="{_f(size)}"'
        f'{weight} fill="{colour}"{outline}{turned} text-anchor="{anchor}"{vertical}>'
        f"{escape(text)}</text>"
    )


def _zodiac(layout: WheelLayout, theme: Theme, half: float, radius: float, band: str = "plain") -> str:
    outer, inner = radius * ZODIAC_OUTER, radius * ZODIAC_INNER
    parts = ['<g class="zodiac">']
    if band != "plain":
        # Each sign's tint is a wedge from the centre; the inner circle, filled after it, leaves
        # the band's part of it showing.
        for index, sign in enumerate(layout.signs):
            start, end = _xy(half, outer, sign.start_deg), _xy(half, outer, sign.start_deg + 30.0)
            parts.append(
                f'<path class="band-segment" data-sign="{sign.sign}" data-element="{ELEMENT_OF_SIGN[index]}" '
                f'd="M{_f(half)} {_f(half)}L{_f(start[0])} {_f(start[1])}A{_f(outer)} {_f(outer)} 0 0 0 '
                f'{_f(end[0])} {_f(end[1])}Z" fill="{theme.band_fill(index, band)}"/>'
            )
    parts += [
        f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(outer)}" fill="{theme.band if band == "plain" else "none"}" '
        f'stroke="{theme.line}" stroke-width="1.5"/>',
        f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(inner)}" fill="{theme.background}" stroke="{theme.line}" '
        'stroke-width="1.5"/>',
    ]
    for index, sign in enumerate(layout.signs):
        parts.append(_line(_xy(half, inner, sign.start_deg), _xy(half, outer, sign.start_deg), theme.line, 1.0))
        centre = _xy(half, (outer + inner) / 2, sign.middle_deg)
        parts.append(
            '<g class="sign" '
            f'data-sign="{sign.sign}">{_glyph(sign.sign, centre, radius * SIGN_GLYPH, theme.element(index))}</g>'
        )
    # The degree scale, drawn from 0° Aries at 3 o'clock and turned to the chart's zodiac.
    parts.append(
        f'<g class="degree-scale" transform="rotate({_f(-layout.signs[0].start_deg)} {_f(half)} {_f(half)})" '
        f'stroke="{theme.line}">{_degree_scale(half, radius)}</g>'
    )
    parts.append("</g>")
    return "\n".join(parts)


@functools.cache
def _degree_scale(half: float, radius: float) -> str:
    """Return the degree scale's ticks on the zodiac band's inner edge of a wheel centred at
    ``half`` with ``radius`` (pixels), 0° Aries at 3 o'clock: a tick every degree, longer every
    5 and 10; one path a length (360 lines cost more to write than the rest of the wheel, and
    the same scale serves every chart of a size, turned)."""
    inner = radius * ZODIAC_INNER
    paths = []
    for tick, every, skip, width in ((TICK_1, 1, 5, 0.5), (TICK_5, 5, 10, 0.8), (TICK_10, 10, 0, 0.8)):
        outer = inner + radius * tick
        moves = []
        for degree in range(0, 360, every):
            if skip and degree % skip == 0:
                continue
            cos, sin = math.cos(math.radians(degree)), math.sin(math.radians(degree))
            moves.append(
                f"M{_f(half + inner * cos)} {_f(half - inner * sin)}L{_f(half + outer * cos)} {_f(half - outer * sin)}"
            )
        paths.append(f'<path d="{"".join(moves)}" stroke-width="{_f(width)}"/>')
    return "".join(paths)


def _houses(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    aspect_ring = radius * _aspect_ring(layout)
    house_ring = BI_HOUSE_RING if layout.is_biwheel else HOUSE_RING
    parts = [
        '<g class="houses">',
        f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(aspect_ring)}" fill="none" stroke="{theme.line}" '
        'stroke-width="1"/>',
    ]
    if layout.is_biwheel:
        parts.append(
            f'<circle class="ring-divider" cx="{_f(half)}" cy="{_f(half)}" r="{_f(radius * BI_DIVIDER)}" fill="none" '
            f'stroke="{theme.line}" stroke-width="1"/>'
        )
    label_size = radius * (HOUSE_TEXT if len(layout.cusps) <= 12 else SECTOR_TEXT)
    # Cusp and angle lines stop short of the glyphs and labels they would cross.
    blocks = layout_blocks(layout)
    for cusp in layout.cusps:
        parts.append(
            f'<g class="cusp" data-house="{cusp.house}" data-longitude="{cusp.longitude:.6f}">'
            + _pieces(cusp.angle_deg, _aspect_ring(layout), ZODIAC_INNER, blocks, half, radius, theme.faint, 1.0)
            + _cusp_position(cusp, half, radius, theme)
            + "</g>"
        )
        parts.append(_text(_xy(half, radius * house_ring, cusp.label_deg), str(cusp.house), label_size, theme.text))
    # The angles' labels stand in the zodiac band beside their lines (the layout finds them
    # a place clear of the sign glyphs and boundaries), on both kinds of wheel.
    band = radius * (ZODIAC_OUTER + ZODIAC_INNER) / 2
    for angle in layout.angles:
        parts.append(
            f'<g class="angle" data-angle="{angle.name}" data-longitude="{angle.longitude:.6f}">'
            + _pieces(angle.angle_deg, _aspect_ring(layout), ZODIAC_OUTER, blocks, half, radius, theme.line, 2.2)
            + _text(
                _xy(half, band, angle.label_deg),
                words.angle_label(angle.name),
                radius * ANGLE_TEXT,
                theme.text,
                bold=True,
            )
            + _angle_position(angle, half, radius, band, theme)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _cusp_position(cusp: WheelCusp, half: float, radius: float, theme: Theme) -> str:
    """Return a cusp's position (``14°07′``, small) in the zodiac band's outer rim at its
    place, or nothing where the layout draws none."""
    if cusp.position_deg is None:
        return ""
    size = radius * CUSP_TEXT
    left, bottom, right, top = cusp_position_box(cusp.position_deg, text_width(cusp.position, CUSP_TEXT))
    at = (half + radius * (left + right) / 2, half - radius * (bottom + top) / 2)
    return f'<g class="cusp-position">{_text(at, cusp.position, size, theme.text, halo=theme.band)}</g>'


def _angle_position(angle: WheelAngle, half: float, radius: float, band: float, theme: Theme) -> str:
    """Return an angle's position drawn in the zodiac band at its place: ``14°07′`` then its
    sign's glyph, in the sign's element colour."""
    size = radius * ANGLE_DEGREE_TEXT
    glyph = size * 1.1
    width = radius * position_width(angle.degree, angle.minute)
    x, y = _xy(half, band, angle.position_deg)
    text_width_px = width - glyph
    return (
        '<g class="angle-position">'
        + _text((x - width / 2 + text_width_px / 2, y), angle.position, size, theme.text, halo=theme.band)
        + _glyph(angle.sign, (x + width / 2 - glyph / 2, y), glyph, theme.element(SIGN_KEYS.index(angle.sign)))
        + "</g>"
    )


def _pieces(
    angle_deg: float,
    inner: float,
    outer: float,
    blocks: list,
    half: float,
    radius: float,
    colour: str,
    width: float,
) -> str:
    """Return a line at ``angle_deg`` from the radius ``inner`` to ``outer`` (fractions of the
    wheel's), drawn in the pieces ``line_pieces`` leaves between ``blocks``."""
    return "".join(
        _line(_xy(half, radius * low, angle_deg), _xy(half, radius * high, angle_deg), colour, width)
        for low, high in line_pieces(angle_deg, inner, outer, blocks)
    )


def _aspect_ring(layout: WheelLayout) -> float:
    """Return the aspect circle's radius, as a fraction of the wheel's."""
    return BI_ASPECT_RING if layout.is_biwheel else ASPECT_RING


def _aspects(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    ring = radius * _aspect_ring(layout)
    parts = ['<g class="aspects">']
    for aspect in layout.aspects:
        colour = theme.aspect(aspect.aspect)
        dash = "" if aspect.aspect in SOLID_ASPECTS else ' stroke-dasharray="4 3"'
        parts.append(
            f'<g class="aspect" data-aspect="{aspect.aspect}" data-body-a="{aspect.body_a}" '
            f'data-body-b="{aspect.body_b}" data-orb="{aspect.orb:.4f}">'
            + f"<title>{escape(words.aspect_clause(aspect.body_a, aspect.aspect, aspect.body_b))}</title>"
            + _line(_xy(half, ring, aspect.angle_a_deg), _xy(half, ring, aspect.angle_b_deg), colour, 1.2, dash)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _points(
    points: tuple[WheelPoint, ...],
    at: PointRing,
    theme: Theme,
    half: float,
    radius: float,
    words: Words,
    *,
    ring: str | None = None,
) -> str:
    """Return one ring of bodies, labelled in ``words``' language (``ring``: inner or outer on a bi-wheel, written as
    ``data-ring``; None on a single wheel, which writes none): each body's mark, leader line,
    glyph and label, the label upright under the glyph along the same drawn angle, the
    retrograde mark (℞) to its right when retrograde."""
    edge = radius * at.edge
    ring_attribute = f' data-ring="{ring}"' if ring else ""
    parts = [f'<g class="points"{ring_attribute}>']
    for point in points:
        # The mark on the body's exact degree, and a leader from it to its glyph, wherever
        # in its sector and in whichever tier the glyph stands.
        mark_in, mark_out = _xy(half, edge * 0.965, point.angle_deg), _xy(half, edge, point.angle_deg)
        glyph_at = _xy(half, radius * point.glyph_radius, point.glyph_deg)
        leader_from = _xy(half, radius * (point.glyph_radius + point.glyph_size * 0.6), point.glyph_deg)
        text_size = radius * point.text_size
        colour = theme.text
        glyph = _body_glyph(point.body, glyph_at, radius * point.glyph_size, colour)
        # The label and its retrograde mark are centred together on the label's place.
        x, y = _xy(half, radius * point.label_radius, point.glyph_deg)
        box_width = radius * label_box(point)[0]
        label_width = text_width(point.label, text_size)
        labels = _text((x - box_width / 2 + label_width / 2, y), point.label, text_size, colour, halo=theme.background)
        if point.retrograde:
            r_width = text_width(words.retrograde_mark, text_size)
            labels += _text(
                (x + box_width / 2 - r_width / 2, y), words.retrograde_mark, text_size, colour, halo=theme.background
            )
        parts.append(
            f'<g class="point"{ring_attribute} data-body={quoteattr(point.body)} '
            f'data-longitude="{point.longitude:.6f}" data-house="{point.house}" '
            f'data-retrograde="{str(point.retrograde).lower()}">'
            + _line(mark_in, mark_out, theme.line, 1.5)
            + _line(mark_out, leader_from, theme.faint, 0.8)
            + glyph
            + labels
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _grid(
    layout: WheelLayout,
    theme: Theme,
    box: tuple[float, float, int, int],
    words: Words,
    axes: tuple[str, str] | None = None,
) -> str:
    """Return the aspect grid (``layout.aspect_grid``) in its square ``box`` (left, top, side,
    side): a triangular grid with the bodies' glyphs on its diagonal, or a bi-wheel's table
    with the outer bodies along the top and the inner ones down the left, labelled, when
    ``axes`` names the inner and the outer chart, "Rows: <inner>" down its left margin and
    "Columns: <outer>" along its top one; each aspect's cell a ``<g class="grid-cell">`` with
    its glyph and its orb in degrees and minutes (rounded to the minute), in its aspect line's
    colour."""
    table = aspect_grid(layout)
    side = box[2]
    left, top = box[0] + side * GRID_MARGIN, box[1] + side * GRID_MARGIN
    span = side * (1 - 2 * GRID_MARGIN)
    headed = 0 if table.triangular else 1  # the bi-wheel's header row and column
    cell = span / (len(table.rows) if table.triangular else max(len(table.rows), len(table.columns)) + 1)

    def corner(row: int, column: int) -> tuple[float, float]:
        return left + (column + headed) * cell, top + (row + headed) * cell

    def centre(row: int, column: int, down: float = 0.5) -> tuple[float, float]:
        x, y = corner(row, column)
        return x + cell / 2, y + cell * down

    parts = ['<g class="aspect-grid">']
    cells = [
        (r, c) for r in range(len(table.rows)) for c in range(len(table.columns)) if not table.triangular or c <= r
    ]
    parts += [
        f'<rect x="{_f(corner(r, c)[0])}" y="{_f(corner(r, c)[1])}" width="{_f(cell)}" height="{_f(cell)}" '
        f'fill="none" stroke="{theme.faint}" stroke-width="0.8"/>'
        for r, c in cells
    ]
    if axes is not None and not table.triangular:
        # In the grid's margins: the columns' chart above the outer bodies' glyphs, the rows'
        # chart turned up the left edge beside the inner bodies' glyphs.
        text_size, margin = side * AXIS_TEXT, side * GRID_MARGIN
        columns_at = (left + cell + (span - cell) / 2, top - margin / 2)
        rows_at = (left - margin / 2, top + cell + (span - cell) / 2)
        parts.append(
            '<g class="grid-axes">'
            + _text(columns_at, words.header("columns", chart=axes[1]), text_size, theme.text, css_class="grid-columns")
            + _text(
                rows_at,
                words.header("rows", chart=axes[0]),
                text_size,
                theme.text,
                css_class="grid-rows",
                rotate=-90,
            )
            + "</g>"
        )
    # The bodies' glyphs: on the diagonal, or along the top (outer) and down the left (inner).
    glyph_size = cell * 0.6
    if table.triangular:
        heads = [(body, centre(i, i), "") for i, body in enumerate(table.rows)]
    else:
        heads = [(body, centre(-1, i), ' data-ring="outer"') for i, body in enumerate(table.columns)]
        heads += [(body, centre(i, -1), ' data-ring="inner"') for i, body in enumerate(table.rows)]
    for body, at, ring in heads:
        parts.append(
            '<g class="grid-body" '
            f"data-body={quoteattr(body)}{ring}>{_body_glyph(body, at, glyph_size, theme.text)}</g>"
        )
    outlines = glyph_outlines()
    for grid_cell in table.cells:
        aspect = grid_cell.aspect
        colour = theme.aspect(aspect.aspect)
        glyph_at = centre(grid_cell.row, grid_cell.column, 0.37)
        if aspect.aspect in outlines:
            glyph = _glyph(aspect.aspect, glyph_at, cell * 0.46, colour)
        else:
            glyph = _text(glyph_at, aspect.aspect[:3], cell * 0.3, colour)
        parts.append(
            f'<g class="grid-cell" data-aspect="{aspect.aspect}" data-body-a={quoteattr(aspect.body_a)} '
            f'data-body-b={quoteattr(aspect.body_b)} data-orb="{aspect.orb:.4f}">'
            + glyph
            + _text(centre(grid_cell.row, grid_cell.column, 0.8), _orb(aspect.orb), cell * 0.24, colour)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _orb(orb_deg: float) -> str:
    """Return an orb (degrees) in degrees and minutes, rounded to the minute: ``1°05′``."""
    minutes = round(orb_deg * 60.0)
    return f"{minutes // 60}°{minutes % 60:02d}′"


def _body_glyph(body: str, centre: tuple[float, float], size: float, colour: str) -> str:
    """Return a body's glyph ``size`` wide centred at ``centre`` (every body a wheel draws has
    one: ``glyph_name``)."""
    return _glyph(glyph_name(body), centre, size, colour)


def glyph_name(body: str) -> str:
    """Return the name of the glyph (in glyph_outlines.json) a body is drawn with: its own, or
    the one GLYPH_OF_BODY gives it."""
    return GLYPH_OF_BODY.get(body, body)


def _header(lines: tuple[HeaderLine, ...], theme: Theme, size: int) -> str:
    """Return the header's lines (``header.py``), left-aligned above the wheel, the first in
    bold, a place indented under its chart's moment."""
    text_size = float(round(size * HEADER_TEXT))
    step = text_size * HEADER_LINE
    left = text_size
    parts = ['<g class="header">']
    for index, line in enumerate(lines):
        centre = text_size * HEADER_MARGIN + step * (index + 0.5)
        at = (left + (text_size * 1.5 if line.indented else 0.0), centre + text_size * CENTRE_TO_BASELINE)
        parts.append(_text(at, line.text, text_size, theme.text, bold=line.bold, anchor="start", baseline=True))
    parts.append("</g>")
    return "\n".join(parts)


def _ring_labels(labels: tuple[tuple[str, str], tuple[str, str]], theme: Theme, size: int) -> str:
    """Return a bi-wheel's ring labels: the outer ring's two lines in the upper left corner of
    its square, the inner ring's in the lower left one, where the round wheel leaves room."""
    text_size = size * RING_LABEL_TEXT
    step = text_size * HEADER_LINE
    outer, inner = labels
    baseline = text_size * CENTRE_TO_BASELINE
    placed = [
        ("outer", outer, (text_size * 0.5, text_size * 0.5 + step * 0.5)),
        ("inner", inner, (text_size * 0.5, size - text_size * 0.5 - step * 1.5)),
    ]
    parts = ['<g class="ring-labels">']
    for ring, (first, second), (x, y) in placed:
        parts.append(
            f'<g class="ring-label" data-ring="{ring}">'
            + _text((x, y + baseline), first, text_size, theme.text, bold=True, anchor="start", baseline=True)
            + _text((x, y + step + baseline), second, text_size, theme.text, anchor="start", baseline=True)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _table(table: PositionsTable, theme: Theme, size: int, box: tuple[int, int, int, int], words: Words) -> str:
    """Return the positions-and-cusps table (``table.py``) at the top left of its ``box``
    (left, top, width, height): the bodies' block (glyph, then for each ring ``D°MM′``, the
    sign's glyph, the retrograde mark and the house), then the houses' block (the cusp's number
    or the angle's label, ``D°MM′`` and the sign's glyph), its columns TABLE_COLUMNS apart, its
    font TABLE_TEXT of ``size`` or smaller when the box could not hold it; each row a ``<g>``
    with ``data-body`` or ``data-house``/``data-angle`` for a web page to hook."""
    left, top, width, height = box
    margin = size * TABLE_TEXT
    rows = max(len(table.bodies), len(table.houses)) + 1  # and the headings' row
    glyph, ring, gap, houses = TABLE_COLUMNS
    across = glyph + ring * table.rings + gap + houses
    text_size = min(size * TABLE_TEXT, (height - 2 * margin) / rows / TABLE_ROW, (width - 2 * margin) / across)
    row = text_size * TABLE_ROW
    x0, y0 = left + margin, top + margin

    def centre_y(index: int) -> float:
        return y0 + row * (index + 0.5)

    def ring_x(index: int) -> float:
        return x0 + text_size * (glyph + ring * index)

    # Within a ring's column: the position, the sign's glyph after it, the mark, the house.
    mark_at, house_at = 4.9, ring - 0.6
    houses_x = x0 + text_size * (glyph + ring * table.rings + gap)
    parts = ['<g class="positions-table">']
    headings = [(houses_x, words.header("cusps"), "start")]
    for index in range(table.rings):
        name = words.header("position") if table.rings == 1 else words.ring(("inner", "outer")[index])
        headings.append((ring_x(index), name, "start"))
        if table.rings == 1:  # a bi-wheel's ring names take the room of the house's heading
            headings.append((ring_x(index) + text_size * house_at, words.header("house"), "end"))
    parts += [
        _text((x, centre_y(0)), text, text_size * 0.85, theme.text, bold=True, anchor=anchor)
        for x, text, anchor in headings
    ]
    for index, body_row in enumerate(table.bodies, start=1):
        y = centre_y(index)
        cells = [_body_glyph(body_row.body, (x0 + text_size * 0.6, y), text_size * 1.2, theme.text)]
        for ring_index, placement in enumerate(body_row.placements):
            x = ring_x(ring_index)
            cells.append(_placed(placement, (x, y), text_size, theme))
            if placement.retrograde:
                cells.append(
                    _text((x + text_size * mark_at, y), words.retrograde_mark, text_size, theme.text, anchor="start")
                )
            cells.append(
                _text((x + text_size * house_at, y), str(placement.house), text_size, theme.text, anchor="end")
            )
        parts.append(f'<g class="table-body" data-body={quoteattr(body_row.body)}>' + "".join(cells) + "</g>")
    for index, house_row in enumerate(table.houses, start=1):
        y = centre_y(index)
        if house_row.angle:
            label = _text(
                (houses_x, y), words.angle_label(house_row.angle), text_size, theme.text, bold=True, anchor="start"
            )
            hook = f'data-angle="{house_row.angle}"'
        else:
            label = _text((houses_x, y), str(house_row.house), text_size, theme.text, anchor="start")
            hook = f'data-house="{house_row.house}"'
        placed = _placed(house_row.placement, (houses_x + text_size * 2.6, y), text_size, theme)
        parts.append(f'<g class="table-house" {hook}>' + label + placed + "</g>")
    parts.append("</g>")
    return "\n".join(parts)


def _placed(placement, at: tuple[float, float], text_size: float, theme: Theme) -> str:
    """Return a placement's ``D°MM′`` starting at ``at`` and its sign's glyph after it, in the
    sign's element colour."""
    x, y = at
    degrees = _text((x, y), placement.text, text_size, theme.text, anchor="start")
    sign_at = (x + text_width(placement.text, text_size) + text_size * 0.75, y)
    return degrees + _glyph(placement.sign, sign_at, text_size * 1.1, theme.element(SIGN_INDEX[placement.sign]))
