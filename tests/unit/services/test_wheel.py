"""The chart wheel (services/ephemeris/wheel): the picture is the data.

Each chart is cast by the kernel, drawn, and the SVG parsed back as a browser would read it:
every body's ``data-longitude`` is the chart's longitude, and the mark drawn for it stands at
the screen angle the wheel's convention gives that longitude (the Ascendant at 9 o'clock, the
zodiac counterclockwise), computed here from the chart's own numbers, not from the layout.
Tolerance: coordinates are written to 0.01 px, which on the zodiac's inner edge of an 800 px
wheel (radius about 320 px) is 0.002°; 0.01° is allowed.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import wheel_layout
from shared.pictures.themes import THEMES

SVG = "{http://www.w3.org/2000/svg}"
BODIES = (
    "sun",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
    "mean_node",
    "chiron",
    "ceres",
)
SIZE = 800
ANGLE_TOLERANCE_DEG = 0.01

CHARTS = [
    ("paris placidus", "1984-02-11T09:20:00Z", 48.85, 2.35, "placidus", None),
    ("sao paulo koch", "1986-10-30T22:05:00Z", -23.55, -46.63, "koch", None),
    ("whole signs", "2001-09-09T03:00:00Z", 35.68, 139.69, "whole_sign", None),
    ("equal, lahiri", "1969-07-20T20:17:00Z", 28.61, 77.21, "equal", "lahiri"),
    ("gauquelin sectors", "1950-01-01T12:00:00Z", 40.71, -74.0, "gauquelin", None),
    ("polar fallback", "1990-06-21T12:00:00Z", 78.22, 15.65, "placidus", None),
    ("campanus, fagan-bradley", "2024-04-08T18:18:00Z", -33.87, 151.21, "campanus", "fagan_bradley"),
]


def _chart(moment, lat, lon, system, sidereal):
    flags = CalcFlags(sidereal=parse_ayanamsha(sidereal)) if sidereal else CalcFlags()
    return cast_chart(
        Moment.from_iso(moment),
        Observer(lat, lon),
        ChartSettings(bodies=BODIES, system=parse_house_system(system), flags=flags),
    )


def _screen_angle(longitude, ascendant):
    return (180.0 + longitude - ascendant) % 360.0


def _angle_of(line: ET.Element, end: str) -> float:
    x, y = float(line.get(f"x{end}")), float(line.get(f"y{end}"))
    return math.degrees(math.atan2(-(y - SIZE / 2), x - SIZE / 2)) % 360.0


def _close(a: float, b: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= ANGLE_TOLERANCE_DEG


def _drawn(chart, theme="light") -> ET.Element:
    return ET.fromstring(draw_svg(wheel_layout(chart), THEMES[theme], size=SIZE, title="Natal chart"))


@pytest.mark.parametrize("name, moment, lat, lon, system, sidereal", CHARTS, ids=[c[0] for c in CHARTS])
def test_every_body_is_drawn_at_its_longitude(name, moment, lat, lon, system, sidereal):
    chart = _chart(moment, lat, lon, system, sidereal)
    drawn_points = [g for g in _drawn(chart).iter(f"{SVG}g") if g.get("class") == "point"]
    points = {g.get("data-body"): g for g in drawn_points if g.get("data-kind") == "body"}
    assert list(points) == [p.body for p in chart.positions]
    for position in chart.positions:
        drawn = points[position.body]
        assert float(drawn.get("data-longitude")) == pytest.approx(position.longitude, abs=1e-6)
        assert int(drawn.get("data-house")) == position.house
        assert drawn.get("data-retrograde") == str(position.retrograde).lower()
        mark = drawn.find(f"{SVG}line")
        assert _close(_angle_of(mark, "2"), _screen_angle(position.longitude, chart.houses.ascendant_deg)), (
            position.body
        )


@pytest.mark.parametrize("name, moment, lat, lon, system, sidereal", CHARTS, ids=[c[0] for c in CHARTS])
def test_every_cusp_and_angle_is_drawn_from_the_charts_own_house_system(name, moment, lat, lon, system, sidereal):
    chart = _chart(moment, lat, lon, system, sidereal)
    svg = _drawn(chart)
    cusps = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "cusp"]
    assert len(cusps) == len(chart.houses.cusps_deg)  # 36 Gauquelin sectors, 12 otherwise
    for drawn, longitude in zip(cusps, chart.houses.cusps_deg):
        assert float(drawn.get("data-longitude")) == pytest.approx(longitude, abs=1e-6)
        assert _close(_angle_of(drawn.find(f"{SVG}line"), "1"), _screen_angle(longitude, chart.houses.ascendant_deg))
    angles = {g.get("data-angle"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "angle"}
    assert _close(_angle_of(angles["asc"].find(f"{SVG}line"), "2"), 180.0)  # the Ascendant at 9 o'clock
    assert _close(
        _angle_of(angles["mc"].find(f"{SVG}line"), "2"),
        _screen_angle(chart.houses.midheaven_deg, chart.houses.ascendant_deg),
    )


def test_every_aspect_of_the_chart_is_one_line_between_its_bodies():
    chart = _chart(*CHARTS[0][1:])
    drawn = [g for g in _drawn(chart).iter(f"{SVG}g") if g.get("class") == "aspect"]
    assert [(g.get("data-body-a"), g.get("data-aspect"), g.get("data-body-b")) for g in drawn] == [
        (a.body_a, a.aspect, a.body_b) for a in chart.aspects
    ]
    longitudes = {p.body: p.longitude for p in chart.positions}
    for g, aspect in zip(drawn, chart.aspects):
        line = g.find(f"{SVG}line")
        assert _close(_angle_of(line, "1"), _screen_angle(longitudes[aspect.body_a], chart.houses.ascendant_deg))
        assert _close(_angle_of(line, "2"), _screen_angle(longitudes[aspect.body_b], chart.houses.ascendant_deg))


def test_the_svg_stands_alone_with_colours_resolved_and_nothing_from_another_host():
    text = draw_svg(wheel_layout(_chart(*CHARTS[0][1:])), THEMES["dark"], size=SIZE, title="Natal chart")
    assert "var(" not in text and "<script" not in text and "<style" not in text and "@import" not in text
    hosts = set(re.findall(r"https?://[^\"' >]+", text))
    assert hosts <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    colours = set(re.findall(r'(?:fill|stroke)="([^"]+)"', text))
    assert colours and all(re.fullmatch(r"#[0-9a-f]{6}|none", c) for c in colours), colours
    assert {c for c in colours if c != "none"} <= set(vars(THEMES["dark"]).values())


def test_the_picture_is_an_image_with_a_title_and_a_description_of_the_chart():
    chart = _chart(*CHARTS[0][1:])
    svg = _drawn(chart)
    assert svg.get("role") == "img" and svg.find(f"{SVG}title").text == "Natal chart"
    description = svg.find(f"{SVG}desc").text
    sun = next(p for p in chart.positions if p.body == "sun")
    assert f"Sun in {int(sun.sign_degree)}° {sun.sign.title()} in the {sun.house}" in description
    points = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "point"]  # the bodies and the south node
    assert description.count(" in the ") == len(points) and "Ascendant in" in description


def test_every_glyph_is_an_outline_of_its_own():
    svg = _drawn(_chart(*CHARTS[0][1:]))
    symbols = {s.get("id") for s in svg.iter(f"{SVG}symbol")}
    used = {u.get("href") for u in svg.iter(f"{SVG}use")}
    assert {f"#glyph-{sign}" for sign in ("aries", "pisces", "scorpio")} <= used
    assert {"#glyph-sun", "#glyph-north_node", "#glyph-chiron"} <= used  # mean_node drawn as the north node
    assert {u[1:] for u in used} <= symbols
    assert all(len(s.find(f"{SVG}path").get("d")) > 50 for s in svg.iter(f"{SVG}symbol"))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_same_chart_gives_the_same_bytes(theme):
    chart = _chart(*CHARTS[1][1:])
    first = draw_svg(wheel_layout(chart), THEMES[theme], size=SIZE, title="Natal chart")
    assert first == draw_svg(wheel_layout(_chart(*CHARTS[1][1:])), THEMES[theme], size=SIZE, title="Natal chart")


@pytest.mark.parametrize("system", ["placidus", "gauquelin"])
def test_each_house_number_stands_between_its_cusp_and_the_next(system):
    chart = _chart("1950-01-01T12:00:00Z", 40.71, -74.0, system, None)
    layout = wheel_layout(chart)
    for cusp, following in zip(layout.cusps, layout.cusps[1:] + layout.cusps[:1]):
        to_label = (cusp.label_deg - cusp.angle_deg + 180.0) % 360.0 - 180.0
        to_next = (following.angle_deg - cusp.angle_deg + 180.0) % 360.0 - 180.0
        assert 0.0 < to_label / to_next < 1.0, cusp.house


def _luminance(colour: str) -> float:
    """WCAG 2.2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_high_contrast_keeps_every_colour_at_7_to_1_against_its_background():
    theme = THEMES["high_contrast"]
    background = _luminance(theme.background)
    for name, colour in vars(theme).items():
        if name in ("name", "background", "band"):
            continue
        lighter, darker = sorted((background, _luminance(colour)), reverse=True)
        assert (lighter + 0.05) / (darker + 0.05) >= 7.0, name


# --- Drawing rules a reader sees (issue 37): dashes, labels, angle labels -------------------

#: The aspects drawn solid: the conjunction, the hard and the soft ones; every other is minor.
SOLID = {"conjunction", "opposition", "square", "semi_square", "sesquiquadrate", "trine", "sextile"}
ALL_ASPECTS = (
    "conjunction",
    "opposition",
    "trine",
    "square",
    "sextile",
    "quincunx",
    "semi_sextile",
    "semi_square",
    "sesquiquadrate",
    "quintile",
    "bi_quintile",
)
FONT_FILE = Path(__file__).parents[3] / "shared" / "pictures" / "NotoSans-Regular.ttf"
#: Dense cases: six bodies within 10° (1914-01-26, in Aquarius), sixteen bodies, Gauquelin's
#: 36 sectors, and Sydney (the Sun, Moon, Mercury and Venus within 25°, on the Midheaven).
SIXTEEN = BODIES + ("pallas", "juno", "vesta")
PLANETS = BODIES[:10] + ("mean_node",)
DENSE = {
    "six within 10 degrees": ("1914-01-26T00:00:00Z", 48.85, 2.35, "placidus", PLANETS),
    "sixteen bodies": ("2000-01-01T12:00:00Z", 40.71, -74.0, "placidus", SIXTEEN),
    "gauquelin sectors": ("1962-02-04T12:00:00Z", 45.0, 5.0, "gauquelin", SIXTEEN),
    "sydney": ("1985-03-21T02:00:00Z", -33.87, 151.21, "placidus", PLANETS),
}


def _dense(name: str, aspects=None):
    moment, lat, lon, system, bodies = DENSE[name]
    extra = {"aspect_types": aspects} if aspects else {}
    return cast_chart(
        Moment.from_iso(moment),
        Observer(lat, lon),
        ChartSettings(bodies=bodies, system=parse_house_system(system), **extra),
    )


@cache
def _font(size: float):
    from PIL import (
        ImageFont,  # a test dependency: the text's width measured by the font itself
    )

    return ImageFont.truetype(str(FONT_FILE), size)


def _glyph_sizes() -> dict[str, tuple[float, float]]:
    # The outlines' own ink boxes (width, height in a 1000-unit em), as the font gives them.
    boxes = json.loads((FONT_FILE.parent / "glyph_outlines.json").read_text(encoding="utf-8"))
    return {f"#glyph-{name}": (glyph["width"] / 1000, glyph["height"] / 1000) for name, glyph in boxes.items()}


Box = tuple[float, float, float, float]  # left, top, right, bottom (px)


def _box(element: ET.Element) -> Box:
    """Return the ink box of a drawn <use> (its glyph's outline box, centred on the <use>) or of
    a <text> (its advance width by the font, digits' height; centred on x and y)."""
    if element.tag == f"{SVG}use":
        size = float(element.get("width"))
        cx, cy = float(element.get("x")) + size / 2, float(element.get("y")) + size / 2
        width, height = (size * f for f in _glyph_sizes()[element.get("href")])
    else:
        size = float(element.get("font-size"))
        cx, cy = float(element.get("x")), float(element.get("y"))
        width, height = _font(size).getlength(element.text), size * 0.72
    return cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _units(svg: ET.Element) -> dict[str, list[Box]]:
    """Return each body's drawn glyph and label boxes, by body (and ring on a bi-wheel)."""
    return {
        f"{g.get('data-ring', '')}{g.get('data-body')}": [_box(e) for e in g if e.tag in (f"{SVG}use", f"{SVG}text")]
        for g in svg.iter(f"{SVG}g")
        if g.get("class") == "point"
    }


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_minor_aspects_are_dashed_and_the_others_solid_in_every_theme(theme):
    chart = _dense("sydney", ALL_ASPECTS)
    drawn = [g for g in _drawn(chart, theme).iter(f"{SVG}g") if g.get("class") == "aspect"]
    assert {g.get("data-aspect") for g in drawn} - SOLID and {
        g.get("data-aspect") for g in drawn
    } & SOLID  # both kinds drawn
    for g in drawn:
        assert (g.find(f"{SVG}line").get("stroke-dasharray") is not None) == (g.get("data-aspect") not in SOLID), g.get(
            "data-aspect"
        )


@pytest.mark.parametrize("name", DENSE)
def test_each_position_reads_degree_then_minute_in_one_upright_label_with_the_r_to_its_right(name):
    chart = _dense(name)
    points = {g.get("data-body"): g for g in _drawn(chart).iter(f"{SVG}g") if g.get("class") == "point"}
    for position in chart.positions:
        minutes = math.floor(position.sign_degree * 60.0)  # truncated, as an ephemeris prints it
        texts = list(points[position.body].iter(f"{SVG}text"))
        assert [t.text for t in texts] == [f"{minutes // 60}°{minutes % 60:02d}′"] + (
            ["\u211e"] if position.retrograde else []
        )
        assert all(t.get("transform") is None for t in texts)  # upright: reads left to right anywhere
        if position.retrograde:
            label, r = _box(texts[0]), _box(texts[1])
            assert r[0] >= label[2] and abs((r[1] + r[3]) - (label[1] + label[3])) < 0.1  # beside it, on its line


@pytest.mark.parametrize("name", DENSE)
def test_no_bodys_glyph_or_label_overlaps_another_bodys(name):
    units = _units(_drawn(_dense(name)))
    for first, second in itertools.combinations(units, 2):
        assert not any(_overlap(a, b) for a in units[first] for b in units[second]), (first, second)


@pytest.mark.parametrize("name", DENSE)
def test_each_label_stands_inside_its_own_glyph_along_the_glyphs_drawn_angle(name):
    layout = wheel_layout(_dense(name))
    points = {g.get("data-body"): g for g in _drawn(_dense(name)).iter(f"{SVG}g") if g.get("class") == "point"}
    for point in layout.points:
        boxes = [_box(e) for e in points[point.body] if e.tag in (f"{SVG}use", f"{SVG}text")]
        glyph, label = (
            boxes[0],
            (
                min(b[0] for b in boxes[1:]),
                min(b[1] for b in boxes[1:]),
                max(b[2] for b in boxes[1:]),
                max(b[3] for b in boxes[1:]),
            ),
        )
        (gx, gy), (lx, ly) = [((b[0] + b[2]) / 2 - SIZE / 2, SIZE / 2 - (b[1] + b[3]) / 2) for b in (glyph, label)]
        # The label's centre on the ray from the wheel's centre through the glyph's (within 1 px),
        # nearer the centre than the glyph.
        assert abs(gx * ly - gy * lx) / math.hypot(gx, gy) < 1.0, point.body
        assert math.hypot(lx, ly) < math.hypot(gx, gy) and not _overlap(glyph, label), point.body


@pytest.mark.parametrize("name", list(DENSE) + ["polar fallback"])
def test_each_angle_label_stands_in_the_zodiac_band_clear_of_the_signs_and_its_line(name):
    chart = _dense(name) if name in DENSE else _chart(*CHARTS[5][1:])
    svg = _drawn(chart)
    band_in, band_out = SIZE / 2 * 0.98 * 0.82, SIZE / 2 * 0.98 * 0.97  # the zodiac band's edges (px)
    signs = [(_box(g.find(f"{SVG}use")), g) for g in svg.iter(f"{SVG}g") if g.get("class") == "sign"]
    boundaries = [
        _angle_of(line, "1")
        for line in next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "zodiac").findall(f"{SVG}line")
        if math.hypot(float(line.get("x2")) - SIZE / 2, float(line.get("y2")) - SIZE / 2) > band_out - 1
    ]
    assert len(boundaries) == 12
    for g in (g for g in svg.iter(f"{SVG}g") if g.get("class") == "angle"):
        box = _box(g.find(f"{SVG}text"))
        corners = [(x - SIZE / 2, SIZE / 2 - y) for x in (box[0], box[2]) for y in (box[1], box[3])]
        assert all(band_in < math.hypot(x, y) < band_out for x, y in corners), g.get("data-angle")
        assert not any(_overlap(box, sign_box) for sign_box, _ in signs), g.get("data-angle")
        spanned = sorted(math.degrees(math.atan2(y, x)) % 360.0 for x, y in corners)
        for line in boundaries + [_angle_of(g.find(f"{SVG}line"), "2")]:
            # A radial line crosses the box when its angle lies between the box's corners'.
            low, high = spanned[0], spanned[-1]
            inside = low < line < high if high - low < 180 else (line > high or line < low)
            assert not inside, (g.get("data-angle"), line)


def test_a_lone_body_on_a_cusp_is_drawn_off_the_cusp_line_on_its_own_houses_side():
    # The first of these births with a body within 2° of a cusp and no other body within 30°.
    found = 0
    for day in range(1, 29):
        chart = _chart(f"2003-02-{day:02d}T06:00:00Z", 48.85, 2.35, "placidus", None)
        ascendant = chart.houses.ascendant_deg
        svg = _drawn(chart)
        points = {g.get("data-body"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "point"}
        for position in chart.positions:
            alone = all(
                abs((p.longitude - position.longitude + 180) % 360 - 180) > 30
                for p in chart.positions
                if p is not position
            )
            cusp = next(
                (c for c in chart.houses.cusps_deg if abs((position.longitude - c + 180) % 360 - 180) < 2.0), None
            )
            # A unit stays in its sign: one whose sign ends within a glyph's width of the cusp
            # has no room clear of the line (the line is then cut across it).
            if not alone or cusp is None or not 8.0 < position.sign_degree < 22.0:
                continue
            found += 1
            cusp_at, true_at = _screen_angle(cusp, ascendant), _screen_angle(position.longitude, ascendant)
            for element in points[position.body]:
                if element.tag in (f"{SVG}use", f"{SVG}text"):
                    box = _box(element)
                    sides = {
                        math.copysign(
                            1, (math.degrees(math.atan2(SIZE / 2 - y, x - SIZE / 2)) - cusp_at + 180) % 360 - 180
                        )
                        for x in (box[0], box[2])
                        for y in (box[1], box[3])
                    }
                    assert sides == {math.copysign(1, (true_at - cusp_at + 180) % 360 - 180)}, (day, position.body)
    assert found >= 2
