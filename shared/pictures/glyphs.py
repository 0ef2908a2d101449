"""The glyphs of signs and bodies as SVG outlines of the Noto Sans Symbols fonts (SIL OFL 1.1),
extracted into ``glyph_outlines.json`` by deploy/extract_glyphs.py: a picture carries them as
``<symbol>`` paths and needs no font to draw them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

#: The glyph outlines, by name (signs, bodies), each in a 1000-unit em centred on the origin.
GLYPH_FILE = Path(__file__).with_name("glyph_outlines.json")


@cache
def glyph_outlines() -> dict[str, str]:
    """Return each glyph's SVG path data (1000-unit em, centred on the origin), by name."""
    return {name: glyph["path"] for name, glyph in json.loads(GLYPH_FILE.read_text(encoding="utf-8")).items()}
