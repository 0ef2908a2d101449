"""The North and South Indian charts drawn as one standalone SVG document from their layouts
(``layout.py``), side by side, two charts to a row.

As the chart wheel's (services/ephemeris/wheel/drawing.py): colours are presentation
attributes (shared.pictures.themes), the South Indian sign glyphs are ``<symbol>`` outlines
(shared.pictures.glyphs), there is no script and no reference to another host; the root is
``role="img"`` with a ``<title>`` and a ``<desc>`` reading every chart in words, in the
``xml:lang`` of its words. Each chart is a ``<g class="indian-chart">`` with ``data-style``
and ``data-varga``; each house or sign a ``<g class="house">`` with ``data-house`` and
``data-sign``; each point a ``<g class="point">`` with ``data-body``, ``data-sign``,
``data-house``, ``data-retrograde`` and ``data-combust`` (and in the rasi ``data-degree``).
The same charts and theme give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from kernel.zodiac import SIGN_KEYS
from services.timelords.indian_charts.jyotish_words import JyotishWords
from services.timelords.indian_charts.layout import SIGN_GLYPH, SOUTH_INDIAN, IndianChart, Label
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import Theme
from shared.runtime.vedic_inputs import CHARTS_PER_ROW

#: Within a chart's square panel (``size`` pixels): the chart's side, its left and top
#: offsets, the title's baseline centre and font size, as shares of ``size``.
CHART_SIDE, CHART_LEFT, CHART_TOP = 0.88, 0.06, 0.09
TITLE_Y, TITLE_FONT = 0.05, 0.04
#: The North Indian sign numbers' font size (of the chart's side).
NUMBER_FONT = 0.03


def picture_size(size: int, charts: int) -> tuple[int, int]:
    """Return the picture's width and height (pixels) of ``charts`` charts, each ``size``
    pixels square, CHARTS_PER_ROW to a row."""
    columns = min(charts, CHARTS_PER_ROW)
    return size * columns, size * math.ceil(charts / CHARTS_PER_ROW)


def draw_svg(charts: Sequence[IndianChart], theme: Theme, *, size: int, words: JyotishWords, desc: str) -> str:
    """Return the SVG document (text) of ``charts`` side by side in ``theme``, each ``size``
    pixels square, titled by their titles, described by ``desc`` (the charts in words,
    ``describe``), in ``words``' language."""
    width, height = picture_size(size, len(charts))
    title = ", ".join(chart.title for chart in charts)
    parts = [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" '
            f'xml:lang="{words.lang}" lang="{words.lang}" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" aria-labelledby="vedic-title vedic-desc">'
        ),
        f'<title id="vedic-title">{escape(title)}</title>',
        f'<desc id="vedic-desc">{escape(desc)}</desc>',
        _symbols(charts),
        f'<rect width="{width}" height="{height}" fill="{theme.background}"/>',
    ]
    for index, chart in enumerate(charts):
        row, column = divmod(index, CHARTS_PER_ROW)
        parts.append(_chart(chart, theme, column * size, row * size, size))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def describe(sections: Sequence[tuple[str, Sequence[str]]]) -> str:
    """Return the picture's description: each chart's title and its points in words
    ("D1 Rasi: Sun in 21° Cancer in the 9th house; …. D9 Navamsa: …")."""
    return " ".join(f"{title}: {'; '.join(clauses)}." for title, clauses in sections)


def _symbols(charts: Sequence[IndianChart]) -> str:
    if not any(chart.style == SOUTH_INDIAN for chart in charts):
        return "<defs></defs>"
    outlines = glyph_outlines()
    names = [cell.sign_key for cell in charts[0].cells]
    defs = [
        f'<symbol id="glyph-{name}" viewBox="-500 -500 1000 1000"><path d="{outlines[name]}"/></symbol>'
        for name in sorted(set(names))
    ]
    return "<defs>" + "".join(defs) + "</defs>"


def _f(value: float) -> str:
    """Return a coordinate as the picture writes it: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(x: float, y: float, text: str, font: float, colour: str, extra: str = "") -> str:
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-family="Noto Sans, sans-serif" font-size="{_f(font)}" fill="{colour}" '
        f'text-anchor="middle" dominant-baseline="central"{extra}>{escape(text)}</text>'
    )


def _chart(chart: IndianChart, theme: Theme, left: int, top: int, size: int) -> str:
    ox, oy, side = left + CHART_LEFT * size, top + CHART_TOP * size, CHART_SIDE * size

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return ox + point[0] * side, oy + point[1] * side

    title = _text(left + size / 2, top + TITLE_Y * size, chart.title, TITLE_FONT * size, theme.text)
    parts = [
        f'<g class="indian-chart" data-style="{chart.style}" data-varga="{chart.code}">',
        f'<g class="chart-title">{title}</g>',
        f'<rect x="{_f(ox)}" y="{_f(oy)}" width="{_f(side)}" height="{_f(side)}" fill="{theme.band}" '
        f'stroke="{theme.line}" stroke-width="2"/>',
    ]
    for cell in chart.cells:
        outline = " ".join(f"{_f(x)},{_f(y)}" for x, y in map(at, cell.outline))
        parts.append(f'<g class="house" data-house="{cell.house}" data-sign="{cell.sign_key}">')
        parts.append(f'<polygon points="{outline}" fill="none" stroke="{theme.line}" stroke-width="1.5"/>')
        sx, sy = at(cell.sign_at)
        if chart.style == SOUTH_INDIAN:
            glyph = SIGN_GLYPH * side
            parts.append(
                f'<use xlink:href="#glyph-{cell.sign_key}" href="#glyph-{cell.sign_key}" x="{_f(sx - glyph / 2)}" '
                f'y="{_f(sy - glyph / 2)}" width="{_f(glyph)}" height="{_f(glyph)}" fill="{theme.element(cell.sign)}"/>'
            )
        else:
            number = _text(sx, sy, str(cell.sign + 1), NUMBER_FONT * side, theme.line)
            parts.append(f'<g class="sign-number">{number}</g>')
        parts.extend(_label(label, at(label.x_y), side, theme) for label in cell.labels)
        parts.append("</g>")
    if chart.lagna_mark is not None:
        (ax, ay), (bx, by) = map(at, chart.lagna_mark)
        parts.append(
            f'<line class="lagna-mark" x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}" '
            f'stroke="{theme.line}" stroke-width="2"/>'
        )
    parts.append("</g>")
    return "\n".join(parts)


def _label(label: Label, centre: tuple[float, float], side: float, theme: Theme) -> str:
    """Return a point's ``<g class="point">``: its label's text at ``centre`` (pixels), the
    lagna's in bold, with the point's data attributes."""
    point = label.point
    attributes = f'data-body={quoteattr(point.body)} data-sign="{SIGN_KEYS[point.sign]}" data-house="{point.house}"'
    if point.degree is not None:
        attributes += f' data-degree="{point.degree:.4f}"'
    if point.body != "lagna":
        attributes += f' data-retrograde="{str(point.retrograde).lower()}" data-combust="{str(point.combust).lower()}"'
    bold = ' font-weight="bold"' if point.body == "lagna" else ""
    return f'<g class="point" {attributes}>{_text(*centre, label.text, label.font * side, theme.text, bold)}</g>'
