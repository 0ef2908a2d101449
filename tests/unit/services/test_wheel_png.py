"""The chart wheel as a PNG (shared/pictures/png.py): proof by pixels.

The PNG is the SVG drawn by resvg, so what is proven here is that the pixels carry the
picture: it is never blank, each theme's colours are in it, every body's glyph is inked where
the layout puts it, Chromium draws the same SVG the same way (every kind of picture: a natal
wheel, the bi-wheels, a composite, the aspect grid aside and below, a wheel in Russian), the
text does not depend on the machine's fonts, and the golden images (reviewed by eye once) are
drawn again pixel for pixel. The pictures are tests/golden_wheels.py's: London by day, Sydney,
and 70°N with the Porphyrius fallback, the transits and the synastry around London's chart,
London's and Sydney's composite, London's wheel with its grid and in Russian, each drawn as
/v1/chart-wheel draws it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import svg2png_py

from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.layout import wheel_layout
from shared.pictures.png import render_png
from shared.pictures.themes import THEMES
from tests.golden_pictures import (
    CHANNEL_TOLERANCE,
    MAX_DIFFERING_SHARE,
    MAX_SHIFTED_SHARE,
    assert_drawn_as_golden,
    chromium_pixels,
    differing_share,
    differing_share_within_a_pixel,
    pixels,
)
from tests.golden_wheels import CHARTS, FAMILY, SIZE, SIZES, cast, draw, draw_png, wheel_request

pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")

#: A pixel is a glyph's ink when a channel differs from the background by more than
#: INK_CONTRAST (of 255): more than a faint cusp line's own colour does (71 in the light
#: theme), so a cusp crossing a glyph's place is not taken for it, and less than a stroke
#: covering half a pixel does (about 110), so the thin strokes of a small wheel count.
INK_CONTRAST = 100
#: The share of the pixels near a glyph's centre that must be ink. Measured on the three
#: charts at 800 and 500 px: at least 7.4% with the glyphs (the Sun's ring and dot, at 500 px),
#: none without them (the glyphs now keep off the angles' lines; a line crossing the place
#: made 4.9% before).
INK_SHARE = 0.05


def _svg(chart: str, theme: str, size: int = 800) -> str:
    request = wheel_request(chart, theme, format="svg", size=size)
    return draw_svg(wheel_layout(cast(request)), THEMES[theme], size=size, title="Natal chart")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def _count_of(image: np.ndarray, hex_colour: str) -> int:
    """Return how many pixels of ``image`` (RGBA) are exactly ``hex_colour``, opaque."""
    return int(np.all(image == (*_rgb(hex_colour), 255), axis=2).sum())


@pytest.mark.parametrize("theme", THEMES)
def test_a_png_is_never_blank(theme):
    image = pixels(draw_png("london", theme))
    # A blank picture has one colour; the antialiased edges of any drawn line make dozens.
    assert len(np.unique(image.reshape(-1, 4), axis=0)) > 50


@pytest.mark.parametrize("theme", THEMES)
def test_each_themes_background_ring_and_glyph_colours_are_in_its_png(theme):
    colours = THEMES[theme]
    image = pixels(draw_png("london", theme))
    expected = {
        "background": colours.background,
        "zodiac ring": colours.band,
        "lines": colours.line,
        "body glyphs and text": colours.text,
        **{f"{element} sign glyphs": getattr(colours, element) for element in ("fire", "earth", "air", "water")},
    }
    # A pixel wholly inside a shape is exactly its colour; 20 such pixels are a visible patch.
    missing = {what: colour for what, colour in expected.items() if _count_of(image, colour) < 20}
    assert not missing


def _uninked(image: np.ndarray, layout, size: int) -> list[str]:
    """Return the bodies of ``layout`` at whose glyph position the light-theme ``image`` of
    ``size`` pixels has too little ink: fewer than INK_SHARE of the pixels within a third of
    the glyph's size of its centre (the layout's glyph radius and size, scaled to the
    picture) differ from the background by more than INK_CONTRAST."""
    background = np.array(_rgb(THEMES["light"].background))
    half = size / 2
    radius = half * 0.98
    uninked = []
    for point in layout.points:
        reach = round(radius * point.glyph_size / 3)
        theta = math.radians(point.glyph_deg)
        x = round(half + radius * point.glyph_radius * math.cos(theta))
        y = round(half - radius * point.glyph_radius * math.sin(theta))
        patch = image[y - reach : y + reach + 1, x - reach : x + reach + 1, :3].astype(int)
        if (np.abs(patch - background).max(axis=2) > INK_CONTRAST).mean() < INK_SHARE:
            uninked.append(point.body)
    return uninked


@pytest.mark.parametrize("size", [800, 500])
@pytest.mark.parametrize("chart", CHARTS)
def test_every_bodys_glyph_is_inked_where_the_layout_puts_it(chart, size):
    layout = wheel_layout(cast(wheel_request(chart, "light", size=size)))
    image = pixels(draw_png(chart, "light", size=size))
    # The wheel's square is the picture's last ``size`` rows, under its header.
    assert _uninked(image[image.shape[0] - size :], layout, size) == []


@pytest.mark.parametrize("size", [800, 500])
def test_the_ink_check_finds_nothing_on_a_wheel_drawn_without_its_bodies(size):
    """The check above can fail: the same wheel with its bodies' group cut out of the SVG has
    no ink at any body's glyph position."""
    layout = wheel_layout(cast(wheel_request("london", "light", size=size)))
    svg = _svg("london", "light", size)
    bare = re.sub(r'<g class="points">.*?\n</g>\n', "", svg, flags=re.S)
    assert bare != svg
    assert _uninked(pixels(render_png(bare, size)), layout, size) == [point.body for point in layout.points]


#: The pictures Chromium draws beside resvg, one of each kind of picture the service draws: a
#: natal wheel, a transit bi-wheel (and a crowded one at 400 px) and a synastry bi-wheel, a
#: composite, the aspect grid aside and
#: below, a wheel in Russian (Cyrillic labels), and a wheel with the points beside the bodies
#: (the south nodes, the lots' ⊗ and bold marks, the Vertex's Vx).
CHROMIUM_PICTURES = [
    "london",
    "transit",
    "crowded",
    "synastry",
    "composite",
    "grid-aside",
    "grid-below",
    "russian",
    "points",
]


def _drawn_by_both(page, picture: str, theme: str) -> tuple[np.ndarray, np.ndarray]:
    """Return Chromium's and resvg's pictures of the SVG /v1/chart-wheel answers for
    ``picture`` in ``theme``, resvg's being the PNG it answers for the same request."""
    resvg = pixels(draw(picture, theme).png)
    height, width = resvg.shape[:2]
    return chromium_pixels(page, draw(picture, theme, format="svg").svg, width, height), resvg


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("picture", CHROMIUM_PICTURES)
def test_chromium_and_resvg_draw_the_same_wheel(chromium_page, picture, theme):
    """MAX_DIFFERING_SHARE is of a picture at SIZE (800 px): the edges and letters where the
    two rasterisers differ are lines, their pixels growing with the size and the picture's
    with its square, so their share is SIZE / size times as large at a smaller size (the
    crowded bi-wheel at 400 px: measured 0.92% in light, 1.25% in print, its header's and
    labels' letters, within 1.8%)."""
    bound = MAX_DIFFERING_SHARE * SIZE / SIZES.get(picture, SIZE)
    share = differing_share(*_drawn_by_both(chromium_page, picture, theme))
    assert share <= bound, f"{share:.4%} of the pixels differ by more than {CHANNEL_TOLERANCE}"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("picture", CHROMIUM_PICTURES)
def test_chromium_and_resvg_draw_every_stroke_and_letter_within_a_pixel(chromium_page, picture, theme):
    """The text is about 0.4% of a wheel's pixels, so the test above would pass a PNG without
    it; here each pixel is matched with the nearest colour within one pixel in the other
    picture (a sub-pixel shift of an edge is not a difference, a missing letter is)."""
    share = differing_share_within_a_pixel(*_drawn_by_both(chromium_page, picture, theme))
    assert share <= MAX_SHIFTED_SHARE, (
        f"{share:.4%} of the pixels differ by more than {CHANNEL_TOLERANCE} within a pixel"
    )


def test_the_comparison_with_chromium_sees_a_wheel_drawn_without_its_text(chromium_page):
    """The comparison within a pixel can fail: resvg given no font at all draws no text, and
    that differs from Chromium's picture beyond the limit."""
    svg = _svg("london", "light")
    textless = svg2png_py.svg_to_png(svg, svg2png_py.FontDatabase())
    assert differing_share_within_a_pixel(chromium_pixels(chromium_page, svg), pixels(textless)) > MAX_SHIFTED_SHARE


SYSTEM_SERIF = Path("/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf")


@pytest.mark.skipif(
    not SYSTEM_SERIF.exists(), reason="needs a system font the PNG does not bundle (fonts-noto-core's Noto Serif)"
)
def test_the_pngs_text_is_drawn_with_the_bundled_font_never_the_systems():
    def drawn(family: str) -> np.ndarray:
        return pixels(
            render_png(
                '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" '
                f'fill="#fff"/><text x="10" y="100" font-family="{family}" font-size="30">15° 42′ R</text></svg>',
                200,
            )
        )

    # Noto Serif is installed on this machine but not bundled: it is passed over, and the text
    # is drawn in the bundled Noto Sans named after it.
    assert np.array_equal(drawn("Noto Serif, Noto Sans"), drawn("Noto Sans"))
    assert (drawn("Noto Sans")[..., :3] < 128).any()  # the text is drawn


@pytest.mark.parametrize("picture", FAMILY.pictures)
def test_the_golden_wheels_are_drawn_again_pixel_for_pixel(picture):
    """The golden images under tests/golden/wheel/ were looked at, by eye, once, when they were
    written (``python -m tests.golden_wheels --write``); this only says the wheel is still
    drawn exactly as it was then. Pixels, not bytes, are compared, with no tolerance: resvg of
    one version draws the same SVG with the same fonts to the same pixels on any machine
    (nothing in its antialiasing varies between runs), while the PNG's bytes also depend on its
    encoder's compression, which is not the picture. A change of the drawing, the fonts or the
    resvg version fails here: write the images again and look at each before committing."""
    assert_drawn_as_golden(FAMILY, picture)
