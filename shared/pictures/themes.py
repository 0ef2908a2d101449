"""The colours a wheel is drawn in, by theme. Every colour is written into the picture as a
presentation attribute (``#rrggbb``), never a CSS variable, so any renderer (a browser,
resvg, librsvg, CairoSVG, ImageMagick) draws the same picture.

The element colours follow the usual convention of astrological software (fire red, earth
green, air yellow, water blue); the aspect colours the usual split of hard aspects (red) and
soft ones (blue). Every meaningful line and glyph (ring outlines, sign boundaries, ticks, cusp,
angle, leader and aspect lines, the sign glyphs) stands at a contrast ratio of at least 3:1
with what it is drawn on (WCAG 2.2, 1.4.11 Non-text Contrast), the background or the zodiac
band, plain or tinted by element (``band_fill``); ``high_contrast`` keeps every text and line
at 7:1 (WCAG 2.2 AAA, 1.4.6); ``print`` is black on white with no fills. A request's
``palette`` overrides any of a theme's colours by name (``Theme.with_palette``): the contrast
of a custom palette is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

#: Each sign's element (the classical triplicities), by sign in zodiac order.
ELEMENT_OF_SIGN = ("fire", "earth", "air", "water") * 3
#: Aspects drawn as hard (tension) lines; the others are drawn as soft or minor ones.
HARD_ASPECTS = frozenset({"opposition", "square", "semi_square", "sesquiquadrate"})
SOFT_ASPECTS = frozenset({"trine", "sextile"})
#: How the zodiac band is filled (a wheel's ``band``): plain, in the theme's band colour, or
#: each sign's segment tinted by its element.
BAND_FILLS = ("plain", "elements")
#: The share of its element's colour in a sign's tint of the band (band=elements), by theme:
#: enough to tell the elements apart, little enough that the sign's glyph (in the element's
#: colour) and the lines on the band keep their contrast; ``print`` has no fills.
ELEMENT_TINT = {"light": 0.15, "dark": 0.15, "high_contrast": 0.12, "print": 0.0}


@dataclass(frozen=True)
class Theme:
    """A wheel's colours (``#rrggbb``): its background, the zodiac band's fill, lines and text,
    the faint lines (house cusps), each element's colour, and the aspect lines' by kind."""

    name: str
    background: str
    band: str
    line: str
    text: str
    faint: str
    fire: str
    earth: str
    air: str
    water: str
    conjunction: str
    hard: str
    soft: str
    minor: str

    def element(self, sign_index: int) -> str:
        """Return the colour of the element of the sign at ``sign_index`` (0 Aries … 11 Pisces)."""
        return getattr(self, ELEMENT_OF_SIGN[sign_index])

    def aspect(self, name: str) -> str:
        """Return the colour of an aspect line of the aspect named ``name``."""
        if name == "conjunction":
            return self.conjunction
        if name in HARD_ASPECTS:
            return self.hard
        return self.soft if name in SOFT_ASPECTS else self.minor

    def band_fill(self, sign_index: int, band: str = "plain") -> str:
        """Return the fill of the zodiac band's segment of the sign at ``sign_index`` (0 Aries …
        11 Pisces) when the band is filled ``band`` (plain: the band's colour; elements: the
        band mixed with the sign's element colour by the theme's ELEMENT_TINT share)."""
        if band == "plain":
            return self.band
        return mix(self.band, self.element(sign_index), ELEMENT_TINT.get(self.name, 0.0))

    def with_palette(self, palette: Iterable[tuple[str, str]]) -> Theme:
        """Return this theme with each colour ``palette`` names (pairs of a field's name and
        ``#rrggbb``) replaced; the same theme for an empty palette."""
        return replace(self, **dict(palette))


THEMES = {
    theme.name: theme
    for theme in (
        Theme(
            "light",
            "#ffffff",
            "#f6f3ec",
            "#3d4450",
            "#1f2328",
            "#848d97",
            "#c0392b",
            "#2e7d32",
            "#9a6700",
            "#1f6fb2",
            "#6f42c1",
            "#c62828",
            "#1565c0",
            "#6e7781",
        ),
        Theme(
            "dark",
            "#0d1117",
            "#161b22",
            "#8b949e",
            "#e6edf3",
            "#656c76",
            "#ff7b72",
            "#7ee787",
            "#e3b341",
            "#79c0ff",
            "#d2a8ff",
            "#ff7b72",
            "#79c0ff",
            "#8b949e",
        ),
        Theme(
            "high_contrast",
            "#ffffff",
            "#ffffff",
            "#000000",
            "#000000",
            "#000000",
            "#8b0000",
            "#004d00",
            "#5c4000",
            "#00008b",
            "#4b0082",
            "#8b0000",
            "#00008b",
            "#000000",
        ),
        Theme(
            "print",
            "#ffffff",
            "#ffffff",
            "#000000",
            "#000000",
            "#7f7f7f",
            "#000000",
            "#000000",
            "#000000",
            "#000000",
            "#000000",
            "#000000",
            "#000000",
            "#000000",
        ),
    )
}


def mix(colour: str, other: str, share: float) -> str:
    """Return ``colour`` with ``share`` (0 to 1) of ``other`` mixed in, channel by channel in
    sRGB (``#rrggbb``)."""
    a, b = _channels(colour), _channels(other)
    return "#" + "".join(f"{round(x * (1.0 - share) + y * share):02x}" for x, y in zip(a, b))


def relative_luminance(colour: str) -> float:
    """Return the relative luminance (0 black to 1 white) of ``colour`` (``#rrggbb``), as WCAG
    2.2 defines it: each sRGB channel linearised, weighted 0.2126 R, 0.7152 G, 0.0722 B."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in _channels(colour))]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(colour: str, other: str) -> float:
    """Return the WCAG 2.2 contrast ratio (1 to 21) of two colours (``#rrggbb``): the lighter
    one's relative luminance plus 0.05 over the darker one's plus 0.05."""
    lighter, darker = sorted((relative_luminance(colour), relative_luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _channels(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
