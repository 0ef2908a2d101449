"""Every meaningful line, glyph and text of a wheel stands out from what it is drawn on
(issue 51): lines and glyphs at a contrast ratio of at least 3:1 (WCAG 2.2, 1.4.11 Non-text
Contrast), text at 4.5:1 (1.4.3), and everything at 7:1 in the high_contrast theme (1.4.6), in
every theme, against the background and against the zodiac band, plain or tinted by element
(``band=elements``). The roles each surface carries are read from the drawn pictures, so a
colour drawn somewhere new cannot escape the rule.

References: WCAG 2.2's definitions of relative luminance and contrast ratio (its worked values:
black on white 21:1, #777777 on white 4.48:1), shared/pictures/themes.py.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import fields

import pytest

from kernel.aspects import ASPECT_NAMES
from kernel.bodies import ALL
from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.synastry import inter_chart
from kernel.timescale import Moment
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import biwheel_layout, wheel_layout
from shared.pictures.themes import BAND_FILLS, ELEMENT_OF_SIGN, THEMES, Theme, contrast_ratio

SVG = "{http://www.w3.org/2000/svg}"
#: The least contrast ratio of lines and glyphs, and of text, in a theme; high_contrast's of both.
GRAPHICS, TEXT, HIGH = 3.0, 4.5, 7.0
#: The roles drawn on the background (inside the zodiac band, and the aspect grid beside it):
#: the lines of rings, cusps, angles, leaders and aspects, the bodies' glyphs and labels, the
#: aspects' glyphs and orbs in the grid.
ON_BACKGROUND = {
    "line": GRAPHICS,
    "faint": GRAPHICS,
    "conjunction": TEXT,
    "hard": TEXT,
    "soft": TEXT,
    "minor": TEXT,
    "text": TEXT,
}
#: The roles drawn on the zodiac band: its outlines, sign boundaries, ticks and the angle
#: lines, the angle labels, and each sign's glyph in its element's colour (on its own segment).
ON_BAND = {"line": GRAPHICS, "text": TEXT}
ELEMENTS = ("fire", "earth", "air", "water")
#: The groups drawn on the zodiac band: the band itself, and each angle's and cusp's position
#: (its degree and its sign's glyph in the element's colour) in the band beside its line.
BAND_GROUPS = ("zodiac", "angle-position", "cusp-position")


def _least(theme: Theme, wanted: float) -> float:
    return HIGH if theme.name == "high_contrast" else wanted


def _chart(moment: str):
    settings = ChartSettings(
        bodies=ALL, system=parse_house_system("placidus"), flags=CalcFlags(), aspect_types=ASPECT_NAMES
    )
    return cast_chart(Moment.from_iso(moment), Observer(51.5, -0.13), settings)


NATAL, TRANSITS = _chart("1990-06-15T14:30:00Z"), _chart("2026-03-01T12:00:00Z")
LAYOUTS = (
    wheel_layout(NATAL),
    biwheel_layout(NATAL, TRANSITS, inter_chart(NATAL, TRANSITS, NATAL.settings).aspects),
)


def test_the_contrast_ratio_is_wcags():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    # WCAG's own example, rounded to two decimals as it gives it.
    assert round(contrast_ratio("#777777", "#ffffff"), 2) == 4.48


@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_every_line_and_text_on_the_background_holds_its_contrast(theme):
    ratios = {role: contrast_ratio(getattr(theme, role), theme.background) for role in ON_BACKGROUND}
    assert {role: round(r, 2) for role, r in ratios.items() if r < _least(theme, ON_BACKGROUND[role])} == {}


@pytest.mark.parametrize("band", BAND_FILLS)
@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_every_line_text_and_sign_glyph_on_the_band_holds_its_contrast(theme, band):
    short = {}
    for index in range(12):
        fill = theme.band_fill(index, band)
        wanted = {**ON_BAND, ELEMENT_OF_SIGN[index]: GRAPHICS}
        for role, least in wanted.items():
            ratio = contrast_ratio(getattr(theme, role), fill)
            if ratio < _least(theme, least):
                short[(index, role)] = round(ratio, 2)
    assert short == {}


def test_the_elements_tint_the_band_four_ways_but_in_print_which_has_no_fills():
    for theme in THEMES.values():
        tints = {theme.band_fill(index, "elements") for index in range(12)}
        assert len(tints) == (1 if theme.name == "print" else 4), theme.name
        assert {theme.band_fill(index, "plain") for index in range(12)} == {theme.band}


def _colours(element: ET.Element) -> set[str]:
    return {element.get(key) for key in ("fill", "stroke") if element.get(key) not in (None, "none")}


@pytest.mark.parametrize("band", BAND_FILLS)
@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_every_colour_a_wheel_draws_is_a_role_whose_contrast_is_held(theme, band):
    """The zodiac's group and the angles' and cusps' positions draw the band's roles on the band
    (and the background inside it);
    everything else draws the background's roles, or the background itself (the labels' halo)."""
    roles_of: dict[str, set[str]] = {}
    for field in fields(Theme)[1:]:
        roles_of.setdefault(getattr(theme, field.name), set()).add(field.name)
    tints = {theme.band_fill(index, band) for index in range(12)}
    for layout in LAYOUTS:
        svg = ET.fromstring(draw_svg(layout, theme, size=800, title="", grid="aside", band=band))
        drawn = svg.find(f"{SVG}rect")
        # The zodiac's group, and the angles' and cusps' positions, which stand in the band.
        banded = [g for g in svg.iter(f"{SVG}g") if g.get("class") in BAND_GROUPS]
        in_band = {e for g in banded for e in g.iter()}
        on_band = set().union(*(_colours(e) for e in in_band)) - tints - {theme.band, theme.background}
        elsewhere = set().union(*(_colours(e) for e in svg.iter() if e not in in_band and e is not drawn))
        # A colour two roles share (dark's fire is its hard aspects' red) is held as either.
        assert [c for c in on_band if not roles_of[c] & (set(ON_BAND) | set(ELEMENTS))] == []
        assert [c for c in elsewhere - {theme.background} if not roles_of[c] & set(ON_BACKGROUND)] == []
