"""The sensitivity timeline drawn as one standalone SVG document from its layout (``layout.py``).

As the chart wheel's and the Indian charts' drawings: colours are presentation attributes
(shared.pictures.themes), the sign, aspect and body glyphs are ``<symbol>`` outlines
(shared.pictures.glyphs), there is no script and no reference to another host; the root is
``role="img"`` with a ``<title>`` and a ``<desc>`` reading every fact in words, in the
``xml:lang`` of its words. Each group is a ``<g class="fact-group">`` with ``data-group``; each
fact's row a ``<g class="fact">`` with ``data-fact`` and ``data-steady``; each interval a
``<g class="interval">`` with ``data-value`` (absent for no aspect), ``data-from`` and
``data-until`` (UT1 Julian days) and a ``<title>`` naming its value and times. The birth is a
``<line class="birth">`` with ``data-jd``; each change a ``<line class="change">`` with
``data-jd``; each tick a ``<g class="tick">`` (the birth's times a ``<g class="birth-time">``)
with ``data-jd``, its local time above its UTC time; the ticks and change rules are drawn
behind the rows (seen between them). A row whose value never changes in the window is drawn
quietly (the background's fill inside a dashed outline, its label, text and glyphs in the
theme's faint colour); a changing row stands out (its label bold, its intervals filled in two
alternating shades, their text in the text colour and their glyphs in their sign's element's
or aspect's colour). The same layout and theme give the same bytes.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from services.search.sensitivity_timeline.layout import IntervalBox, RowBox, TextBox, TimelineLayout
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import Theme, mix

#: The share of the line colour mixed into the band colour for a changing row's second shade.
SHADE_SHARE = 0.12
#: The share of the line colour mixed into the background for the rules at the changes:
#: light, since a ±12 h window has hundreds of them.
RULE_SHARE = 0.3


def draw_svg(layout: TimelineLayout, theme: Theme, *, lang: str, desc: str) -> str:
    """Return the SVG document (text) of ``layout`` in ``theme``, titled by its first header
    line and described by ``desc``, in the language ``lang``."""
    width, height, s = layout.width, layout.height, layout.scale
    parts = [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" '
            f'xml:lang="{lang}" lang="{lang}" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" aria-labelledby="timeline-title timeline-desc">'
        ),
        f'<title id="timeline-title">{escape(layout.header[0].text)}</title>',
        f'<desc id="timeline-desc">{escape(desc)}</desc>',
        _symbols(layout),
        f'<rect width="{width}" height="{height}" fill="{theme.background}"/>',
        '<g class="header">',
        *(_text(box, theme) for box in layout.header),
        "</g>",
        '<g class="axis">',
        *(_text(box, theme) for box in layout.axis_labels),
    ]
    for tick in layout.ticks:
        parts.append(f'<g class="{"birth-time" if tick.birth else "tick"}" data-jd="{tick.jd:.6f}">')
        if not tick.birth:
            parts.append(
                f'<line x1="{_f(tick.x)}" y1="{_f(layout.y0 - 6 * s)}" x2="{_f(tick.x)}" '
                f'y2="{_f(layout.y1)}" stroke="{theme.faint}" stroke-width="{_f(s)}"/>'
            )
        parts.extend(_text(box, theme) for box in (tick.local, tick.utc) if box is not None)
        parts.append("</g>")
    parts.append("</g>")
    rule = mix(theme.background, theme.line, RULE_SHARE)
    parts.append('<g class="changes">')
    parts.extend(
        f'<line class="change" data-jd="{jd:.6f}" x1="{_f(x)}" y1="{_f(layout.y0)}" x2="{_f(x)}" y2="{_f(layout.y1)}" '
        f'stroke="{rule}" stroke-width="{_f(0.6 * s)}"/>'
        for jd, x in layout.rules
    )
    parts.append("</g>")
    for group in layout.groups:
        parts.append(f'<g class="fact-group" data-group={quoteattr(group.key)}>')
        parts.append(
            f'<line x1="{_f(group.label.x)}" y1="{_f(group.y)}" x2="{_f(layout.x1)}" y2="{_f(group.y)}" '
            f'stroke="{theme.faint}" stroke-width="{_f(s)}"/>'
        )
        parts.append(_text(group.label, theme))
        parts.extend(_row(row, theme, s) for row in group.rows)
        parts.append("</g>")
    parts.append(
        f'<line class="birth" data-jd="{layout.birth_jd:.6f}" x1="{_f(layout.birth_x)}" '
        f'y1="{_f(layout.y0 - 6 * s)}" x2="{_f(layout.birth_x)}" y2="{_f(layout.y1)}" '
        f'stroke="{theme.hard}" stroke-width="{_f(2 * s)}"/>'
    )
    parts.append(_text(layout.birth_label, theme))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _symbols(layout: TimelineLayout) -> str:
    outlines = glyph_outlines()
    names = sorted(
        {
            interval.mark.text
            for group in layout.groups
            for row in group.rows
            for interval in row.intervals
            if interval.mark is not None and interval.mark.glyph
        }
    )
    defs = [
        f'<symbol id="glyph-{name}" viewBox="-500 -500 1000 1000"><path d="{outlines[name]}"/></symbol>'
        for name in names
    ]
    return "<defs>" + "".join(defs) + "</defs>"


def _f(value: float) -> str:
    """Return a coordinate as the picture writes it: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _colour(tone: str, theme: Theme) -> str:
    if tone == "faint":
        return theme.faint
    if tone == "birth":
        return theme.hard
    if tone.startswith("element:"):
        return theme.element(int(tone.split(":")[1]))
    if tone.startswith("aspect:"):
        return theme.aspect(tone.split(":")[1])
    return theme.text


def _text(box: TextBox, theme: Theme, colour: str | None = None) -> str:
    bold = ' font-weight="bold"' if box.bold else ""
    return (
        f'<text x="{_f(box.x)}" y="{_f(box.y)}" font-family="Noto Sans, sans-serif" font-size="{_f(box.font)}" '
        f'fill="{colour or _colour(box.tone, theme)}" text-anchor="{box.anchor}" dominant-baseline="central"{bold}>'
        f"{escape(box.text)}</text>"
    )


def _row(row: RowBox, theme: Theme, s: float) -> str:
    parts = [
        f'<g class="fact" data-fact={quoteattr(row.fact)} data-steady="{str(row.steady).lower()}">',
        _text(row.label, theme),
    ]
    parts.extend(_interval(interval, row, theme, s) for interval in row.intervals)
    parts.append("</g>")
    return "\n".join(parts)


def _interval(interval: IntervalBox, row: RowBox, theme: Theme, s: float) -> str:
    segment = interval.segment
    value = f" data-value={quoteattr(segment.value)}" if segment.value is not None else ""
    parts = [
        f'<g class="interval"{value} data-from="{segment.start_jd:.6f}" data-until="{segment.end_jd:.6f}">',
        f"<title>{escape(segment.title)}</title>",
    ]
    top, height = row.y + row.inset, row.height - 2 * row.inset
    dashes = ""
    if row.steady:
        fill, stroke, dashes = theme.background, theme.faint, f' stroke-dasharray="{_f(3 * s)} {_f(2 * s)}"'
    else:
        fill = theme.band if interval.shade == 0 else mix(theme.band, theme.line, SHADE_SHARE)
        stroke = theme.line
    if segment.value is None and not row.steady:
        fill = theme.background
    parts.append(
        f'<rect x="{_f(interval.x0)}" y="{_f(top)}" width="{_f(interval.x1 - interval.x0)}" height="{_f(height)}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{_f(0.8 * s)}"{dashes}/>'
    )
    mark = interval.mark
    if mark is not None:
        colour = theme.faint if row.steady else _colour(segment.tone, theme)
        if mark.glyph:
            parts.append(
                f'<use xlink:href="#glyph-{mark.text}" href="#glyph-{mark.text}" x="{_f(mark.x - mark.size / 2)}" '
                f'y="{_f(mark.y - mark.size / 2)}" width="{_f(mark.size)}" height="{_f(mark.size)}" fill="{colour}"/>'
            )
        else:
            box = TextBox(mark.x, mark.y, mark.text, mark.size, "middle")
            parts.append(_text(box, theme, theme.faint if row.steady else theme.text))
    parts.append("</g>")
    return "".join(parts)
