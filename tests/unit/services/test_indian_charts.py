"""The North and South Indian charts (services/timelords/indian_charts), read back from the
SVG: every graha in its house (North) or sign (South), the lagna marked, a house holding every
graha and the lagna legible and inside its house, and the picture's words and data."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from celestial.v1 import vedic_pb2
from kernel.deadline import Deadline
from services.timelords import vedic_chart
from services.timelords.indian_charts.jyotish_words import JyotishWords
from services.timelords.indian_charts.layout import (
    NORTH_INDIAN,
    SOUTH_INDIAN,
    STYLES,
    ChartPoint,
    chart_layout,
    label_text,
)
from shared.runtime.computation import compute_reply
from shared.runtime.transcoder import request_from_query

SVG = "{http://www.w3.org/2000/svg}"
BODIES = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn", "rahu", "ketu", "uranus", "neptune", "pluto")
ENGLISH = JyotishWords("en")
ABBREVIATIONS = {body: ENGLISH.abbreviation(body) for body in (*BODIES, "lagna")}
#: The smallest label a crowded house may have, of the chart's side: 8.5 px in the default
#: 800-pixel picture (whose chart is 704 px). Measured: 9.0 px for thirteen labels in a North
#: Indian corner triangle (houses 2, 6, 8, 12), the worst case; 11.9 px in a South Indian cell;
#: a house of one to four labels gets the largest font, 18.3 px.
MIN_FONT = 8.5 / 704


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    """Return whether ``point`` is inside the convex ``polygon`` or on its edge."""
    signs = set()
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        if abs(cross) > 1e-12:
            signs.add(cross > 0)
    return len(signs) <= 1


@pytest.mark.parametrize(("style", "sign"), list(itertools.product(STYLES, range(12))))
# The worst case a house's labels meet: every graha (the outer planets too) and the lagna in
# one sign, each graha retrograde and combust at 29°59′ (the longest label).
def test_a_house_holding_every_graha_and_the_lagna_keeps_its_labels_inside_it_legible_and_apart(style, sign):
    points = [ChartPoint(body, sign, 1, 29.99, True, True) for body in BODIES] + [ChartPoint("lagna", sign, 1, 12.5)]
    if style == NORTH_INDIAN:
        # Houses are fixed in the North Indian chart: crowd each in turn.
        points = [ChartPoint(p.body, p.sign, sign + 1, p.degree, p.retrograde, p.combust) for p in points]
    chart = chart_layout(style, "D1", "D1 Rasi", points, ABBREVIATIONS)
    cell = next(c for c in chart.cells if c.labels)
    assert len(cell.labels) == len(points)
    for label in cell.labels:
        x0, y0, x1, y1 = label.box
        for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
            assert _inside(corner, cell.outline), (label.text, corner)
        assert label.font >= MIN_FONT, label.font
    for a, b in itertools.combinations(cell.labels, 2):
        ax0, ay0, ax1, ay1 = a.box
        bx0, by0, bx1, by1 = b.box
        assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a.text, b.text)


def test_the_north_indian_chart_puts_the_lagna_in_the_top_diamond_and_numbers_each_house_by_its_sign():
    points = [ChartPoint("lagna", 4, 1, 10.0), ChartPoint("sun", 6, 3, 1.0)]
    chart = chart_layout(NORTH_INDIAN, "D1", "D1 Rasi", points, ABBREVIATIONS)
    top = chart.cells[0]
    assert top.house == 1 and top.labels[0].point.body == "lagna"
    assert max(y for _, y in top.outline) == 0.5 and min(y for _, y in top.outline) == 0.0
    assert [c.sign for c in chart.cells] == [(4 + h) % 12 for h in range(12)]
    assert chart.cells[2].labels[0].point.body == "sun"


def test_the_south_indian_chart_fixes_pisces_at_the_top_left_and_marks_the_lagnas_sign_with_a_diagonal():
    points = [ChartPoint("lagna", 9, 1, 10.0)]
    chart = chart_layout(SOUTH_INDIAN, "D1", "D1 Rasi", points, ABBREVIATIONS)
    assert chart.cells[11].outline[0] == (0.0, 0.0) and chart.cells[0].outline[0] == (0.25, 0.0)
    capricorn = chart.cells[9].outline
    assert chart.lagna_mark is not None
    assert all(_inside(end, capricorn) for end in chart.lagna_mark)


@pytest.mark.parametrize(
    ("point", "text"),
    [
        (ChartPoint("mercury", 4, 1, 12.135, True, True), "Me℞^ 12°08′"),
        (ChartPoint("saturn", 9, 1, 29.9999), "Sa 29°59′"),
        (ChartPoint("venus", 9, 1, None, False, True), "Ve^"),
    ],
)
def test_a_label_is_the_abbreviation_the_marks_and_in_the_rasi_the_degree_truncated(point, text):
    assert label_text(point, ABBREVIATIONS[point.body]) == text


BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": "28.6", "lon": "77.2", "outer": "true"}


def _reply(**params: str) -> vedic_pb2.ComputeVedicChartResponse:
    request = request_from_query(
        vedic_pb2.ComputeVedicChartRequest, list({**BIRTH, **params}.items()), "/v1/vedic/chart"
    )
    return compute_reply(vedic_chart.compute, request, Deadline.never())


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


@pytest.mark.parametrize("style", STYLES)
def test_the_picture_puts_every_point_of_the_rasi_and_the_navamsa_where_the_json_chart_says(style):
    chart = _reply(vargas="D9").data.json
    root = ET.fromstring(_reply(format="svg", style=style).data.svg)
    rasi, navamsa = _groups(root, "indian-chart")
    assert (rasi.get("data-varga"), navamsa.get("data-varga")) == ("D1", "D9")
    d9 = chart.vargas["D9"]
    for drawn, sign_of in ((rasi, {p.body: p.sign for p in chart.points}), (navamsa, dict(d9.items()))):
        found = {}
        for house in _groups(drawn, "house"):
            for point in _groups(house, "point"):
                found[point.get("data-body")] = point.get("data-sign")
                if style == SOUTH_INDIAN:
                    assert house.get("data-sign") == point.get("data-sign")
                else:
                    assert house.get("data-house") == point.get("data-house")
        assert found == sign_of
    houses = {p.body: p.house for p in chart.points}
    for point in _groups(rasi, "point"):
        assert int(point.get("data-house")) == houses[point.get("data-body")]


def test_the_north_indian_lagna_stands_in_house_1_and_the_south_indian_lagnas_sign_has_the_diagonal():
    lagna = next(p for p in _reply().data.json.points if p.body == "lagna")
    north = ET.fromstring(_reply(format="svg").data.svg)
    assert [
        h.get("data-house")
        for h in _groups(north, "house")
        if _groups(h, "point") and any(p.get("data-body") == "lagna" for p in _groups(h, "point"))
    ][0] == "1"
    south = ET.fromstring(_reply(format="svg", style="south_indian").data.svg)
    rasi = _groups(south, "indian-chart")[0]
    mark = next(rasi.iter(f"{SVG}line"))
    cell = next(h for h in _groups(rasi, "house") if h.get("data-sign") == lagna.sign)
    outline = tuple(tuple(map(float, xy.split(","))) for xy in next(cell.iter(f"{SVG}polygon")).get("points").split())
    for end in ((mark.get("x1"), mark.get("y1")), (mark.get("x2"), mark.get("y2"))):
        assert _inside((float(end[0]), float(end[1])), outline)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_picture_is_an_image_with_a_title_and_a_description_naming_every_graha_in_its_language(lang):
    root = ET.fromstring(_reply(format="svg", lang=lang).data.svg)
    words = JyotishWords(lang)
    assert root.get("role") == "img" and root.get("{http://www.w3.org/XML/1998/namespace}lang") == lang
    title, desc = root.find(f"{SVG}title").text, root.find(f"{SVG}desc").text
    assert title == f"D1 {words.varga_name('rasi')}, D9 {words.varga_name('navamsa')}"
    for body in (*BODIES, "lagna"):
        assert words.name(body) in desc
    labels = [t.text for g in _groups(root, "point") for t in g.iter(f"{SVG}text")]
    assert all(label.startswith(tuple(words.abbreviation(b) for b in (*BODIES, "lagna"))) for label in labels)


def test_every_varga_asked_is_drawn_after_the_rasi_two_to_a_row():
    root = ET.fromstring(_reply(format="svg", vargas="D60,D1,D9", size="400").data.svg)
    assert [g.get("data-varga") for g in _groups(root, "indian-chart")] == ["D1", "D60", "D9"]
    assert (root.get("width"), root.get("height")) == ("800", "800")


@pytest.mark.parametrize("datetime", ["1990-06-15T14:30:00Z", "1984-11-02T05:10:00Z"])
def test_the_marks_of_retrograde_and_combust_and_the_description_follow_the_chart(datetime):
    chart = _reply(datetime=datetime).data.json
    root = ET.fromstring(_reply(datetime=datetime, format="svg").data.svg)
    desc = root.find(f"{SVG}desc").text
    drawn = {g.get("data-body"): g for g in _groups(_groups(root, "indian-chart")[0], "point")}
    for point in chart.points:
        if point.body == "lagna":
            continue
        text = next(drawn[point.body].iter(f"{SVG}text")).text
        assert ("℞" in text) == point.retrograde and ("^" in text) == point.combust
        assert drawn[point.body].get("data-retrograde") == str(point.retrograde).lower()
        assert drawn[point.body].get("data-combust") == str(point.combust).lower()
        clause = ENGLISH.rasi_clause(
            point.body, int(point.sign_degree), point.sign, point.retrograde, point.combust, point.house
        )
        assert clause in desc and ("(combust)" in clause) == point.combust


def test_the_1984_delhi_chart_has_combust_grahas_so_the_combust_mark_is_tested():
    assert any(p.combust for p in _reply(datetime="1984-11-02T05:10:00Z").data.json.points)


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "it", "pt", "nl", "ru"])
def test_each_language_gives_every_graha_an_abbreviation_of_its_own(lang):
    words = JyotishWords(lang)
    abbreviations = [words.abbreviation(body) for body in (*BODIES, "lagna")]
    assert len(set(abbreviations)) == len(abbreviations), abbreviations
