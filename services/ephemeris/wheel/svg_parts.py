"""The SVG elements a chart wheel and the parts beside it are drawn with: a point at a screen
angle, numbers as the picture writes them, a line, a glyph (a ``<use>`` of its ``<symbol>``),
a text, and the glyph (or mark) a body or another point is drawn with. Coordinates are pixels from the picture's top
left corner (y down); a screen angle is in degrees, counterclockwise from 3 o'clock."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from services.ephemeris.wheel.geometry import text_width
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.words import Words

#: The glyph of a body whose glyph is another's: both nodes of the Moon are drawn as its north
#: node (☊), the point they name, and both apogees of its orbit, however asked (mean_apogee or
#: its alias lilith, osc_apogee), as Black Moon Lilith (⚸). Every other body's glyph bears its
#: own name (glyph_outlines.json), as does each point drawn beside the bodies but the south
#: nodes, both the descending node (☋), and the lots without a glyph (points.py).
GLYPH_OF_BODY = {
    "mean_node": "north_node",
    "true_node": "north_node",
    "mean_south_node": "south_node",
    "true_south_node": "south_node",
    "mean_apogee": "black_moon_lilith",
    "lilith": "black_moon_lilith",
    "osc_apogee": "black_moon_lilith",
}


def at_angle(half: float, radius: float, angle_deg: float) -> tuple[float, float]:
    theta = math.radians(angle_deg)
    return half + radius * math.cos(theta), half - radius * math.sin(theta)


def num(value: float) -> str:
    """Return a coordinate as the picture writes it: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def line_svg(a: tuple[float, float], b: tuple[float, float], colour: str, width: float, extra: str = "") -> str:
    return (
        f'<line x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}" stroke="{colour}" '
        f'stroke-width="{num(width)}"{extra}/>'
    )


def glyph_svg(name: str, centre: tuple[float, float], size: float, colour: str) -> str:
    x, y = centre
    return (
        f'<use xlink:href="#glyph-{name}" href="#glyph-{name}" x="{num(x - size / 2)}" y="{num(y - size / 2)}" '
        f'width="{num(size)}" height="{num(size)}" fill="{colour}"/>'
    )


def text_svg(
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
    outline = f' stroke="{halo}" stroke-width="{num(size * 0.25)}" paint-order="stroke"' if halo else ""
    named = f' class="{css_class}"' if css_class else ""
    turned = f' transform="rotate({num(rotate)} {num(at[0])} {num(at[1])})"' if rotate else ""
    vertical = "" if baseline else ' dominant-baseline="central"'
    if baseline:
        at = (round(at[0]), round(at[1]))
    return (
        f'<text{named} x="{num(at[0])}" y="{num(at[1])}" font-family="Noto Sans, sans-serif" font-size="{num(size)}"'
        f'{weight} fill="{colour}"{outline}{turned} text-anchor="{anchor}"{vertical}>'
        f"{escape(text)}</text>"
    )


#: The font size of a lot's mark (``Spi``), of the glyph's size it stands in for, and the
#: share of that size its width may take at most.
MARK_TEXT, MARK_WIDTH = 0.5, 0.95


def body_glyph_svg(body: str, centre: tuple[float, float], size: float, colour: str) -> str:
    """Return a body's glyph ``size`` wide centred at ``centre`` (every body a wheel draws has
    one: ``glyph_name``)."""
    return glyph_svg(glyph_name(body), centre, size, colour)


def has_glyph(point: str) -> bool:
    """Return whether the point ``point`` (a body, a south node, a lot, vertex) is drawn as a
    glyph: every body, the south nodes, the Part of Fortune (⊗), the Vertex (Vx); the other lots
    are drawn as a mark in the picture's language (``point_svg``)."""
    return glyph_name(point) in glyph_outlines()


def point_svg(point: str, centre: tuple[float, float], size: float, colour: str, words: Words) -> str:
    """Return a point's glyph ``size`` wide centred at ``centre``, or, for a lot without one,
    its mark in ``words``' language (``Spi``, set in Noto Sans Bold within the glyph's width, apart
    from the labels' regular text)."""
    if has_glyph(point):
        return body_glyph_svg(point, centre, size, colour)
    mark = words.lot_mark(point)
    font = min(size * MARK_TEXT, size * MARK_WIDTH / text_width(mark, 1.0, bold=True))
    return text_svg(centre, mark, font, colour, bold=True)


def glyph_name(body: str) -> str:
    """Return the name of the glyph (in glyph_outlines.json) a body is drawn with: its own, or
    the one GLYPH_OF_BODY gives it."""
    return GLYPH_OF_BODY.get(body, body)
