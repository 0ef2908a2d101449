"""The chart wheel (services/ephemeris/wheel): the picture is the data.

Each chart is cast by the kernel, drawn, and the SVG parsed back as a browser would read it:
every body's ``data-longitude`` is the chart's longitude, and the mark drawn for it stands at
the screen angle the wheel's convention gives that longitude (the Ascendant at 9 o'clock, the
zodiac counterclockwise), computed here from the chart's own numbers, not from the layout.
Tolerance: coordinates are written to 0.01 px, which on the zodiac's inner edge of an 800 px
wheel (radius about 320 px) is 0.002°; 0.01° is allowed.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import GLYPH_GAP_DEG, spread, wheel_layout
from services.ephemeris.wheel.themes import THEMES
from kernel.ayanamshas import parse_ayanamsha
from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment

SVG = "{http://www.w3.org/2000/svg}"
BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node", "chiron", "ceres")
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
    return cast_chart(Moment.from_iso(moment), Observer(lat, lon), ChartSettings(bodies=BODIES, system=parse_house_system(system), flags=flags))


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
    points = {g.get("data-body"): g for g in _drawn(chart).iter(f"{SVG}g") if g.get("class") == "point"}
    assert list(points) == [p.body for p in chart.positions]
    for position in chart.positions:
        drawn = points[position.body]
        assert float(drawn.get("data-longitude")) == pytest.approx(position.longitude, abs=1e-6)
        assert int(drawn.get("data-house")) == position.house
        assert drawn.get("data-retrograde") == str(position.retrograde).lower()
        mark = drawn.find(f"{SVG}line")
        assert _close(_angle_of(mark, "2"), _screen_angle(position.longitude, chart.houses.ascendant_deg)), position.body


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
    assert _close(_angle_of(angles["mc"].find(f"{SVG}line"), "2"), _screen_angle(chart.houses.midheaven_deg, chart.houses.ascendant_deg))


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


def test_crowded_glyphs_are_spread_apart_no_more_than_needed():
    crowded = [10.0, 11.0, 12.5, 200.0, 359.0]
    shown = spread(crowded)
    ordered = sorted(shown)
    gaps = [(ordered[(i + 1) % len(ordered)] - ordered[i]) % 360.0 for i in range(len(ordered))]
    assert min(gaps) >= GLYPH_GAP_DEG - 1e-6
    assert shown[3] == 200.0  # a glyph alone stays at its longitude
    assert spread([10.0, 100.0]) == [10.0, 100.0]
    assert max(abs((s - c + 180.0) % 360.0 - 180.0) for s, c in zip(shown, crowded)) < 2 * GLYPH_GAP_DEG


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
    assert description.count(" in the ") == len(chart.positions) and "Ascendant in" in description


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
        assert to_label == pytest.approx(to_next / 2, abs=1e-9), cusp.house


def _luminance(colour: str) -> float:
    """WCAG 2.2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
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
