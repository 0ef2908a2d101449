"""A picture's SVG document rasterised to PNG by resvg (the ``svg2png-py`` binding).

The text is drawn with the Noto Sans fonts bundled beside this module (SIL OFL 1.1, see
``OFL.txt``), loaded once into a font database of their own: the system's fonts are never
read, so a PNG depends on the SVG, resvg's version and zlib's alone, never on the fonts of the
machine that drew it, and the same request gives the same bytes everywhere. Every picture's
SVG names ``Noto Sans`` first in its ``font-family``; a family not bundled (a generic
``sans-serif`` alone too) draws no text. The glyphs need no font (they are outlines in the
SVG).

resvg draws the pixels, and ``png_encoding`` writes them (greyscale or RGB, never RGBA: the
pictures are opaque). Why this binding and not ``resvg-py``: resvg-py builds resvg optimised
for size (``opt-level = 'z'``), which made an 800 px wheel cost about 94 ms of CPU, and it
returns only its own RGBA PNG; svg2png-py builds resvg optimised for speed (``opt-level = 3``),
about 20 ms for the same pixels (compared equal, pixel for pixel, over the golden pictures),
returns the pixels themselves, keeps the font database from one call to the next, and lets
other threads run while it draws.
"""

from __future__ import annotations

import functools
from importlib.metadata import version
from pathlib import Path

import numpy as np
import svg2png_py

from shared.pictures.png_encoding import opaque_png

#: The fonts the PNG's text is drawn with: the SVG's ``font-family`` names Noto Sans first;
#: the bold face draws the angle labels (ASC, MC …), which the SVG sets in bold.
FONT_FILES = [str(Path(__file__).with_name(name)) for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf")]
#: The family of the bundled fonts, drawn where an SVG's text names no family.
FONT_FAMILY = "Noto Sans"
#: The rasteriser and its version (the binding's version fixes resvg's): another may draw other
#: pixels, so it is a part of a picture's ``ETag`` (gateway/picture_caching.py).
RASTERISER = f"svg2png-py {version('svg2png-py')}"


@functools.cache
def fonts() -> svg2png_py.FontDatabase:
    """Return the font database of the bundled fonts alone, loaded on first use."""
    database = svg2png_py.FontDatabase()
    for path in FONT_FILES:
        database.load_font_file(path)
    return database


_OPTIONS = svg2png_py.RenderOptions(font_family=FONT_FAMILY)


def render_png(svg: str, width: int, height: int | None = None) -> bytes:
    """Return the PNG (bytes) of the SVG document ``svg``, which declares its size ``width``
    by ``height`` pixels (``width`` square without a height): 8-bit greyscale when every pixel
    is an opaque grey, 8-bit RGB when every pixel is opaque, resvg's own 8-bit RGBA otherwise.

    Raises ValueError when the SVG declares another size (it is drawn at its own)."""
    data, drawn_width, drawn_height = svg2png_py.svg_to_rgba(svg, fonts(), options=_OPTIONS)
    if (drawn_width, drawn_height) != (width, width if height is None else height):
        raise ValueError(f"the SVG is {drawn_width} x {drawn_height} pixels, not {width} x {height or width}")
    rgba = np.frombuffer(data, np.uint8).reshape(drawn_height, drawn_width, 4)
    # A picture not opaque (none of ours: each draws its background) is drawn again, as resvg
    # writes it: its alpha is then unpremultiplied by resvg's own rule.
    return opaque_png(rgba) or svg2png_py.svg_to_png(svg, fonts(), options=_OPTIONS)
