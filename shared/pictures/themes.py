"""The colours a wheel is drawn in, by theme. Every colour is written into the picture as a
presentation attribute (``#rrggbb``), never a CSS variable, so any renderer (a browser,
resvg, librsvg, CairoSVG, ImageMagick) draws the same picture.

The element colours follow the usual convention of astrological software (fire red, earth
green, air yellow, water blue); the aspect colours the usual split of hard aspects (red) and
soft ones (blue). ``high_contrast`` keeps every text and line at a contrast ratio of at least
7:1 with its background (WCAG 2.2 AAA); ``print`` is black on white with no fills. A request's
``palette`` overrides any of a theme's colours by name (``Theme.with_palette``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

#: Each sign's element (the classical triplicities), by sign in zodiac order.
ELEMENT_OF_SIGN = ("fire", "earth", "air", "water") * 3
#: Aspects drawn as hard (tension) lines; the others are drawn as soft or minor ones.
HARD_ASPECTS = frozenset({"opposition", "square", "semi_square", "sesquiquadrate"})
SOFT_ASPECTS = frozenset({"trine", "sextile"})


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
            "#b8bec7",
            "#c0392b",
            "#2e7d32",
            "#b7791f",
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
            "#484f58",
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
