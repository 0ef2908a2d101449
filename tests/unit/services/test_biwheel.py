"""The bi-wheel (services/ephemeris/wheel: ``biwheel_layout``, ``draw_svg``): two charts in one
picture, and the picture is the data.

For 300 random pairs of charts (a birth, and a second moment at the same place as transits,
progressions and returns are cast, or at another place as synastry's chart B is), in eight
house systems (whole sign, equal and Gauquelin's sectors among them), tropical and three
sidereal zodiacs, at latitudes from 80° S to 80° N (the polar ones past the Arctic and
Antarctic circles, where quadrant systems fall back to Porphyrius), each chart is cast by the
kernel, drawn, and the SVG parsed back: every body of both rings carries the kernel's
longitude and its mark stands at the screen angle computed here from the chart's own numbers
(``180 + λ − Ascendant``, the Ascendant at 9 o'clock and the zodiac counterclockwise), the outer
ring outside the inner one, each ring's glyphs placed among themselves and labelled with the
degree, minute and R the kernel's position gives; every cusp and angle is the inner chart's;
and the aspects drawn are exactly the kernel's cross aspects (kernel.synastry.inter_chart),
none within a chart.

Tolerance: coordinates are written to 0.01 px; at the smallest radius a mark stands on (the
inner ring's edge, 0.6 of an 800 px wheel's radius, about 235 px) that is 0.003°; 0.01° is
allowed. Longitudes are written to 1e-6°.
"""

from __future__ import annotations

import itertools
import math
import random
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache

import pytest

from kernel.ayanamshas import parse_ayanamsha
from kernel.chart import Chart, ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import CalcFlags, Observer
from kernel.synastry import inter_chart
from kernel.timescale import Moment
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import biwheel_layout
from shared.pictures.themes import THEMES
from tests.unit.services.test_wheel import _overlap, _units

SVG = "{http://www.w3.org/2000/svg}"
SIZE = 800
ANGLE_TOLERANCE_DEG = 0.01
PAIRS = 300
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
    "true_node",
    "chiron",
)
SYSTEMS = ("placidus", "koch", "whole_sign", "equal", "gauquelin", "campanus", "regiomontanus", "porphyrius")
ZODIACS = (None, "lahiri", "fagan_bradley", "raman")
#: The aspects asked for (the majors and two minor ones, so hard, soft and minor lines are
#: all drawn), with their exact angles in degrees, as any textbook gives them.
ASPECT_ANGLES = {
    "conjunction": 0.0,
    "opposition": 180.0,
    "trine": 120.0,
    "square": 90.0,
    "sextile": 60.0,
    "quincunx": 150.0,
    "semi_square": 45.0,
}
ASPECTS = tuple(ASPECT_ANGLES)


@dataclass(frozen=True)
class Pair:
    """One bi-wheel case: its description (to name a failure), its two charts and the SVG."""

    case: str
    inner: Chart
    outer: Chart
    svg: ET.Element


def _moment(rng: random.Random) -> Moment:
    # 1900-2100: inside every body's ephemeris (Chiron's included).
    return Moment.from_jd_ut1(rng.uniform(2415020.5, 2488069.5))


def _latitude(rng: random.Random, index: int) -> float:
    # Every fifth chart is polar (beyond 66.6°, north or south); the others anywhere between.
    if index % 5 == 0:
        return rng.choice((-1.0, 1.0)) * rng.uniform(67.0, 80.0)
    return rng.uniform(-66.0, 66.0)


@cache
def pairs() -> tuple[Pair, ...]:
    """Return the PAIRS random bi-wheels, the same on every run (a fixed seed)."""
    rng = random.Random(37)
    cases = []
    for index in range(PAIRS):
        system, zodiac = SYSTEMS[index % len(SYSTEMS)], ZODIACS[(index // len(SYSTEMS)) % len(ZODIACS)]
        flags = CalcFlags(sidereal=parse_ayanamsha(zodiac)) if zodiac else CalcFlags()
        settings = ChartSettings(bodies=BODIES, system=parse_house_system(system), flags=flags, aspect_types=ASPECTS)
        place = Observer(_latitude(rng, index), rng.uniform(-180.0, 180.0))
        second_place = place if index % 2 == 0 else Observer(_latitude(rng, index + 1), rng.uniform(-180.0, 180.0))
        birth, second = _moment(rng), _moment(rng)
        inner, outer = cast_chart(birth, place, settings), cast_chart(second, second_place, settings)
        cross = inter_chart(inner, outer, settings).aspects
        svg = draw_svg(
            biwheel_layout(inner, outer, cross, size=SIZE),
            THEMES["light"],
            size=SIZE,
            title="Bi-wheel",
            rings=("inner chart", "outer chart"),
        )
        case = (
            f"#{index} {system} {zodiac or 'tropical'} lat {place.latitude_deg:.1f} jd {birth.jd_ut1:.4f} / "
            f"{second.jd_ut1:.4f}"
        )
        cases.append(Pair(case, inner, outer, ET.fromstring(svg)))
    return tuple(cases)


def _screen_angle(longitude: float, ascendant: float) -> float:
    return (180.0 + longitude - ascendant) % 360.0


def _polar(line: ET.Element, end: str) -> tuple[float, float]:
    """Return the screen angle (degrees) and the radius (px) of one end of a drawn line."""
    x, y = float(line.get(f"x{end}")) - SIZE / 2, -(float(line.get(f"y{end}")) - SIZE / 2)
    return math.degrees(math.atan2(y, x)) % 360.0, math.hypot(x, y)


def _close(a: float, b: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= ANGLE_TOLERANCE_DEG


def _groups(svg: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == kind]


def test_the_cases_span_the_house_systems_zodiacs_and_latitudes_asked_for():
    cases = pairs()
    assert {p.inner.houses.system for p in cases} >= {"whole_sign", "equal", "gauquelin", "porphyrius"}
    assert any(p.inner.settings.flags.sidereal for p in cases) and any(
        not p.inner.settings.flags.sidereal for p in cases
    )
    latitudes = [p.inner.metadata.latitude for p in cases]
    assert min(latitudes) < -66.6 and max(latitudes) > 66.6 and any(-66.6 < lat < 0 for lat in latitudes)


def test_every_body_of_both_rings_is_drawn_at_its_kernel_longitude():
    for pair in pairs():
        ascendant = pair.inner.houses.ascendant_deg
        points = _groups(pair.svg, "point")
        for ring, chart in (("inner", pair.inner), ("outer", pair.outer)):
            drawn = [g for g in points if g.get("data-ring") == ring and g.get("data-kind") == "body"]
            assert [g.get("data-body") for g in drawn] == [p.body for p in chart.positions], pair.case
            for g, position in zip(drawn, chart.positions):
                assert float(g.get("data-longitude")) == pytest.approx(position.longitude, abs=1e-6), (
                    pair.case,
                    ring,
                    position.body,
                )
                assert int(g.get("data-house")) == position.house, (pair.case, ring, position.body)
                angle, _radius = _polar(g.find(f"{SVG}line"), "2")
                assert _close(angle, _screen_angle(position.longitude, ascendant)), (
                    pair.case,
                    ring,
                    position.body,
                    angle,
                )


def test_the_outer_charts_marks_stand_outside_the_inner_charts():
    for pair in pairs():
        radii = {
            ring: {
                _polar(g.find(f"{SVG}line"), "1")[1] for g in _groups(pair.svg, "point") if g.get("data-ring") == ring
            }
            for ring in ("inner", "outer")
        }
        assert max(radii["inner"]) < min(radii["outer"]), pair.case


def test_every_cusp_and_angle_is_the_inner_charts():
    for pair in pairs():
        houses = pair.inner.houses
        cusps = _groups(pair.svg, "cusp")
        assert len(cusps) == len(houses.cusps_deg), pair.case  # 36 Gauquelin sectors, 12 otherwise
        for g, longitude in zip(cusps, houses.cusps_deg):
            assert float(g.get("data-longitude")) == pytest.approx(longitude, abs=1e-6), pair.case
            assert _close(_polar(g.find(f"{SVG}line"), "1")[0], _screen_angle(longitude, houses.ascendant_deg)), (
                pair.case
            )
        angles = {g.get("data-angle"): _polar(g.find(f"{SVG}line"), "2")[0] for g in _groups(pair.svg, "angle")}
        expected = {
            "asc": 180.0,
            "mc": _screen_angle(houses.midheaven_deg, houses.ascendant_deg),
            "dsc": 0.0,
            "ic": _screen_angle(houses.midheaven_deg + 180.0, houses.ascendant_deg),
        }
        assert all(_close(angles[name], expected[name]) for name in expected), (pair.case, angles, expected)


def test_only_the_cross_aspects_are_drawn_each_one_the_kernel_returns():
    drawn_any = 0
    for pair in pairs():
        ascendant = pair.inner.houses.ascendant_deg
        inner = {p.body: p.longitude for p in pair.inner.positions}
        outer = {p.body: p.longitude for p in pair.outer.positions}
        expected = [
            (a.body_a, a.aspect, a.body_b) for a in inter_chart(pair.inner, pair.outer, pair.inner.settings).aspects
        ]
        drawn = _groups(pair.svg, "aspect")
        assert [(g.get("data-body-a"), g.get("data-aspect"), g.get("data-body-b")) for g in drawn] == expected, (
            pair.case
        )
        for g in drawn:
            a, b = g.get("data-body-a"), g.get("data-body-b")
            line = g.find(f"{SVG}line")
            # One end at the inner body's longitude, the other at the outer body's ...
            assert _close(_polar(line, "1")[0], _screen_angle(inner[a], ascendant)), (pair.case, a, b)
            assert _close(_polar(line, "2")[0], _screen_angle(outer[b], ascendant)), (pair.case, a, b)
            # ... and the two longitudes are that aspect's angle apart, within the orb drawn.
            separation = abs((inner[a] - outer[b] + 180.0) % 360.0 - 180.0)
            assert abs(separation - ASPECT_ANGLES[g.get("data-aspect")]) == pytest.approx(
                float(g.get("data-orb")), abs=1e-4
            ), (pair.case, a, b)
        drawn_any += len(drawn)
    assert drawn_any > PAIRS  # the cases do draw aspects: the rule is not met vacuously


def test_the_description_reads_both_charts():
    pair = pairs()[1]
    description = pair.svg.find(f"{SVG}desc").text
    inner_text, outer_text = description.split(" Outer: outer chart: ")
    assert inner_text.startswith("Inner: inner chart: ") and "Ascendant in" in inner_text
    for chart, text in ((pair.inner, inner_text), (pair.outer, outer_text)):
        for position in chart.positions:
            assert (
                f"{position.body.replace('_', ' ').title()} in {int(position.sign_degree)}° {position.sign.title()}"
                in text
            )


def _glyph_angle(point: ET.Element) -> float:
    """Return the screen angle (degrees) of the centre of a point's glyph (its <use>)."""
    use = point.find(f"{SVG}use")
    x = float(use.get("x")) + float(use.get("width")) / 2 - SIZE / 2
    y = -(float(use.get("y")) + float(use.get("height")) / 2 - SIZE / 2)
    return math.degrees(math.atan2(y, x)) % 360.0


def test_each_body_of_both_rings_is_labelled_with_its_degree_and_minute_in_one_text_and_an_r_when_retrograde():
    """A crowded stretch's labels may drop their minutes, be left out but for the ℞, or be
    left out (the least sizes of a
    legible ring: test_wheel_geometry); a label drawn is the kernel's position, and at 800 px
    nearly every one is whole (measured: 7410 of 7800, 95%)."""
    whole = total = 0
    for pair in pairs():
        for ring, chart in (("inner", pair.inner), ("outer", pair.outer)):
            drawn = [
                g for g in _groups(pair.svg, "point") if g.get("data-ring") == ring and g.get("data-kind") == "body"
            ]
            assert len(drawn) == len(chart.positions)
            for g, position in zip(drawn, chart.positions):
                # The minute truncated, as an ephemeris prints it: 29°59.9′ is 29°59′.
                minutes = math.floor(position.sign_degree * 60.0)
                retrograde = ["\u211e"] if position.retrograde else []
                forms = (
                    [f"{minutes // 60}°{minutes % 60:02d}′", *retrograde],
                    [f"{minutes // 60}°", *retrograde],
                    retrograde,
                    [],
                )
                drawn_texts = [t.text for t in g.iter(f"{SVG}text")]
                assert drawn_texts in forms, (pair.case, ring, position.body)
                total += 1
                whole += drawn_texts == forms[0]
    assert whole >= 0.9 * total, (whole, total)


def test_no_bodys_glyph_or_label_overlaps_another_bodys_on_either_ring():
    for pair in pairs():
        units = _units(pair.svg)
        for first, second in itertools.combinations(units, 2):
            assert not any(_overlap(a, b) for a in units[first] for b in units[second]), (pair.case, first, second)
