"""A custom palette (``palette``) over a theme: each colour it names is drawn exactly where the
theme's colour of that role was, and nowhere else; every other colour stays the theme's.

The roles are the light theme's, whose thirteen colours are all different, so each is found
in the SVG by its value; the picture is parsed, and compared element by element and attribute
by attribute with the same wheel drawn without a palette.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

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
from shared.pictures.themes import THEMES, Theme
from shared.runtime.chart_wheel_input import PALETTE_NAMES

LIGHT = THEMES["light"]
#: A colour none of the themes uses.
CUSTOM = "#123456"


def _chart(moment: str):
    settings = ChartSettings(
        bodies=ALL, system=parse_house_system("placidus"), flags=CalcFlags(), aspect_types=ASPECT_NAMES
    )
    return cast_chart(Moment.from_iso(moment), Observer(51.5, -0.13), settings)


NATAL, TRANSITS = _chart("1990-06-15T14:30:00Z"), _chart("2026-03-01T12:00:00Z")
LAYOUTS = {
    "single": wheel_layout(NATAL),
    "bi-wheel": biwheel_layout(NATAL, TRANSITS, inter_chart(NATAL, TRANSITS, NATAL.settings).aspects),
}


def test_the_palette_names_every_colour_of_a_theme():
    assert set(PALETTE_NAMES) == {field.name for field in dataclasses.fields(Theme)} - {"name"}


def test_the_light_themes_colours_are_all_different_so_each_role_is_found_by_its_colour():
    colours = [getattr(LIGHT, name) for name in PALETTE_NAMES]
    assert len(set(colours)) == len(colours) and CUSTOM not in colours


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
@pytest.mark.parametrize("name", PALETTE_NAMES)
def test_a_palette_colour_is_drawn_exactly_where_the_themes_colour_of_its_role_was(name, layout):
    plain = ET.fromstring(draw_svg(LAYOUTS[layout], LIGHT, size=800, title=""))
    painted = ET.fromstring(draw_svg(LAYOUTS[layout], LIGHT.with_palette([(name, CUSTOM)]), size=800, title=""))
    theirs, replaced = getattr(LIGHT, name), 0
    for before, after in zip(plain.iter(), painted.iter(), strict=True):
        assert before.tag == after.tag
        expected = {key: CUSTOM if value == theirs else value for key, value in before.attrib.items()}
        assert after.attrib == expected
        replaced += sum(value == theirs for value in before.attrib.values())
    assert replaced > 0, f"the theme's {name} is not drawn in this wheel"
