"""The words drawn about a wheel's charts: the header's lines (``header.py``) above the wheel,
and a bi-wheel's ring labels in the corners of its square."""

from __future__ import annotations

import math

from services.ephemeris.wheel.frame import HEADER_LINE, HEADER_MARGIN, HEADER_TEXT
from services.ephemeris.wheel.geometry import ZODIAC_OUTER, text_width
from services.ephemeris.wheel.header import HeaderLine
from services.ephemeris.wheel.svg_parts import text_svg
from shared.pictures.themes import Theme

#: How far below a line's centre its baseline lies, of the font size: half the digits' ink
#: (0.714, geometry.py's TEXT_HEIGHT).
CENTRE_TO_BASELINE = 0.357
#: The ring labels' font size (a share of the wheel's size), in the corners of a bi-wheel's
#: square, where the round wheel leaves room.
RING_LABEL_TEXT = 0.019


def header_svg(lines: tuple[HeaderLine, ...], theme: Theme, size: int, width: float | None = None) -> str:
    """Return the header's lines (``header.py``), left-aligned above the wheel, the first in
    bold, a place indented under its chart's moment; a line too long for the picture's
    ``width`` (pixels; the wheel's ``size`` when not given), with the left margin kept on the
    right, is set in a smaller font that fits (a long zone name, a long chart's name in a
    language that writes its dates in words)."""
    text_size = float(round(size * HEADER_TEXT))
    step = text_size * HEADER_LINE
    left = text_size
    parts = ['<g class="header">']
    for index, line in enumerate(lines):
        centre = text_size * HEADER_MARGIN + step * (index + 0.5)
        x = left + (text_size * 1.5 if line.indented else 0.0)
        font = fitted_size(line.text, text_size, (width or size) - left - x, bold=line.bold)
        at = (x, centre + font * CENTRE_TO_BASELINE)
        parts.append(text_svg(at, line.text, font, theme.text, bold=line.bold, anchor="start", baseline=True))
    parts.append("</g>")
    return "\n".join(parts)


def fitted_size(text: str, font: float, room: float, *, bold: bool = False) -> float:
    """Return ``font`` (pixels), or the smaller size (to a tenth of a pixel, rounded down) at
    which ``text`` is no wider than ``room`` (pixels), by geometry.py's advance widths."""
    wide = text_width(text, font, bold=bold)
    return font if wide <= room else math.floor(font * room / wide * 10.0) / 10.0


def _corner_room(size: int, x: float, top: float, bottom: float) -> float:
    """Return how wide (pixels) a line from ``x`` between the heights ``top`` and ``bottom``
    (pixels, from the square's top) may be in a corner of the wheel's square before it meets
    the zodiac band's outer edge, half its height clear of it."""
    half = size / 2.0
    band = half * 0.98 * ZODIAC_OUTER
    nearest = min(abs(top - half), abs(bottom - half))
    if nearest >= band:
        return size - x
    return half - math.sqrt(band * band - nearest * nearest) - x - (bottom - top) / 2.0


def ring_labels_svg(labels: tuple[tuple[str, str], tuple[str, str]], theme: Theme, size: int) -> str:
    """Return a bi-wheel's ring labels: the outer ring's two lines in the upper left corner of
    its square, the inner ring's in the lower left one, where the round wheel leaves room; a
    label too long for its corner is set smaller, so that it never meets the zodiac band."""
    text_size = size * RING_LABEL_TEXT
    step = text_size * HEADER_LINE
    outer, inner = labels
    placed = [
        ("outer", outer, (text_size * 0.5, text_size * 0.5 + step * 0.5)),
        ("inner", inner, (text_size * 0.5, size - text_size * 0.5 - step * 1.5)),
    ]
    parts = ['<g class="ring-labels">']
    for ring, (first, second), (x, y) in placed:
        # Both lines in one size: the larger that keeps each clear of the zodiac band.
        font = min(
            fitted_size(first, text_size, _corner_room(size, x, y - text_size / 2, y + text_size / 2), bold=True),
            fitted_size(second, text_size, _corner_room(size, x, y + step - text_size / 2, y + step + text_size / 2)),
        )
        down = font * CENTRE_TO_BASELINE
        parts.append(
            f'<g class="ring-label" data-ring="{ring}">'
            + text_svg((x, y + down), first, font, theme.text, bold=True, anchor="start", baseline=True)
            + text_svg((x, y + step + down), second, font, theme.text, anchor="start", baseline=True)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)
