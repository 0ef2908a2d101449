"""The North and South Indian charts as PNG (shared/pictures/png.py): the golden images under
tests/golden/vedic/ (reviewed by eye once, tests/golden_vedic.py) drawn again pixel for pixel,
each theme's colours in the pixels, and Chromium drawing the same SVG as resvg within the
wheel's tolerances (tests/unit/services/test_wheel_png.py states and measured them)."""

from __future__ import annotations

import numpy as np
import pytest

from shared.pictures.themes import THEMES
from tests.golden_vedic import PICTURES, draw_document, draw_png, golden_path, golden_pictures
from tests.golden_wheels import pixels
from tests.unit.services.test_wheel_png import (
    CHANNEL_TOLERANCE,
    MAX_DIFFERING_SHARE,
    MAX_SHIFTED_SHARE,
    _chromium_pixels,
    _differing_share,
    _differing_share_within_a_pixel,
    chromium_page,  # noqa: F401 (the fixture the Chromium tests take)
)

pytest.importorskip("PIL", reason="Pillow decodes the PNGs in these tests: run make setup")


@pytest.mark.parametrize("picture", golden_pictures())
def test_the_golden_indian_charts_are_drawn_again_pixel_for_pixel(picture):
    """As the wheel's goldens (tests/unit/services/test_wheel_png.py): pixels, not bytes, with
    no tolerance, since resvg of one version draws the same SVG with the bundled fonts to the
    same pixels on any machine. A change of the drawing fails here: write the images again
    (``python -m tests.golden_vedic --write``) and look at each before committing."""
    drawn, golden = pixels(draw_png(picture)), pixels(golden_path(picture))
    assert drawn.shape == golden.shape
    assert np.array_equal(drawn, golden), f"{int(np.any(drawn != golden, axis=2).sum())} pixels changed"


@pytest.mark.parametrize("picture", list(PICTURES))
def test_a_charts_png_has_its_themes_background_lines_and_text(picture):
    theme = THEMES[PICTURES[picture].get("theme", "light")]
    drawn = pixels(draw_png(picture))[..., :3].reshape(-1, 3)
    colours = {tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (theme.background, theme.line, theme.text)}
    found = {tuple(int(v) for v in row) for row in np.unique(drawn, axis=0)}
    assert colours <= found


@pytest.mark.parametrize("picture", golden_pictures())
def test_chromium_and_resvg_draw_the_same_indian_charts(chromium_page, picture):  # noqa: F811
    """Measured over the six golden pictures: 0.21-0.37% of the pixels differ by more than 48,
    0.055-0.093% within a pixel (the most in the crowded ones, the most text)."""
    svg, width, height = draw_document(picture)
    chromium, resvg = _chromium_pixels(chromium_page, svg, width, height), pixels(draw_png(picture))
    share = _differing_share(chromium, resvg)
    assert share <= MAX_DIFFERING_SHARE, f"{share:.4%} of the pixels differ by more than {CHANNEL_TOLERANCE}"
    shifted = _differing_share_within_a_pixel(chromium, resvg)
    assert shifted <= MAX_SHIFTED_SHARE, f"{shifted:.4%} differ by more than {CHANNEL_TOLERANCE} within a pixel"
