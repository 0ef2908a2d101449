"""The words drawn about a wheel's charts: the header's lines (``header.py``) above the wheel,
and a bi-wheel's ring labels in the corners of its square."""

from __future__ import annotations

from services.ephemeris.wheel.frame import HEADER_LINE, HEADER_MARGIN, HEADER_TEXT
from services.ephemeris.wheel.header import HeaderLine
from services.ephemeris.wheel.svg_parts import text_svg
from shared.pictures.themes import Theme

#: How far below a line's centre its baseline lies, of the font size: half the digits' ink
#: (0.714, geometry.py's TEXT_HEIGHT).
CENTRE_TO_BASELINE = 0.357
#: The ring labels' font size (a share of the wheel's size), in the corners of a bi-wheel's
#: square, where the round wheel leaves room.
RING_LABEL_TEXT = 0.019


def header_svg(lines: tuple[HeaderLine, ...], theme: Theme, size: int) -> str:
    """Return the header's lines (``header.py``), left-aligned above the wheel, the first in
    bold, a place indented under its chart's moment."""
    text_size = float(round(size * HEADER_TEXT))
    step = text_size * HEADER_LINE
    left = text_size
    parts = ['<g class="header">']
    for index, line in enumerate(lines):
        centre = text_size * HEADER_MARGIN + step * (index + 0.5)
        at = (left + (text_size * 1.5 if line.indented else 0.0), centre + text_size * CENTRE_TO_BASELINE)
        parts.append(text_svg(at, line.text, text_size, theme.text, bold=line.bold, anchor="start", baseline=True))
    parts.append("</g>")
    return "\n".join(parts)


def ring_labels_svg(labels: tuple[tuple[str, str], tuple[str, str]], theme: Theme, size: int) -> str:
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
            + text_svg((x, y + baseline), first, text_size, theme.text, bold=True, anchor="start", baseline=True)
            + text_svg((x, y + step + baseline), second, text_size, theme.text, anchor="start", baseline=True)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)
