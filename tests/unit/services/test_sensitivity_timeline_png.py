"""The sensitivity timeline as PNG (shared/pictures/png.py): the golden images under
tests/golden/sensitivity/ (reviewed by eye once, tests/golden_sensitivity.py) drawn again pixel
for pixel, each theme's colours in the pixels, and Chromium drawing the same SVG as resvg within
the wheel's tolerances (tests/golden_pictures.py states them, measured on the wheels)."""

from __future__ import annotations

import numpy as np
import pytest
import svg2png_py

from shared.pictures.themes import THEMES
from tests.golden_pictures import (
    MAX_SHIFTED_SHARE,
    assert_chromium_draws_as_resvg,
    assert_drawn_as_golden,
    chromium_pixels,
    differing_share_within_a_pixel,
    pixels,
)
from tests.golden_sensitivity import FAMILY, PICTURES, draw_document, draw_png

pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")


@pytest.mark.parametrize("picture", FAMILY.pictures)
def test_the_golden_timelines_are_drawn_again_pixel_for_pixel(picture):
    """As the wheel's goldens: pixels, not bytes, with no tolerance, since resvg of one version
    draws the same SVG with the bundled fonts to the same pixels on any machine. A change of the
    drawing fails here: write the images again (``python -m tests.golden_sensitivity --write``)
    and look at each before committing."""
    assert_drawn_as_golden(FAMILY, picture)


@pytest.mark.parametrize("picture", list(PICTURES))
def test_a_timelines_png_is_its_documents_size_with_its_themes_background_text_and_birth_line(picture):
    _svg, width, height = draw_document(picture)
    drawn = pixels(draw_png(picture))
    assert drawn.shape[:2] == (height, width) and width == int(PICTURES[picture].get("size", "1200"))
    theme = THEMES[PICTURES[picture].get("theme", "light")]
    colours = {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (theme.background, theme.text, theme.hard)}
    found = {tuple(int(v) for v in row) for row in np.unique(drawn[..., :3].reshape(-1, 3), axis=0)}
    assert colours <= found


@pytest.mark.parametrize("picture", list(PICTURES))
def test_chromium_and_resvg_draw_the_same_timeline(chromium_page, picture):
    """Measured over the four golden pictures: 0.29-0.72% of the pixels differ by more than 48
    (the most in high_contrast and print, black on white), 0.08-0.21% within a pixel; the
    wheel's bounds are 0.9% and 0.3%."""
    assert_chromium_draws_as_resvg(chromium_page, *draw_document(picture), draw_png(picture))


def test_the_comparison_with_chromium_sees_a_timeline_drawn_without_its_text(chromium_page):
    """The comparison can fail: resvg given no font draws no text, and that differs from
    Chromium's picture beyond the limit."""
    svg, width, height = draw_document("paris-2h-light")
    textless = svg2png_py.svg_to_png(svg, svg2png_py.FontDatabase())
    chromium = chromium_pixels(chromium_page, svg, width, height)
    assert differing_share_within_a_pixel(chromium, pixels(textless)) > MAX_SHIFTED_SHARE
