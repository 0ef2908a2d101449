"""A chart wheel's SVG document (``drawing.py``) rasterised to PNG by resvg.

The text is drawn with the Noto Sans fonts bundled beside this module (SIL OFL 1.1, see
``OFL.txt``), and resvg is told to skip the system's fonts: a PNG then depends on the SVG
and the resvg version alone, never on the fonts of the machine that drew it, so the same
request gives the same bytes everywhere. The glyphs need no font (they are outlines in the
SVG).
"""

from __future__ import annotations

import re
from pathlib import Path

import resvg_py

from shared.pictures.png_greyscale import greyscale_png

#: The fonts the PNG's text is drawn with: the SVG's ``font-family`` names Noto Sans first;
#: the bold face draws the angle labels (ASC, MC …), which the SVG sets in bold.
FONT_FILES = [str(Path(__file__).with_name(name)) for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf")]
#: The family of the bundled fonts, and of every generic family an SVG might name.
FONT_FAMILY = "Noto Sans"

#: A colour written as #rrggbb in an SVG.
_HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})\b")


def render_png(svg: str, width: int, height: int | None = None) -> bytes:
    """Return the PNG (bytes) of the SVG document ``svg`` drawn ``width`` by ``height`` pixels
    (``width`` pixels square without a height): 8-bit greyscale when every pixel is an opaque
    grey, 8-bit RGBA otherwise."""
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        width=width,
        height=width if height is None else height,
        skip_system_fonts=True,
        font_files=FONT_FILES,
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
    )
    # A picture with a colour written in it is served as resvg wrote it, its pixels not read
    # (that alone costs some 6 ms at 800 px).
    return (greyscale_png(png) if written_in_greys(svg) else None) or png


def written_in_greys(svg: str) -> bool:
    """Return whether every #rrggbb colour of the SVG document ``svg`` is a grey (red, green and
    blue equal): then its picture may be all greys (the pixels decide: a colour written
    otherwise, a name or rgb(), is not read here)."""
    return all(red.lower() == green.lower() == blue.lower() for red, green, blue in _HEX_COLOUR.findall(svg))
