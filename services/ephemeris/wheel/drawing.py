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
from xml.sax.saxutils import escape, quoteattr

from kernel.zodiac import SIGN_KEYS
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


def picture_size(size: int, grid: str = "none") -> tuple[int, int]:
    """Return the whole picture's width and height (pixels) of a wheel ``size`` pixels square
    with its aspect grid ``grid``: none, aside (to the right: wider) or below (taller)."""
    extra = round(size * GRID_SHARE)
    wider, taller = GRID_EXTENT[grid]
    return size + wider * extra, size + taller * extra


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
) -> str:
    """Return the SVG document (text) of the wheel ``layout`` in ``theme``, ``size`` pixels
    square, titled ``title``, its labels and description in ``words``' language (named by the
    root's ``xml:lang`` and ``lang``); a bi-wheel's description names its charts by ``rings`` (the
    inner one's and the outer one's, e.g. "natal chart", "transits at 2024-01-01T00:00:00Z").
    With ``grid`` aside or below, the aspect grid stands to the right of the wheel or under it
    and the picture (``picture_size``) is wider or taller; the wheel keeps its place and size.
    ``band`` fills the zodiac band plain or tints each sign's segment by its element
    (``Theme.band_fill``)."""
    half = size / 2.0
    radius = half * 0.98
    width, height = picture_size(size, grid)
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
    parts.append(_zodiac(layout, theme, half, radius, band))
    parts.append(_houses(layout, theme, half, radius, words))
    parts.append(_aspects(layout, theme, half, radius, words))
    if layout.is_biwheel:
        parts.append(_points(layout.outer_points, BI_OUTER_RING, theme, half, radius, words, ring="outer"))
        parts.append(_points(layout.points, BI_INNER_RING, theme, half, radius, words, ring="inner"))
    else:
        parts.append(_points(layout.points, SINGLE_RING, theme, half, radius, words))
    if grid != "none":
        parts.append(_grid(layout, theme, size, grid))
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
    at: tuple[float, float], text: str, size: float, colour: str, *, bold: bool = False, halo: str | None = None
) -> str:
    """Return a text centred at ``at``; with ``halo`` (a colour) outlined in it under the fill,
    so it stays readable over the lines it stands on."""
    weight = ' font-weight="bold"' if bold else ""
    outline = f' stroke="{halo}" stroke-width="{_f(size * 0.25)}" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{_f(at[0])}" y="{_f(at[1])}" font-family="Noto Sans, sans-serif" font-size="{_f(size)}"{weight} '
        f'fill="{colour}"{outline} text-anchor="middle" dominant-baseline="central">{escape(text)}</text>'
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


def _grid(layout: WheelLayout, theme: Theme, size: int, place: str) -> str:
    """Return the aspect grid (``layout.aspect_grid``) in its square beside (``place`` aside)
    or under (below) the wheel: a triangular grid with the bodies' glyphs on its diagonal, or
    a bi-wheel's table with the outer bodies along the top and the inner ones down the left;
    each aspect's cell a ``<g class="grid-cell">`` with its glyph and its orb in degrees and
    minutes (rounded to the minute), in its aspect line's colour."""
    table = aspect_grid(layout)
    side = round(size * GRID_SHARE)
    left, top = (size, (size - side) / 2) if place == "aside" else ((size - side) / 2, size)
    left, top = left + side * GRID_MARGIN, top + side * GRID_MARGIN
    span = side * (1 - 2 * GRID_MARGIN)
    headed = 0 if table.triangular else 1  # the bi-wheel's header row and column
    cell = span / (len(table.rows) if table.triangular else max(len(table.rows), len(table.columns)) + 1)

    def corner(row: int, column: int) -> tuple[float, float]:
        return left + (column + headed) * cell, top + (row + headed) * cell

    def centre(row: int, column: int, down: float = 0.5) -> tuple[float, float]:
        x, y = corner(row, column)
        return x + cell / 2, y + cell * down

    parts = ['<g class="aspect-grid">']
    frame = [
        (r, c) for r in range(len(table.rows)) for c in range(len(table.columns)) if not table.triangular or c <= r
    ]
    parts += [
        f'<rect x="{_f(corner(r, c)[0])}" y="{_f(corner(r, c)[1])}" width="{_f(cell)}" height="{_f(cell)}" '
        f'fill="none" stroke="{theme.faint}" stroke-width="0.8"/>'
        for r, c in frame
    ]
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
