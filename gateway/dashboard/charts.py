"""Bar charts drawn on the server as SVG: no script, no library, readable by a screen reader
(a title, and the figures in the table beside each chart)."""

from __future__ import annotations

from markupsafe import Markup, escape

WIDTH_PX = 640
HEIGHT_PX = 180
_AXIS_PX = 24  # room under the bars for the first and last label
_TOP_PX = 16  # room above the tallest bar for its figure


def bar_chart_svg(labels: list[str], values: list[int], title: str) -> Markup:
    """Return an SVG bar chart of ``values`` (one bar each, labelled ``labels``; the first and
    last labels written under the axis) titled ``title``, as markup for a template."""
    tallest = max(values, default=0) or 1
    slot_px = WIDTH_PX / max(len(values), 1)
    bar_px = max(slot_px * 0.7, 1.0)
    plot_px = HEIGHT_PX - _AXIS_PX - _TOP_PX
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH_PX} {HEIGHT_PX}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="0" y1="{HEIGHT_PX - _AXIS_PX}" x2="{WIDTH_PX}" y2="{HEIGHT_PX - _AXIS_PX}"/>',
    ]
    for position, (label, value) in enumerate(zip(labels, values)):
        height = plot_px * value / tallest
        x = position * slot_px + (slot_px - bar_px) / 2
        y = HEIGHT_PX - _AXIS_PX - height
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{bar_px:.1f}" height="{height:.1f}">'
            f"<title>{escape(label)}: {value:,}</title></rect>"
        )
    parts.append(f'<text class="peak" x="{WIDTH_PX}" y="12" text-anchor="end">max {max(values, default=0):,}</text>')
    if labels:
        parts.append(f'<text x="0" y="{HEIGHT_PX - 6}">{escape(labels[0])}</text>')
        parts.append(f'<text x="{WIDTH_PX}" y="{HEIGHT_PX - 6}" text-anchor="end">{escape(labels[-1])}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
