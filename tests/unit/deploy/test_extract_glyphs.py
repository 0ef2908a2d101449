"""deploy/extract_glyphs.py: the table of the chart wheel's glyphs (each sign and body, the
Unicode character it is drawn from) and the outlines file it produced; the extraction itself
runs only where fontTools and the Noto Sans Symbols fonts are installed.

References: the Unicode Character Database (the characters' names, through ``unicodedata``),
the module's docstring (outlines in a 1000-unit em, centred on the origin), the committed
shared/pictures/glyph_outlines.json.
"""

from __future__ import annotations

import importlib.util
import json
import unicodedata
from pathlib import Path

import pytest

from deploy.extract_glyphs import FONTS, GLYPHS, LETTERS, main
from shared.runtime.config import REPO_ROOT

OUTLINES = REPO_ROOT / "shared" / "pictures" / "glyph_outlines.json"

#: The Unicode name of the character each glyph is drawn from (Unicode's "Miscellaneous
#: Symbols" block: Venus and Mars are the female and male signs, the Moon its first quarter).
UNICODE_NAMES = {
    "aries": "ARIES",
    "taurus": "TAURUS",
    "gemini": "GEMINI",
    "cancer": "CANCER",
    "leo": "LEO",
    "virgo": "VIRGO",
    "libra": "LIBRA",
    "scorpio": "SCORPIUS",
    "sagittarius": "SAGITTARIUS",
    "capricorn": "CAPRICORN",
    "aquarius": "AQUARIUS",
    "pisces": "PISCES",
    "sun": "SUN",
    "moon": "FIRST QUARTER MOON",
    "mercury": "MERCURY",
    "venus": "FEMALE SIGN",
    "mars": "MALE SIGN",
    "jupiter": "JUPITER",
    "saturn": "SATURN",
    "uranus": "URANUS",
    "neptune": "NEPTUNE",
    "pluto": "PLUTO",
    "north_node": "ASCENDING NODE",
    "south_node": "DESCENDING NODE",
    "part_of_fortune": "CIRCLED TIMES",
    "chiron": "CHIRON",
    "pholus": "PHOLUS",
    "ceres": "CERES",
    "pallas": "PALLAS",
    "juno": "JUNO",
    "vesta": "VESTA",
    "black_moon_lilith": "BLACK MOON LILITH",
    "earth": "EARTH",
    "conjunction": "CONJUNCTION",
    "opposition": "OPPOSITION",
    "trine": "WHITE UP-POINTING TRIANGLE",
    "square": "WHITE SQUARE",
    "sextile": "SEXTILE",
    "quincunx": "QUINCUNX",
    "semi_sextile": "SEMISEXTILE",
    "sesquiquadrate": "SESQUIQUADRATE",
}


def test_each_glyph_is_drawn_from_the_unicode_character_of_its_sign_or_body():
    assert {name: unicodedata.name(chr(codepoint)) for name, codepoint in GLYPHS.items()} == UNICODE_NAMES


def test_the_committed_outlines_are_those_of_the_table_each_from_one_of_its_fonts():
    outlines = json.loads(OUTLINES.read_text(encoding="utf-8"))
    # Beside the characters: the aspects Unicode has no symbol for, as letters of the bundled
    # Noto Sans, and the semi-square, which neither Symbols font has, drawn by hand.
    assert set(outlines) == set(GLYPHS) | set(LETTERS) | {"semi_square"}
    for name, outline in outlines.items():
        if name in LETTERS:
            assert (outline["codepoint"], outline["font"]) == ("none", f"Noto Sans ({LETTERS[name]})")
        elif name == "semi_square":
            assert (outline["codepoint"], outline["font"]) == ("none", "drawn")
        else:
            assert outline["codepoint"] == f"U+{GLYPHS[name]:04X}"
            assert outline["font"] in FONTS
        assert outline["path"].startswith("M") and outline["width"] > 0 and outline["height"] > 0


def test_every_outline_fits_its_em_so_its_symbol_clips_none_of_it():
    outlines = json.loads(OUTLINES.read_text(encoding="utf-8"))
    assert {
        name: max(o["width"], o["height"]) for name, o in outlines.items() if max(o["width"], o["height"]) > 1000
    } == {}


@pytest.mark.skipif(
    importlib.util.find_spec("fontTools") is None or not all(Path(p).is_file() for p in FONTS.values()),
    reason="the extraction needs fontTools and Debian's fonts-noto-core (a one-off tool, not in the environment)",
)
def test_extracting_again_reproduces_the_committed_outlines(tmp_path):
    main(str(tmp_path / "outlines.json"))
    assert (tmp_path / "outlines.json").read_text(encoding="utf-8") == OUTLINES.read_text(encoding="utf-8")
