"""Extract the glyph outlines of the chart wheel (signs, bodies, aspects) from the Noto Sans
Symbols fonts (SIL Open Font License 1.1) into shared/pictures/glyph_outlines.json
(each outline in a 1000-unit em, y down, its bounding box centred on the origin).

Every body a wheel can draw has its symbol in one of the two fonts (Pholus in Symbols2, the
rest in Symbols): the mean and the osculating apogee are both Black Moon Lilith (U+26B8), as
both nodes are the ascending node (U+260A) and the south node drawn opposite either is the
descending node (U+260B). The Part of Fortune is ⊗ (U+2297 CIRCLED TIMES), which neither
Symbols font has: it is taken from Noto Sans Math. The Vertex has no character: it is written
Vx, as astrologers abbreviate it, like the aspects below.

Noto Sans Symbols has no semi-square (U+2220 is in neither font): it is drawn here as a simple
path, an angle of two strokes. The quintiles, septiles and the quindecile have no Unicode
symbol at all: they are written as astrologers abbreviate them (Q, bQ, S, bS, tS, Qd), set in
the bundled Noto Sans Regular and kept as outlines like the rest.

Run once when the glyphs change (not at set-up): it needs fontTools and Debian's
fonts-noto-core. ``python -m deploy.extract_glyphs shared/pictures/glyph_outlines.json``.
"""

import json
import sys

FONTS = {
    "symbols": "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf",
    "symbols2": "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    "math": "/usr/share/fonts/truetype/noto/NotoSansMath-Regular.ttf",
}
GLYPHS = {
    "aries": 0x2648,
    "taurus": 0x2649,
    "gemini": 0x264A,
    "cancer": 0x264B,
    "leo": 0x264C,
    "virgo": 0x264D,
    "libra": 0x264E,
    "scorpio": 0x264F,
    "sagittarius": 0x2650,
    "capricorn": 0x2651,
    "aquarius": 0x2652,
    "pisces": 0x2653,
    "sun": 0x2609,
    "moon": 0x263D,
    "mercury": 0x263F,
    "venus": 0x2640,
    "mars": 0x2642,
    "jupiter": 0x2643,
    "saturn": 0x2644,
    "uranus": 0x2645,
    "neptune": 0x2646,
    "pluto": 0x2647,
    "north_node": 0x260A,
    "south_node": 0x260B,
    "chiron": 0x26B7,
    "pholus": 0x2BDB,
    "ceres": 0x26B3,
    "pallas": 0x26B4,
    "juno": 0x26B5,
    "vesta": 0x26B6,
    "black_moon_lilith": 0x26B8,
    "earth": 0x2641,
    "part_of_fortune": 0x2297,
    "conjunction": 0x260C,
    "opposition": 0x260D,
    "trine": 0x25B3,
    "square": 0x25A1,
    "sextile": 0x26B9,
    "quincunx": 0x26BB,
    "semi_sextile": 0x26BA,
    "sesquiquadrate": 0x26BC,
}
#: The widest (or tallest) a symbol may be, in the 1000-unit em: a ``<symbol>`` clips what
#: overflows its em, and Pholus (U+2BDB) stands 1036 units tall in Symbols2; the tallest of the
#: others, Leo, is 936.
SYMBOL_FIT = 940
#: The aspects and the point without a symbol, by their abbreviations, set in this font.
LETTERS_FONT = "shared/pictures/NotoSans-Regular.ttf"
LETTERS = {
    "quintile": "Q",
    "bi_quintile": "bQ",
    "septile": "S",
    "bi_septile": "bS",
    "tri_septile": "tS",
    "quindecile": "Qd",
    "vertex": "Vx",
}
#: The widest (or tallest) an abbreviation may be, in the 1000-unit em.
LETTERS_FIT = 920
#: The semi-square (an angle, ∠), drawn by hand in a 1000-unit em, y down, centred: a
#: stroke 80 units wide rising from the lower left corner, and the base.
SEMI_SQUARE = {"path": "M-340 300L250 -330L310 -275L-175 245L340 245L340 325L-340 325Z", "width": 680, "height": 655}


def main(output: str) -> None:
    # Imported here, not at the top: fontTools is needed by this one-off run only (it is not in
    # the project's environment), and the glyph table above stays importable without it.
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.ttLib import TTFont

    fonts = {name: TTFont(path) for name, path in FONTS.items()}
    outlines = {}
    for name, codepoint in GLYPHS.items():
        font_name, font = next((n, f) for n, f in fonts.items() if codepoint in f.getBestCmap())
        glyph_set = font.getGlyphSet()
        glyph_name = font.getBestCmap()[codepoint]
        em = font["head"].unitsPerEm
        pen = SVGPathPen(glyph_set, lambda v: f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}")
        # Font units, y up -> an em of 1000 units, y down, the outline's bounding box centred on
        # the origin (a glyph is placed by its centre on the wheel), made smaller when it would
        # overflow the em.
        bounds = BoundsPen(glyph_set)
        glyph_set[glyph_name].draw(bounds)
        x_min, y_min, x_max, y_max = bounds.bounds
        scale = min(1000 / em, SYMBOL_FIT / max(x_max - x_min, y_max - y_min))
        shift_x, shift_y = -(x_min + x_max) / 2 * scale, (y_min + y_max) / 2 * scale
        glyph_set[glyph_name].draw(TransformPen(pen, (scale, 0, 0, -scale, shift_x, shift_y)))
        outlines[name] = {
            "codepoint": f"U+{codepoint:04X}",
            "font": font_name,
            "width": round((x_max - x_min) * scale),
            "height": round((y_max - y_min) * scale),
            "path": pen.getCommands(),
        }
    letters = TTFont(LETTERS_FONT)
    for name, text in LETTERS.items():
        outlines[name] = _letters(letters, text, SVGPathPen, BoundsPen, TransformPen)
    outlines["semi_square"] = {"codepoint": "none", "font": "drawn", **SEMI_SQUARE}
    with open(output, "w", encoding="utf-8") as out:
        json.dump(outlines, out, indent=1, sort_keys=True)
        out.write("\n")


def _letters(font, text: str, SVGPathPen, BoundsPen, TransformPen) -> dict:
    """Return the outline of ``text`` set in ``font`` (advance widths, no kerning), scaled and
    centred as the symbols are, and made smaller when wider than LETTERS_FIT: a ``<symbol>``
    clips what overflows its 1000-unit em (two letters are wider than that)."""
    glyph_set, cmap, metrics = font.getGlyphSet(), font.getBestCmap(), font["hmtx"]
    bounds, x = BoundsPen(glyph_set), 0
    for character in text:
        glyph_set[cmap[ord(character)]].draw(TransformPen(bounds, (1, 0, 0, 1, x, 0)))
        x += metrics[cmap[ord(character)]][0]
    x_min, y_min, x_max, y_max = bounds.bounds
    scale = min(1000 / font["head"].unitsPerEm, LETTERS_FIT / max(x_max - x_min, y_max - y_min))
    pen = SVGPathPen(glyph_set, lambda v: f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}")
    shift_x, shift_y = -(x_min + x_max) / 2 * scale, (y_min + y_max) / 2 * scale
    x = 0
    for character in text:
        glyph_set[cmap[ord(character)]].draw(TransformPen(pen, (scale, 0, 0, -scale, shift_x + x * scale, shift_y)))
        x += metrics[cmap[ord(character)]][0]
    return {
        "codepoint": "none",
        "font": f"Noto Sans ({text})",
        "width": round((x_max - x_min) * scale),
        "height": round((y_max - y_min) * scale),
        "path": pen.getCommands(),
    }


if __name__ == "__main__":
    main(sys.argv[1])
