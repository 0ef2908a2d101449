"""A chart wheel drawn as a standalone SVG document from its layout (``layout.py``).

The document needs nothing from outside: colours are presentation attributes (``themes.py``),
glyphs are ``<symbol>`` outlines of the Noto Sans Symbols fonts (SIL OFL 1.1, extracted into
``glyph_outlines.json`` by deploy/extract_glyphs.py), there is no script and no reference to
another host. It is ``role="img"`` with a ``<title>`` and a ``<desc>`` that reads the chart
in words; each body is a ``<g class="point">`` with ``data-body``, ``data-longitude`` and
``data-house`` (and, on a bi-wheel, ``data-ring``: inner or outer), each aspect a ``<g class="aspect">`` with ``data-aspect``, ``data-body-a`` and
``data-body-b``, so a web page can style and hook them. The same layout and theme give the
same bytes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from services.ephemeris.wheel.layout import WheelLayout, WheelPoint
from services.ephemeris.wheel.themes import Theme
from services.ephemeris.wheel.words import ENGLISH, Words

#: The glyph outlines, by name (signs, bodies), each in a 1000-unit em centred on the origin.
GLYPH_FILE = Path(__file__).with_name("glyph_outlines.json")
#: The rings, as fractions of the wheel's radius: the zodiac band's outer and inner edges,
#: where the body glyphs stand, their degree, minute and retrograde mark (one above the other
#: along the radius, so crowded labels stay as narrow as their glyphs), the house numbers'
#: ring and the aspect circle.
ZODIAC_OUTER, ZODIAC_INNER = 0.97, 0.82
GLYPH_RING, DEGREE_RING, MINUTE_RING, RETROGRADE_RING = 0.695, 0.615, 0.56, 0.51
HOUSE_RING, ASPECT_RING = 0.455, 0.41
#: Glyph sizes, as fractions of the wheel's radius.
SIGN_GLYPH, BODY_GLYPH = 0.075, 0.07


@dataclass(frozen=True)
class PointRing:
    """Where one ring of bodies is drawn, as fractions of the wheel's radius: the circle its
    marks stand on (inside it), its glyphs, their degree, minute and retrograde labels (one
    above the other along the radius), the glyph's and the labels' sizes, and how far outside
    the glyph's centre its leader line ends."""

    edge: float
    glyph: float
    degree: float
    minute: float
    retrograde: float
    glyph_size: float
    text_size: float
    leader_gap: float


#: The single wheel's one ring, under the zodiac band.
SINGLE_RING = PointRing(ZODIAC_INNER, GLYPH_RING, DEGREE_RING, MINUTE_RING, RETROGRADE_RING, BODY_GLYPH, 0.032, 0.045)
#: A bi-wheel's rings: the outer chart's under the zodiac band, then a circle dividing the
#: rings, the inner chart's under it, then the house numbers and the aspect circle. Glyphs
#: and labels are a little smaller than the single wheel's so both rings fit; the labels stay
#: 0.05 of the radius apart, since at 3 and 9 o'clock the radius runs across the text and
#: closer labels ("24°" beside "13′") would touch.
BI_OUTER_RING = PointRing(ZODIAC_INNER, 0.777, 0.722, 0.672, 0.627, 0.052, 0.028, 0.034)
BI_DIVIDER = 0.6
BI_INNER_RING = PointRing(BI_DIVIDER, 0.557, 0.502, 0.452, 0.407, 0.052, 0.028, 0.034)
BI_HOUSE_RING, BI_ASPECT_RING = 0.362, 0.325
#: The glyph of a body whose glyph is another's (both nodes of the Moon are drawn as its
#: north node, the point they name).
GLYPH_OF_BODY = {"mean_node": "north_node", "true_node": "north_node"}


@cache
def glyph_outlines() -> dict[str, str]:
    """Return each glyph's SVG path data (1000-unit em, centred on the origin), by name."""
    return {name: glyph["path"] for name, glyph in json.loads(GLYPH_FILE.read_text(encoding="utf-8")).items()}


def draw_svg(layout: WheelLayout, theme: Theme, *, size: int, title: str, rings: tuple[str, str] | None = None,
             words: Words = ENGLISH) -> str:
    """Return the SVG document (text) of the wheel ``layout`` in ``theme``, ``size`` pixels
    square, titled ``title``, its labels and description in ``words``' language (named by the
    root's ``xml:lang`` and ``lang``); a bi-wheel's description names its charts by ``rings``
    (the inner one's and the outer one's, e.g. "natal chart", "transits at 2024-01-01T00:00:00Z")."""
    half = size / 2.0
    radius = half * 0.98
    parts: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" '
        f'xml:lang="{words.lang}" lang="{words.lang}" '
        f'width="{size}" height="{size}" viewBox="0 0 {size} {size}" aria-labelledby="wheel-title wheel-desc">',
        f'<title id="wheel-title">{escape(title)}</title>',
        f'<desc id="wheel-desc">{escape(describe(layout, rings, words))}</desc>',
        _symbols(layout),
        f'<rect width="{size}" height="{size}" fill="{theme.background}"/>',
    ]
    parts.append(_zodiac(layout, theme, half, radius))
    if layout.is_biwheel:
        # The angles' labels stand inside the aspect circle (_houses): the houses are drawn
        # over the aspect lines.
        parts.append(_aspects(layout, theme, half, radius, words))
        parts.append(_houses(layout, theme, half, radius, words))
    else:
        parts.append(_houses(layout, theme, half, radius, words))
        parts.append(_aspects(layout, theme, half, radius, words))
    if layout.is_biwheel:
        parts.append(_points(layout.outer_points, BI_OUTER_RING, theme, half, radius, words, ring="outer"))
        parts.append(_points(layout.points, BI_INNER_RING, theme, half, radius, words, ring="inner"))
    else:
        parts.append(_points(layout.points, SINGLE_RING, theme, half, radius, words))
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


def _symbols(layout: WheelLayout) -> str:
    outlines = glyph_outlines()
    bodies = layout.points + layout.outer_points
    names = [sign.sign for sign in layout.signs] + [_glyph_name(p.body) for p in bodies if _glyph_name(p.body) in outlines]
    defs = [f'<symbol id="glyph-{name}" viewBox="-500 -500 1000 1000"><path d="{outlines[name]}"/></symbol>' for name in dict.fromkeys(names)]
    return "<defs>" + "".join(defs) + "</defs>"


def _xy(half: float, radius: float, angle_deg: float) -> tuple[float, float]:
    theta = math.radians(angle_deg)
    return half + radius * math.cos(theta), half - radius * math.sin(theta)


def _f(value: float) -> str:
    """Return a coordinate as the picture writes it: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _line(a: tuple[float, float], b: tuple[float, float], colour: str, width: float, extra: str = "") -> str:
    return f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{colour}" stroke-width="{_f(width)}"{extra}/>'


def _glyph(name: str, centre: tuple[float, float], size: float, colour: str) -> str:
    x, y = centre
    return f'<use xlink:href="#glyph-{name}" href="#glyph-{name}" x="{_f(x - size / 2)}" y="{_f(y - size / 2)}" width="{_f(size)}" height="{_f(size)}" fill="{colour}"/>'


def _text(at: tuple[float, float], text: str, size: float, colour: str, *, bold: bool = False, halo: str | None = None) -> str:
    """Return a text centred at ``at``; with ``halo`` (a colour) outlined in it under the fill,
    so it stays readable over the lines it stands on."""
    weight = ' font-weight="bold"' if bold else ""
    outline = f' stroke="{halo}" stroke-width="{_f(size * 0.25)}" paint-order="stroke"' if halo else ""
    return (f'<text x="{_f(at[0])}" y="{_f(at[1])}" font-family="Noto Sans, sans-serif" font-size="{_f(size)}"{weight} '
            f'fill="{colour}"{outline} text-anchor="middle" dominant-baseline="central">{escape(text)}</text>')


def _zodiac(layout: WheelLayout, theme: Theme, half: float, radius: float) -> str:
    outer, inner = radius * ZODIAC_OUTER, radius * ZODIAC_INNER
    parts = ['<g class="zodiac">',
             f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(outer)}" fill="{theme.band}" stroke="{theme.line}" stroke-width="1.5"/>',
             f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(inner)}" fill="{theme.background}" stroke="{theme.line}" stroke-width="1.5"/>']
    for index, sign in enumerate(layout.signs):
        parts.append(_line(_xy(half, inner, sign.start_deg), _xy(half, outer, sign.start_deg), theme.line, 1.0))
        centre = _xy(half, (outer + inner) / 2, sign.middle_deg)
        parts.append(f'<g class="sign" data-sign="{sign.sign}">{_glyph(sign.sign, centre, radius * SIGN_GLYPH, theme.element(index))}</g>')
    for degree in range(0, 360, 5):
        angle = layout.signs[0].start_deg + degree
        tick = 0.025 if degree % 10 == 0 else 0.012
        parts.append(_line(_xy(half, inner, angle), _xy(half, inner * (1 + tick), angle), theme.line, 0.8))
    parts.append("</g>")
    return "\n".join(parts)


def _houses(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    inner, aspect_ring = radius * ZODIAC_INNER, radius * _aspect_ring(layout)
    house_ring = BI_HOUSE_RING if layout.is_biwheel else HOUSE_RING
    parts = ['<g class="houses">',
             f'<circle cx="{_f(half)}" cy="{_f(half)}" r="{_f(aspect_ring)}" fill="none" stroke="{theme.line}" stroke-width="1"/>']
    if layout.is_biwheel:
        parts.append(f'<circle class="ring-divider" cx="{_f(half)}" cy="{_f(half)}" r="{_f(radius * BI_DIVIDER)}" fill="none" stroke="{theme.line}" stroke-width="1"/>')
    label_size = radius * (0.045 if len(layout.cusps) <= 12 else 0.028)
    for cusp in layout.cusps:
        parts.append(f'<g class="cusp" data-house="{cusp.house}" data-longitude="{cusp.longitude:.6f}">'
                     + _line(_xy(half, aspect_ring, cusp.angle_deg), _xy(half, inner, cusp.angle_deg), theme.faint, 1.0)
                     + "</g>")
        parts.append(_text(_xy(half, radius * house_ring, cusp.label_deg), str(cusp.house), label_size, theme.text))
    # A bi-wheel's outer ring fills the space under the zodiac where a single wheel labels its
    # angles: there the labels stand just inside the aspect circle, turned further aside
    # (the same 0.02 of the radius from the line needs more degrees nearer the centre).
    # Haloed in the background's colour, as the aspect lines cross there.
    label_ring, label_turn = (BI_ASPECT_RING - 0.04, 7.0) if layout.is_biwheel else (ZODIAC_INNER - 0.035, 3.5)
    halo = theme.background if layout.is_biwheel else None
    for angle in layout.angles:
        start, end = _xy(half, aspect_ring, angle.angle_deg), _xy(half, radius * ZODIAC_OUTER, angle.angle_deg)
        label_at = _xy(half, radius * label_ring, angle.angle_deg + (label_turn if angle.name in ("asc", "dsc") else -label_turn))
        parts.append(f'<g class="angle" data-angle="{angle.name}" data-longitude="{angle.longitude:.6f}">'
                     + _line(start, end, theme.line, 2.2)
                     + _text(label_at, words.angle_label(angle.name), radius * 0.04, theme.text, bold=True, halo=halo) + "</g>")
    parts.append("</g>")
    return "\n".join(parts)


def _aspect_ring(layout: WheelLayout) -> float:
    """Return the aspect circle's radius, as a fraction of the wheel's."""
    return BI_ASPECT_RING if layout.is_biwheel else ASPECT_RING


def _aspects(layout: WheelLayout, theme: Theme, half: float, radius: float, words: Words) -> str:
    ring = radius * _aspect_ring(layout)
    parts = ['<g class="aspects">']
    for aspect in layout.aspects:
        colour = theme.aspect(aspect.aspect)
        dash = ' stroke-dasharray="4 3"' if colour == theme.minor else ""
        parts.append(f'<g class="aspect" data-aspect="{aspect.aspect}" data-body-a="{aspect.body_a}" data-body-b="{aspect.body_b}" '
                     f'data-orb="{aspect.orb:.4f}">'
                     + f"<title>{escape(words.aspect_clause(aspect.body_a, aspect.aspect, aspect.body_b))}</title>"
                     + _line(_xy(half, ring, aspect.angle_a_deg), _xy(half, ring, aspect.angle_b_deg), colour, 1.2, dash)
                     + "</g>")
    parts.append("</g>")
    return "\n".join(parts)


def _points(points: tuple[WheelPoint, ...], at: PointRing, theme: Theme, half: float, radius: float, words: Words, *,
            ring: str | None = None) -> str:
    """Return one ring of bodies, labelled in ``words``' language (``ring``: inner or outer on
    a bi-wheel, written as ``data-ring``; None on a single wheel, which writes none)."""
    outlines = glyph_outlines()
    edge = radius * at.edge
    ring_attribute = f' data-ring="{ring}"' if ring else ""
    parts = [f'<g class="points"{ring_attribute}>']
    for point in points:
        mark_in, mark_out = _xy(half, edge * 0.965, point.angle_deg), _xy(half, edge, point.angle_deg)
        glyph_at = _xy(half, radius * at.glyph, point.glyph_deg)
        leader_from = _xy(half, radius * (at.glyph + at.leader_gap), point.glyph_deg)
        colour = theme.text
        if _glyph_name(point.body) in outlines:
            glyph = _glyph(_glyph_name(point.body), glyph_at, radius * at.glyph_size, colour)
        else:  # a body without a glyph of its own (an asteroid, a hypothetical point): its name
            glyph = _text(glyph_at, words.short_body(point.body), radius * at.text_size * 35 / 32, colour)
        labels = [(at.degree, f"{point.degree}°"), (at.minute, f"{point.minute:02d}′")] + ([(at.retrograde, words.retrograde_mark)] if point.retrograde else [])
        parts.append(
            f'<g class="point"{ring_attribute} data-body={quoteattr(point.body)} data-longitude="{point.longitude:.6f}" data-house="{point.house}"'
            f' data-retrograde="{str(point.retrograde).lower()}">'
            + _line(mark_in, mark_out, theme.line, 1.5)
            + _line(mark_out, leader_from, theme.faint, 0.8)
            + glyph
            + "".join(_text(_xy(half, radius * r, point.glyph_deg), text, radius * at.text_size, colour) for r, text in labels)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _glyph_name(body: str) -> str:
    return GLYPH_OF_BODY.get(body, body)

