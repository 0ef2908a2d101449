"""A chart wheel drawn as a standalone SVG document from its layout (``layout.py``).

The document needs nothing from outside: colours are presentation attributes (``themes.py``),
glyphs are ``<symbol>`` outlines of the Noto Sans Symbols fonts (SIL OFL 1.1, extracted into
``glyph_outlines.json`` by deploy/extract_glyphs.py), there is no script and no reference to
another host. It is ``role="img"`` with a ``<title>`` and a ``<desc>`` that reads the chart
in words; each point (a body, a south node, a lot, the Vertex: ``points.py``) is a ``<g
class="point">`` with a ``<title>``, ``data-body``, ``data-longitude``, ``data-house``,
``data-retrograde`` and ``data-kind`` (and, on a bi-wheel, ``data-ring``: inner or outer), each
aspect a ``<g class="aspect">`` with ``data-aspect``, ``data-body-a`` and ``data-body-b``, so a
web page can style and hook them. The same layout and theme give the same bytes.
"""

from __future__ import annotations

import functools
import math
from xml.sax.saxutils import escape, quoteattr

from kernel.zodiac import SIGN_KEYS
from services.ephemeris.wheel.frame import frame
from services.ephemeris.wheel.geometry import (
    ANGLE_DEGREE_TEXT,
    ANGLE_TEXT,
    CUSP_TEXT,
    SIGN_GLYPH,
    TICK_1,
    TICK_5,
    TICK_10,
    ZODIAC_INNER,
    ZODIAC_OUTER,
    text_width,
)
from services.ephemeris.wheel.grid_drawing import grid_svg
from services.ephemeris.wheel.header import HeaderLine
from services.ephemeris.wheel.header_drawing import header_svg, ring_labels_svg
from services.ephemeris.wheel.layout import (
    WheelAngle,
    WheelCusp,
    WheelLayout,
    WheelPoint,
    cusp_position_box,
    label_box,
    layout_blocks,
    line_pieces,
    position_width,
)
from services.ephemeris.wheel.svg_parts import (
    at_angle,
    glyph_name,
    glyph_svg,
    has_glyph,
    line_svg,
    num,
    point_svg,
    text_svg,
)
from services.ephemeris.wheel.table import positions_table
from services.ephemeris.wheel.table_drawing import table_svg
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import ELEMENT_OF_SIGN, HARD_ASPECTS, SOFT_ASPECTS, Theme
from shared.pictures.words import ENGLISH, Words

#: The thickness of the halo under a body's label (of its font size): a cusp line the label
#: could not be moved off is cut where the label crosses it.
LABEL_HALO = 0.25
#: The aspects drawn solid, in every theme: the conjunction, the hard and the soft ones
#: (themes.py); the minor ones are dashed.
SOLID_ASPECTS = HARD_ASPECTS | SOFT_ASPECTS | {"conjunction"}


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
        parts.append(header_svg(header, theme, size, width))
        parts.append(f'<g class="wheel" transform="translate(0 {placed.header})">')
    parts.append(_zodiac(layout, theme, half, radius, band))
    parts.append(_houses(layout, theme, half, radius, words))
    parts.append(_aspects(layout, theme, half, radius, words))
    if layout.is_biwheel:
        parts.append(_points(layout.outer_points, ZODIAC_INNER, theme, half, radius, words, ring="outer"))
        parts.append(_points(layout.points, layout.divider, theme, half, radius, words, ring="inner"))
    else:
        parts.append(_points(layout.points, ZODIAC_INNER, theme, half, radius, words))
    if ring_labels is not None:
        parts.append(ring_labels_svg(ring_labels, theme, size))
    if header:
        parts.append("</g>")
    if placed.grid is not None:
        axes = (ring_labels[1][1], ring_labels[0][1]) if ring_labels is not None else None
        parts.append(grid_svg(layout, theme, placed.grid, words, axes))
    if placed.table is not None:
        parts.append(table_svg(positions_table(layout), theme, size, placed.table, words))
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
    names = [sign.sign for sign in layout.signs] + [glyph_name(p.body) for p in bodies if has_glyph(p.body)]
    if with_aspects:
        names += [a.aspect for a in layout.aspects if a.aspect in outlines]
    defs = [
        f'<symbol id="glyph-{name}" viewBox="-500 -500 1000 1000"><path d="{outlines[name]}"/></symbol>'
        for name in dict.fromkeys(names)
    ]
    return "<defs>" + "".join(defs) + "</defs>"


def _zodiac(layout: WheelLayout, theme: Theme, half: float, radius: float, band: str = "plain") -> str:
    outer, inner = radius * ZODIAC_OUTER, radius * ZODIAC_INNER
    parts = ['<g class="zodiac">']
    if band != "plain":
        # Each sign's tint is a wedge from the centre; the inner circle, filled after it, leaves
        # the band's part of it showing.
        for index, sign in enumerate(layout.signs):
            start, end = at_angle(half, outer, sign.start_deg), at_angle(half, outer, sign.start_deg + 30.0)
            parts.append(
                f'<path class="band-segment" data-sign="{sign.sign}" data-element="{ELEMENT_OF_SIGN[index]}" '
                f'd="M{num(half)} {num(half)}L{num(start[0])} {num(start[1])}A{num(outer)} {num(outer)} 0 0 0 '
                f'{num(end[0])} {num(end[1])}Z" fill="{theme.band_fill(index, band)}"/>'
            )
    parts += [
        f'<circle cx="{num(half)}" cy="{num(half)}" r="{num(outer)}" '
        f'fill="{theme.band if band == "plain" else "none"}" stroke="{theme.line}" stroke-width="1.5"/>',
        f'<circle cx="{num(half)}" cy="{num(half)}" r="{num(inner)}" fill="{theme.background}" stroke="{theme.line}" '
        'stroke-width="1.5"/>',
    ]
    for index, sign in enumerate(layout.signs):
        parts.append(
            line_svg(at_angle(half, inner, sign.start_deg), at_angle(half, outer, sign.start_deg), theme.line, 1.0)
        )
        centre = at_angle(half, (outer + inner) / 2, sign.middle_deg)
        parts.append(
            '<g class="sign" '
            f'data-sign="{sign.sign}">{glyph_svg(sign.sign, centre, radius * SIGN_GLYPH, theme.element(index))}</g>'
        )
    # The degree scale, drawn from 0° Aries at 3 o'clock and turned to the chart's zodiac.
    parts.append(
        f'<g class="degree-scale" transform="rotate({num(-layout.signs[0].start_deg)} {num(half)} {num(half)})" '
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
                f"M{num(half + inner * cos)} {num(half - inner * sin)}"
                f"L{num(half + outer * cos)} {num(half - outer * sin)}"
            )
        paths.append(f'<path d="{"".join(moves)}" stroke-width="{num(width)}"/>')
    return "".join(paths)


def _houses(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    aspect_ring = radius * layout.aspect_ring
    parts = [
        '<g class="houses">',
        f'<circle cx="{num(half)}" cy="{num(half)}" r="{num(aspect_ring)}" fill="none" stroke="{theme.line}" '
        'stroke-width="1"/>',
    ]
    if layout.is_biwheel:
        parts.append(
            f'<circle class="ring-divider" cx="{num(half)}" cy="{num(half)}" r="{num(radius * layout.divider)}" '
            f'fill="none" stroke="{theme.line}" stroke-width="1"/>'
        )
    # Cusp and angle lines stop short of the glyphs and labels they would cross.
    blocks = layout_blocks(layout)
    for cusp in layout.cusps:
        parts.append(
            f'<g class="cusp" data-house="{cusp.house}" data-longitude="{cusp.longitude:.6f}">'
            + _pieces(cusp.angle_deg, layout.aspect_ring, ZODIAC_INNER, blocks, half, radius, theme.faint, 1.0)
            + _cusp_position(cusp, half, radius, theme)
            + "</g>"
        )
        parts.append(
            text_svg(
                at_angle(half, radius * cusp.label_radius, cusp.label_deg),
                str(cusp.house),
                radius * cusp.label_size,
                theme.text,
            )
        )
    # The angles' labels stand in the zodiac band beside their lines (the layout finds them
    # a place clear of the sign glyphs and boundaries), on both kinds of wheel.
    band = radius * (ZODIAC_OUTER + ZODIAC_INNER) / 2
    for angle in layout.angles:
        parts.append(
            f'<g class="angle" data-angle="{angle.name}" data-longitude="{angle.longitude:.6f}">'
            + _pieces(angle.angle_deg, layout.aspect_ring, ZODIAC_OUTER, blocks, half, radius, theme.line, 2.2)
            + text_svg(
                at_angle(half, band, angle.label_deg),
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
    return f'<g class="cusp-position">{text_svg(at, cusp.position, size, theme.text, halo=theme.band)}</g>'


def _angle_position(angle: WheelAngle, half: float, radius: float, band: float, theme: Theme) -> str:
    """Return an angle's position drawn in the zodiac band at its place: ``14°07′`` then its
    sign's glyph, in the sign's element colour."""
    size = radius * ANGLE_DEGREE_TEXT
    glyph = size * 1.1
    width = radius * position_width(angle.degree, angle.minute)
    x, y = at_angle(half, band, angle.position_deg)
    text_width_px = width - glyph
    return (
        '<g class="angle-position">'
        + text_svg((x - width / 2 + text_width_px / 2, y), angle.position, size, theme.text, halo=theme.band)
        + glyph_svg(angle.sign, (x + width / 2 - glyph / 2, y), glyph, theme.element(SIGN_KEYS.index(angle.sign)))
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
        line_svg(at_angle(half, radius * low, angle_deg), at_angle(half, radius * high, angle_deg), colour, width)
        for low, high in line_pieces(angle_deg, inner, outer, blocks)
    )


def _aspects(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    ring = radius * layout.aspect_ring
    parts = ['<g class="aspects">']
    for aspect in layout.aspects:
        colour = theme.aspect(aspect.aspect)
        dash = "" if aspect.aspect in SOLID_ASPECTS else ' stroke-dasharray="4 3"'
        parts.append(
            f'<g class="aspect" data-aspect="{aspect.aspect}" data-body-a="{aspect.body_a}" '
            f'data-body-b="{aspect.body_b}" data-orb="{aspect.orb:.4f}">'
            + f"<title>{escape(words.aspect_clause(aspect.body_a, aspect.aspect, aspect.body_b))}</title>"
            + line_svg(
                at_angle(half, ring, aspect.angle_a_deg), at_angle(half, ring, aspect.angle_b_deg), colour, 1.2, dash
            )
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _points(
    points: tuple[WheelPoint, ...],
    edge: float,
    theme: Theme,
    half: float,
    radius: float,
    words: Words,
    *,
    ring: str | None = None,
) -> str:
    """Return one ring of points (bodies, south nodes, lots, the Vertex), labelled in ``words``'
    language (``ring``: inner or outer on a bi-wheel, written as ``data-ring``; None on a single
    wheel, which writes none), the marks inside the circle of radius ``edge`` (a fraction of the
    wheel's: the zodiac's inner edge, or a bi-wheel's divider for its inner ring): each point's
    mark, leader line, glyph (a lot without one: its
    mark in ``words``' language) and label, the label upright under the glyph along the same
    drawn angle, the retrograde mark (℞) to its right when retrograde (no label where a crowded
    legible ring left it out: ``placement.py``); each point's ``<g>``
    titled with the point in words ("Sun in 24° Gemini in the 9th house")."""
    edge = radius * edge
    ring_attribute = f' data-ring="{ring}"' if ring else ""
    parts = [f'<g class="points"{ring_attribute}>']
    for point in points:
        # The mark on the body's exact degree, and a leader from it to its glyph, wherever
        # in its sector and in whichever tier the glyph stands.
        mark_in, mark_out = at_angle(half, edge * 0.965, point.angle_deg), at_angle(half, edge, point.angle_deg)
        glyph_at = at_angle(half, radius * point.glyph_radius, point.glyph_deg)
        leader_from = at_angle(half, radius * (point.glyph_radius + point.glyph_size * 0.6), point.glyph_deg)
        text_size = radius * point.text_size
        colour = theme.text
        glyph = point_svg(point.body, glyph_at, radius * point.glyph_size, colour, words)
        title = words.body_clause(
            point.body, point.degree, point.sign, point.retrograde, point.house, outer=ring == "outer"
        )
        # The label and its retrograde mark are centred together on the label's place.
        x, y = at_angle(half, radius * point.label_radius, point.glyph_deg)
        box_width = radius * label_box(point)[0]
        label_width = text_width(point.label, text_size)
        labels = (
            text_svg((x - box_width / 2 + label_width / 2, y), point.label, text_size, colour, halo=theme.background)
            if point.label
            else ""
        )
        if point.retrograde and point.label_form != "none":
            r_width = text_width(words.retrograde_mark, text_size)
            labels += text_svg(
                (x + box_width / 2 - r_width / 2, y), words.retrograde_mark, text_size, colour, halo=theme.background
            )
        parts.append(
            f'<g class="point"{ring_attribute} data-body={quoteattr(point.body)} '
            f'data-longitude="{point.longitude:.6f}" data-house="{point.house}" '
            f'data-retrograde="{str(point.retrograde).lower()}" data-kind="{point.kind}">'
            + f"<title>{escape(title)}</title>"
            + line_svg(mark_in, mark_out, theme.line, 1.5)
            + line_svg(mark_out, leader_from, theme.faint, 0.8)
            + glyph
            + labels
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)
