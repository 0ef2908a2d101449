"""The points a wheel draws beside the bodies (issue 51, part 3; services/ephemeris/wheel/points.py),
rule by rule: the south node opposite each node, the lots the chart was cast with and its Vertex,
each drawn as a body is (a glyph, or a lot's mark in the picture's language, its label, its data
attributes and a title naming it), in the order the chart gives them, and left out of the aspect
grid, which holds the bodies' aspects. Where they stand (within their sign and house, clear of the
others) is proved with the bodies' in test_wheel_geometry.py."""

from __future__ import annotations

import json
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from kernel.chart import ChartSettings, cast_chart
from kernel.chart_extras import ChartExtras, operands_at, with_extras
from kernel.houses import parse_house_system
from kernel.lots import LOTS, parse_lots
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.grid_drawing import grid_svg
from services.ephemeris.wheel.layout import aspect_grid, wheel_layout
from services.ephemeris.wheel.points import SOUTH_NODE_OF, chart_points
from services.ephemeris.wheel.svg_parts import glyph_name, has_glyph
from shared.pictures.glyphs import GLYPH_FILE
from shared.pictures.themes import THEMES
from shared.pictures.words import Words, languages

SVG = "{http://www.w3.org/2000/svg}"
MOMENT = "1990-06-15T14:30:00Z"
BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "mean_node", "true_node")
#: The character (its Unicode name) or the letters each point beside the bodies is drawn as.
POINT_GLYPHS = {
    "mean_south_node": "DESCENDING NODE",
    "true_south_node": "DESCENDING NODE",
    "part_of_fortune": "CIRCLED TIMES",
    "vertex": "Noto Sans (Vx)",
}


def _chart(*, lots: bool = True):
    settings = ChartSettings(bodies=BODIES, system=parse_house_system("placidus"), flags=CalcFlags())
    chart = cast_chart(Moment.from_iso(MOMENT), Observer(51.5, -0.13), settings)
    if not lots:
        return chart
    extras = ChartExtras(derived=True, midpoints=False, antiscia=False, lots=parse_lots(["default"]))
    return with_extras(chart, extras, operands_at(chart, Moment.from_iso(MOMENT)))


def _points(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "point"]


def test_the_points_are_the_bodies_each_node_followed_by_its_south_node_then_the_lots_then_the_vertex():
    chart = _chart()
    points = chart_points(chart, vertex=True)
    expected = []
    for body in BODIES:
        expected += [(body, "body")] + ([(SOUTH_NODE_OF[body], "south_node")] if body in SOUTH_NODE_OF else [])
    expected += [(lot.id, "lot") for lot in LOTS] + [("vertex", "vertex")]
    assert [(p.body, p.kind) for p in points] == expected
    assert [p.body for p in chart_points(chart)] == [body for body, _ in expected[:-1]]  # no Vertex unless asked


def test_a_south_node_is_opposite_its_node_retrograde_as_it_and_in_the_house_the_chart_places_it():
    chart = _chart(lots=False)
    points = {p.body: p for p in chart_points(chart)}
    for node, south in SOUTH_NODE_OF.items():
        position = next(p for p in chart.positions if p.body == node)
        assert points[south].longitude == pytest.approx(normalize_deg(position.longitude + 180.0), abs=1e-9)
        assert points[south].retrograde == position.retrograde
        assert points[south].house == chart.placement.house(points[south].longitude)
        assert points[south].house == (position.house + 5) % 12 + 1  # opposite its node's house


def test_a_lot_and_the_vertex_are_where_the_chart_has_them_never_retrograde():
    chart = _chart()
    points = {p.body: p for p in chart_points(chart, vertex=True)}
    derived = [p for p in chart.derived_points if p.kind == "lot"]
    for lot, placed in zip(chart.lots, derived):
        assert (points[lot.id].longitude, points[lot.id].house) == (lot.longitude, placed.house)
        assert not points[lot.id].retrograde
    assert points["vertex"].longitude == chart.houses.vertex_deg
    assert points["vertex"].house == chart.placement.house(chart.houses.vertex_deg)


def test_each_point_beside_the_bodies_is_drawn_from_its_unicode_character_or_its_abbreviation():
    outlines = json.loads(GLYPH_FILE.read_text(encoding="utf-8"))
    drawn = {}
    for point in POINT_GLYPHS:
        outline = outlines[glyph_name(point)]
        codepoint = outline["codepoint"]
        drawn[point] = unicodedata.name(chr(int(codepoint[2:], 16))) if codepoint != "none" else outline["font"]
    assert drawn == POINT_GLYPHS
    assert [lot.id for lot in LOTS if has_glyph(lot.id)] == ["part_of_fortune"]


@pytest.mark.parametrize("lang", languages())
def test_every_point_is_named_in_every_language_and_every_lot_but_fortune_has_a_short_mark(lang):
    words = Words(lang)
    for point in [*SOUTH_NODE_OF.values(), "vertex", *(lot.id for lot in LOTS)]:
        assert words.body(point).strip(), point
    for lot in LOTS[1:]:
        assert 1 <= len(words.lot_mark(lot.id)) <= 3, lot.id


@pytest.mark.parametrize("lang", languages())
def test_each_point_is_its_glyph_or_its_mark_in_the_pictures_language_then_its_label(lang):
    words = Words(lang)
    chart = _chart()
    svg = draw_svg(wheel_layout(chart, vertex=True), THEMES["light"], size=800, title="", words=words)
    symbols = {s.get("id") for s in ET.fromstring(svg).iter(f"{SVG}symbol")}
    for point in _points(svg):
        body, texts = point.get("data-body"), [t.text for t in point.iter(f"{SVG}text")]
        uses = [u.get("href") for u in point.iter(f"{SVG}use")]
        if has_glyph(body):
            assert uses == [f"#glyph-{glyph_name(body)}"] and uses[0][1:] in symbols, body
        else:
            # The mark, in bold, then the label (degrees and minutes); no glyph.
            marks = [t for t in point.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
            assert uses == [] and [m.text for m in marks] == [words.lot_mark(body)] and texts[0] == marks[0].text, body
            texts = texts[1:]
        assert all(set(text) <= set("0123456789°′℞") for text in texts), (body, texts)


@pytest.mark.parametrize("lang", languages())
def test_each_point_carries_the_bodies_data_attributes_and_a_title_naming_it_in_the_pictures_language(lang):
    words = Words(lang)
    layout = wheel_layout(_chart(), vertex=True)
    svg = draw_svg(layout, THEMES["light"], size=800, title="", words=words)
    drawn = _points(svg)
    assert [(g.get("data-body"), g.get("data-kind")) for g in drawn] == [(p.body, p.kind) for p in layout.points]
    description = ET.fromstring(svg).find(f"{SVG}desc").text
    for g, point in zip(drawn, layout.points):
        assert float(g.get("data-longitude")) == pytest.approx(point.longitude, abs=1e-6)
        assert int(g.get("data-house")) == point.house
        assert g.get("data-retrograde") == str(point.retrograde).lower()
        title = g.find(f"{SVG}title").text
        assert title == words.body_clause(point.body, point.degree, point.sign, point.retrograde, point.house)
        assert words.body(point.body) in title and title in description


def test_the_aspect_grid_holds_the_bodies_only():
    chart = _chart()
    layout = wheel_layout(chart, vertex=True)
    assert aspect_grid(layout).rows == BODIES
    drawn = grid_svg(layout, THEMES["light"], (0, 0, 600, 600), Words("en"))
    grid = ET.fromstring(
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{drawn}</svg>'
    )
    assert [g.get("data-body") for g in grid.iter(f"{SVG}g") if g.get("class") == "grid-body"] == list(BODIES)
