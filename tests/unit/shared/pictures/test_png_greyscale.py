"""An opaque grey PNG rewritten as 8-bit greyscale (shared/pictures/png_greyscale.py and
png.py's render_png), rule by rule: the pixels decoded are resvg's, exactly; anything not
opaque grey is left as resvg wrote it."""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
import resvg_py

from shared.pictures.png import FONT_FAMILY, FONT_FILES, render_png, written_in_greys
from shared.pictures.png_greyscale import filtered, greyscale_png
from tests.golden_wheels import draw

Image = pytest.importorskip("PIL.Image", reason="Pillow decodes the PNGs in these tests: run make setup")


def _resvg(svg: str, size: int) -> bytes:
    """Return resvg's own PNG of ``svg``, as render_png asks for it."""
    return resvg_py.svg_to_bytes(
        svg_string=svg,
        width=size,
        height=size,
        skip_system_fonts=True,
        font_files=FONT_FILES,
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
    )


def _colour_type(png: bytes) -> int:
    """Return the colour type of a PNG's IHDR (0 greyscale, 6 RGBA)."""
    assert png[12:16] == b"IHDR"
    return struct.unpack(">B", png[25:26])[0]


def _rgba(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGBA"))


@pytest.mark.parametrize("size", [200, 800, 1333])
def test_a_print_wheel_is_greyscale_with_resvgs_pixels_exactly(size):
    svg = draw("london", "print", format="svg", size=size).svg
    png, theirs = render_png(svg, size), _resvg(svg, size)
    assert _colour_type(png) == 0 and _colour_type(theirs) == 6
    assert (_rgba(theirs)[:, :, 3] == 255).all()  # opaque: compositing on the background changes nothing
    assert np.array_equal(_rgba(png), _rgba(theirs))


def test_a_print_wheel_at_800_px_is_at_least_a_third_smaller():
    """Measured: 92.9 kB as resvg's RGBA, 57.5 kB as greyscale (38% smaller)."""
    svg = draw("london", "print", format="svg").svg
    assert len(render_png(svg, 800)) < 2 / 3 * len(_resvg(svg, 800))


@pytest.mark.parametrize("theme", ["light", "dark", "high_contrast"])
def test_a_wheel_in_colour_is_resvgs_png_itself(theme):
    svg = draw("london", theme, format="svg", size=300).svg
    assert not written_in_greys(svg)
    assert render_png(svg, 300) == _resvg(svg, 300)


def test_the_same_svg_gives_the_same_greyscale_bytes():
    svg = draw("sydney", "print", format="svg", size=400).svg
    assert render_png(svg, 400) == render_png(svg, 400)


def test_a_grey_picture_with_transparent_pixels_stays_rgba():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
        '<circle cx="20" cy="20" r="15" fill="#777777"/></svg>'
    )
    assert written_in_greys(svg)
    assert greyscale_png(_resvg(svg, 40)) is None
    assert render_png(svg, 40) == _resvg(svg, 40)


def test_a_colour_written_by_name_is_found_in_the_pixels():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#ffffff"/>'
        '<circle cx="20" cy="20" r="15" fill="red"/></svg>'
    )
    assert written_in_greys(svg)  # the SVG's #rrggbb colours say grey; the pixels do not
    assert render_png(svg, 40) == _resvg(svg, 40)


def test_an_opaque_grey_picture_of_any_grey_is_greyscale():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#202020"/>'
        '<circle cx="20" cy="20" r="15" fill="#D0D0D0" stroke="black"/></svg>'
    )
    png = render_png(svg, 40)
    assert _colour_type(png) == 0 and np.array_equal(_rgba(png), _rgba(_resvg(svg, 40)))


def _filtered_by_the_spec(x: np.ndarray, types: np.ndarray) -> np.ndarray:
    """PNG 1.2 section 6, byte by byte: Filt(x) = x - predictor(a, b, c) mod 256."""
    out = np.zeros_like(x)
    for row in range(x.shape[0]):
        for col in range(x.shape[1]):
            a = int(x[row, col - 1]) if col else 0
            b = int(x[row - 1, col]) if row else 0
            c = int(x[row - 1, col - 1]) if row and col else 0
            p = a + b - c
            paeth = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
            predictor = [0, a, b, (a + b) // 2, paeth][types[row]]
            out[row, col] = (int(x[row, col]) - predictor) % 256
    return out


def test_the_filters_are_png_1_2s():
    rng = np.random.default_rng(51)
    x = rng.integers(0, 256, (25, 9), dtype=np.uint8)
    x[10:15] = 255  # runs of one value, as an opaque alpha channel
    types = np.tile(np.arange(5), 5)
    assert np.array_equal(filtered(x, types), _filtered_by_the_spec(x, types))
