"""Every body a wheel can draw is drawn as its glyph (issue 51): the planets, Chiron, Pholus,
the four main asteroids, both nodes as the ascending node ☊, both apogees however asked as
Black Moon Lilith ⚸, the Earth; never as letters. A retrograde body's label is followed by ℞.

References: the Unicode Character Database (each character's name, through ``unicodedata``),
the glyph outlines' table (shared/pictures/glyph_outlines.json, each outline's code point),
docs/chart-wheels.md's list of glyphs.
"""

from __future__ import annotations

import json
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from kernel.aspects import ASPECT_NAMES
from kernel.bodies import ACCEPTED_NAMES, ALL
from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from services.ephemeris.wheel.drawing import draw_svg, glyph_name
from services.ephemeris.wheel.layout import biwheel_layout, wheel_layout
from services.ephemeris.wheel.points import SOUTH_NODE_OF
from shared.pictures.glyphs import GLYPH_FILE
from shared.pictures.themes import THEMES
from shared.pictures.words import Words, languages

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
#: The Unicode character each body is drawn as, by its name (docs/chart-wheels.md's list).
BODY_CHARACTERS = {
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
    "mean_node": "ASCENDING NODE",
    "true_node": "ASCENDING NODE",
    "chiron": "CHIRON",
    "pholus": "PHOLUS",
    "ceres": "CERES",
    "pallas": "PALLAS",
    "juno": "JUNO",
    "vesta": "VESTA",
    "mean_apogee": "BLACK MOON LILITH",
    "lilith": "BLACK MOON LILITH",
    "osc_apogee": "BLACK MOON LILITH",
    "earth": "EARTH",
}


def _chart(bodies=ALL, moment: str = "1990-06-15T14:30:00Z"):
    settings = ChartSettings(
        bodies=tuple(bodies), system=parse_house_system("placidus"), flags=CalcFlags(), aspect_types=ASPECT_NAMES
    )
    return cast_chart(Moment.from_iso(moment), Observer(51.5, -0.13), settings)


def _outlines() -> dict:
    return json.loads(GLYPH_FILE.read_text(encoding="utf-8"))


def _points(svg: str) -> dict[str, ET.Element]:
    return {g.get("data-body"): g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "point"}


def test_every_body_a_wheel_can_be_asked_for_is_drawn_from_its_unicode_character():
    outlines = _outlines()
    drawn = {body: outlines[glyph_name(body)]["codepoint"] for body in ACCEPTED_NAMES}
    assert {body: unicodedata.name(chr(int(point[2:], 16))) for body, point in drawn.items()} == BODY_CHARACTERS


@pytest.mark.parametrize("biwheel", [False, True], ids=["single", "bi-wheel"])
def test_each_body_on_the_wheel_is_its_glyph_and_no_letters_but_its_label(biwheel):
    chart = _chart()
    layout = biwheel_layout(chart, _chart(moment="2026-03-01T12:00:00Z"), []) if biwheel else wheel_layout(chart)
    svg = draw_svg(layout, THEMES["light"], size=800, title="")
    symbols = {s.get("id") for s in ET.fromstring(svg).iter(f"{SVG}symbol")}
    points = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "point"]
    bodies = [point for point in points if point.get("data-kind") == "body"]
    assert len(bodies) == len(ALL) * (2 if biwheel else 1)
    # Each node's south node beside the bodies (tests/unit/services/test_wheel_points.py).
    assert len(points) == (len(ALL) + len(SOUTH_NODE_OF)) * (2 if biwheel else 1)
    for point in points:
        (use,) = point.iter(f"{SVG}use")
        assert use.get("href") == f"#glyph-{glyph_name(point.get('data-body'))}"
        assert use.get("href")[1:] in symbols
        # The label's degrees and minutes, and the retrograde mark: no name, no abbreviation.
        assert all(set(t.text) <= set("0123456789°′℞") for t in point.iter(f"{SVG}text")), point.get("data-body")


def test_the_mean_apogee_is_one_glyph_and_one_name_however_it_is_asked():
    as_lilith, as_mean_apogee = (
        _points(draw_svg(wheel_layout(_chart([b])), THEMES["light"], size=800, title=""))
        for b in ("lilith", "mean_apogee")
    )
    (lilith,), (mean_apogee,) = as_lilith.values(), as_mean_apogee.values()
    assert next(lilith.iter(f"{SVG}use")).get("href") == next(mean_apogee.iter(f"{SVG}use")).get("href")
    assert next(lilith.iter(f"{SVG}use")).get("href") == "#glyph-black_moon_lilith"
    for lang in languages():
        assert Words(lang).body("lilith") == Words(lang).body("mean_apogee")


@pytest.mark.parametrize("lang", languages())
def test_a_retrograde_body_is_marked_with_the_prescription_sign_and_no_other_body_is(lang):
    # 1990-06-15: Saturn, Uranus, Neptune and Pluto are retrograde, the Sun and Moon never.
    chart = _chart()
    points = _points(draw_svg(wheel_layout(chart), THEMES["light"], size=800, title="", words=Words(lang)))
    retrograde = {p.body for p in chart.positions if p.retrograde}
    assert {"saturn", "pluto"} <= retrograde and "sun" not in retrograde
    retrograde |= {SOUTH_NODE_OF[node] for node in retrograde & set(SOUTH_NODE_OF)}  # as its node
    for body, point in points.items():
        texts = [t.text for t in point.iter(f"{SVG}text")]
        assert (texts[-1] == "\u211e") == (body in retrograde), (body, texts)
        assert not any("R" in text for text in texts)
