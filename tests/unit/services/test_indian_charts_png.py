"""The North and South Indian charts as PNG (shared/pictures/png.py): the golden images under
tests/golden/vedic/ (reviewed by eye once, tests/golden_vedic.py) drawn again pixel for pixel,
each theme's colours in the pixels, and Chromium drawing the same SVG as resvg within the
wheel's tolerances (tests/golden_pictures.py states them, measured on the wheels)."""

from __future__ import annotations

import numpy as np
import pytest

from shared.pictures.themes import THEMES
from tests.golden_pictures import assert_chromium_draws_as_resvg, assert_drawn_as_golden, pixels
from tests.golden_vedic import FAMILY, PICTURES, draw_document, draw_png

pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")


@pytest.mark.parametrize("picture", FAMILY.pictures)
def test_the_golden_indian_charts_are_drawn_again_pixel_for_pixel(picture):
    """As the wheel's goldens (tests/unit/services/test_wheel_png.py): pixels, not bytes, with
    no tolerance, since resvg of one version draws the same SVG with the bundled fonts to the
    same pixels on any machine. A change of the drawing fails here: write the images again
    (``python -m tests.golden_vedic --write``) and look at each before committing."""
    assert_drawn_as_golden(FAMILY, picture)


@pytest.mark.parametrize("picture", list(PICTURES))
def test_a_charts_png_has_its_themes_background_lines_and_text(picture):
    theme = THEMES[PICTURES[picture].get("theme", "light")]
    drawn = pixels(draw_png(picture))[..., :3].reshape(-1, 3)
    colours = {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (theme.background, theme.line, theme.text)}
    found = {tuple(int(v) for v in row) for row in np.unique(drawn, axis=0)}
    assert colours <= found


@pytest.mark.parametrize("picture", FAMILY.pictures)
def test_chromium_and_resvg_draw_the_same_indian_charts(chromium_page, picture):
    """Measured over the six golden pictures: 0.21-0.37% of the pixels differ by more than 48,
    0.055-0.093% within a pixel (the most in the crowded ones, the most text)."""
    assert_chromium_draws_as_resvg(chromium_page, *draw_document(picture), draw_png(picture))
