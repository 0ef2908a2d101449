"""Extract the glyph outlines of the chart wheel (signs, bodies) from the Noto Sans Symbols
fonts (SIL Open Font License 1.1) into services/ephemeris/wheel/glyph_outlines.json
(each outline in a 1000-unit em, y down, its bounding box centred on the origin).

Run once when the glyphs change (not at set-up): it needs fontTools and Debian's
fonts-noto-core. ``python -m deploy.extract_glyphs services/ephemeris/wheel/glyph_outlines.json``.
"""

import json
import sys

FONTS = {
    "symbols": "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf",
    "symbols2": "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
}
GLYPHS = {
    "aries": 0x2648, "taurus": 0x2649, "gemini": 0x264A, "cancer": 0x264B, "leo": 0x264C, "virgo": 0x264D,
    "libra": 0x264E, "scorpio": 0x264F, "sagittarius": 0x2650, "capricorn": 0x2651, "aquarius": 0x2652, "pisces": 0x2653,
    "sun": 0x2609, "moon": 0x263D, "mercury": 0x263F, "venus": 0x2640, "mars": 0x2642, "jupiter": 0x2643,
    "saturn": 0x2644, "uranus": 0x2645, "neptune": 0x2646, "pluto": 0x2647, "north_node": 0x260A, "south_node": 0x260B,
    "chiron": 0x26B7,
}


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
        # the origin (a glyph is placed by its centre on the wheel).
        scale = 1000 / em
        bounds = BoundsPen(glyph_set)
        glyph_set[glyph_name].draw(bounds)
        x_min, y_min, x_max, y_max = bounds.bounds
        shift_x, shift_y = -(x_min + x_max) / 2 * scale, (y_min + y_max) / 2 * scale
        glyph_set[glyph_name].draw(TransformPen(pen, (scale, 0, 0, -scale, shift_x, shift_y)))
        outlines[name] = {
            "codepoint": f"U+{codepoint:04X}", "font": font_name,
            "width": round((x_max - x_min) * scale), "height": round((y_max - y_min) * scale),
            "path": pen.getCommands(),
        }
    with open(output, "w", encoding="utf-8") as out:
        json.dump(outlines, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
