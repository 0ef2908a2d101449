"""The aspect grid of a chart wheel (``draw_svg(..., grid=...)``): the grid is the chart's aspects.

Each chart is cast by the kernel, drawn with its grid beside the wheel (aside) or under it
(below), and the SVG parsed back: the grid's cells are exactly the kernel's aspect records
(a natal chart's aspects, a bi-wheel's cross aspects from kernel.synastry.inter_chart), each
showing its aspect's glyph and its orb rounded to the minute, in its aspect line's colour.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.synastry import inter_chart
from kernel.timescale import Moment
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import biwheel_layout, wheel_layout
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import THEMES

SVG = "{http://www.w3.org/2000/svg}"
SIZE = 800
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
#: Every aspect the kernel knows, so that each kind of cell (and each glyph) is drawn.
ASPECTS = (
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
    "septile",
    "bi_septile",
    "tri_septile",
    "quindecile",
)
PLACES = ("aside", "below")


def _settings():
    return ChartSettings(bodies=BODIES, system=parse_house_system("placidus"), aspect_types=ASPECTS)


def _natal():
    return cast_chart(Moment.from_iso("1990-06-15T14:30:00Z"), Observer(51.5, -0.13), _settings())


def _two_charts():
    inner = _natal()
    outer = cast_chart(Moment.from_iso("2026-03-01T12:00:00Z"), Observer(-33.87, 151.21), _settings())
    return inner, outer, inter_chart(inner, outer, inner.settings).aspects


def _natal_svg(grid: str, theme: str = "light") -> ET.Element:
    return ET.fromstring(draw_svg(wheel_layout(_natal()), THEMES[theme], size=SIZE, title="Natal chart", grid=grid))


def _biwheel_svg(grid: str) -> ET.Element:
    inner, outer, cross = _two_charts()
    return ET.fromstring(
        draw_svg(
            biwheel_layout(inner, outer, cross),
            THEMES["light"],
            size=SIZE,
            title="Transits",
            rings=("a", "b"),
            grid=grid,
        )
    )


def _groups(svg: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == kind]


def _in_minutes(orb_deg: float) -> str:
    """An orb as the grid must show it: degrees and minutes, rounded to the nearest minute."""
    minutes = round(orb_deg * 60)
    return f"{minutes // 60}°{minutes % 60:02d}′"


def _centre(element: ET.Element) -> tuple[float, float]:
    """Return the centre (px) of a <use> (its box) or of a <text> (its anchor, centred)."""
    if element.tag == f"{SVG}use":
        return float(element.get("x")) + float(element.get("width")) / 2, float(element.get("y")) + float(
            element.get("height")
        ) / 2
    return float(element.get("x")), float(element.get("y"))


@pytest.mark.parametrize("grid", PLACES)
def test_a_natal_grid_has_one_cell_per_aspect_of_the_chart_and_no_other(grid):
    chart = _natal()
    cells = _groups(_natal_svg(grid), "grid-cell")
    assert [(g.get("data-body-a"), g.get("data-aspect"), g.get("data-body-b")) for g in cells] == [
        (a.body_a, a.aspect, a.body_b) for a in chart.aspects
    ]
    assert len({a.aspect for a in chart.aspects}) >= 5  # the case draws many kinds of cell


@pytest.mark.parametrize("grid", PLACES)
def test_a_bi_wheels_grid_has_one_cell_per_cross_aspect_and_no_other(grid):
    _inner, _outer, cross = _two_charts()
    cells = _groups(_biwheel_svg(grid), "grid-cell")
    assert cross and [(g.get("data-body-a"), g.get("data-aspect"), g.get("data-body-b")) for g in cells] == [
        (a.body_a, a.aspect, a.body_b) for a in cross
    ]


@pytest.mark.parametrize("grid", PLACES)
def test_each_cell_shows_its_aspects_glyph_and_orb_rounded_to_the_minute(grid):
    _inner, _outer, cross = _two_charts()
    for svg, aspects in ((_natal_svg(grid), _natal().aspects), (_biwheel_svg(grid), cross)):
        for g, aspect in zip(_groups(svg, "grid-cell"), aspects, strict=True):
            assert g.find(f"{SVG}use").get("href") == f"#glyph-{aspect.aspect}"
            assert [t.text for t in g.iter(f"{SVG}text")] == [_in_minutes(aspect.orb_deg)], (
                aspect.body_a,
                aspect.body_b,
            )


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_each_cell_is_coloured_as_its_aspect_line(theme):
    svg = _natal_svg("aside", theme)
    line_colour = {
        (g.get("data-body-a"), g.get("data-body-b")): g.find(f"{SVG}line").get("stroke") for g in _groups(svg, "aspect")
    }
    for g in _groups(svg, "grid-cell"):
        colour = line_colour[g.get("data-body-a"), g.get("data-body-b")]
        assert g.find(f"{SVG}use").get("fill") == colour and g.find(f"{SVG}text").get("fill") == colour


def test_every_aspect_the_kernel_knows_has_an_outline_glyph_in_the_picture():
    svg = _natal_svg("aside")
    symbols = {s.get("id") for s in svg.iter(f"{SVG}symbol")}
    assert {f"glyph-{g.get('data-aspect')}" for g in _groups(svg, "grid-cell")} <= symbols
    outlines = glyph_outlines()
    assert all(outlines[name].startswith("M") and len(outlines[name]) > 30 for name in ASPECTS)


def _middle_y(cell: ET.Element) -> float:
    """Return the height (px) halfway between a cell's glyph and its orb: the cell's middle."""
    return (_centre(cell.find(f"{SVG}use"))[1] + _centre(cell.find(f"{SVG}text"))[1]) / 2


def _nearest(heads: dict[str, tuple[float, float]], y: float) -> str:
    return min(heads, key=lambda body: abs(heads[body][1] - y))


def test_a_natal_grid_is_a_triangle_with_each_bodys_glyph_on_the_diagonal_and_each_cell_below_it():
    svg = _natal_svg("aside")
    diagonal = {g.get("data-body"): _centre(g[0]) for g in _groups(svg, "grid-body")}
    assert list(diagonal) == list(BODIES)
    xs, ys = [x for x, _ in diagonal.values()], [y for _, y in diagonal.values()]
    assert xs == sorted(set(xs)) and ys == sorted(set(ys))  # down and to the right, one per row and column
    order = {body: index for index, body in enumerate(BODIES)}
    for g in _groups(svg, "grid-cell"):
        earlier, later = sorted((g.get("data-body-a"), g.get("data-body-b")), key=order.get)
        # In the earlier body's column, the later body's row: under the diagonal.
        assert _centre(g.find(f"{SVG}use"))[0] == pytest.approx(diagonal[earlier][0], abs=0.02)
        assert _nearest(diagonal, _middle_y(g)) == later


def test_a_bi_wheels_grid_has_the_outer_bodies_along_the_top_and_the_inner_ones_down_the_left():
    inner, outer, _cross = _two_charts()
    svg = _biwheel_svg("aside")
    heads = _groups(svg, "grid-body")
    top = {g.get("data-body"): _centre(g[0]) for g in heads if g.get("data-ring") == "outer"}
    left = {g.get("data-body"): _centre(g[0]) for g in heads if g.get("data-ring") == "inner"}
    assert list(top) == [p.body for p in outer.positions] and list(left) == [p.body for p in inner.positions]
    for g in _groups(svg, "grid-cell"):
        assert _centre(g.find(f"{SVG}use"))[0] == pytest.approx(top[g.get("data-body-b")][0], abs=0.02)
        assert _nearest(left, _middle_y(g)) == g.get("data-body-a")


@pytest.mark.parametrize(
    "grid, width, height", [("none", SIZE, SIZE), ("aside", SIZE * 7 // 4, SIZE), ("below", SIZE, SIZE * 7 // 4)]
)
def test_the_grid_widens_or_heightens_the_picture_by_three_quarters_of_size_and_stands_outside_the_wheel(
    grid, width, height
):
    svg = _natal_svg(grid)
    assert (int(svg.get("width")), int(svg.get("height")), svg.get("viewBox")) == (
        width,
        height,
        f"0 0 {width} {height}",
    )
    background = svg.find(f"{SVG}rect")
    assert (int(background.get("width")), int(background.get("height"))) == (width, height)
    for g in _groups(svg, "grid-cell") + _groups(svg, "grid-body"):
        for element in g:
            x, y = _centre(element)
            assert (x > SIZE if grid == "aside" else y > SIZE) and x < width and y < height


@pytest.mark.parametrize("grid", PLACES)
def test_the_wheel_is_drawn_the_same_with_or_without_its_grid(grid):
    alone = draw_svg(wheel_layout(_natal()), THEMES["light"], size=SIZE, title="Natal chart")
    with_grid = draw_svg(wheel_layout(_natal()), THEMES["light"], size=SIZE, title="Natal chart", grid=grid)
    start = '<g class="zodiac">'
    assert (
        with_grid[with_grid.index(start) : with_grid.index('<g class="aspect-grid">')]
        == alone[alone.index(start) : alone.index("</svg>")]
    )


def test_every_glyph_outline_fits_inside_its_symbols_box():
    # A <symbol viewBox="-500 -500 1000 1000"> clips what overflows it: every coordinate of
    # every outline (signs, bodies, aspects) must lie within ±500.
    for name, path in glyph_outlines().items():
        coordinates = [float(number) for number in re.findall(r"-?\d+(?:\.\d+)?", path)]
        assert max(abs(c) for c in coordinates) <= 500, name
