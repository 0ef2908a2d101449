"""A picture's PNG (shared/pictures/png.py's render_png and png_encoding.py), rule by rule: an
opaque picture is written as greyscale or RGB, never RGBA, and decodes to exactly the pixels
of resvg's own RGBA PNG; anything not opaque is resvg's own PNG."""

from __future__ import annotations

import io
import struct

import numpy as np
import pytest
import svg2png_py

from shared.pictures.png import FONT_FILES, fonts, render_png
from shared.pictures.png_encoding import GREYSCALE, RGB, opaque_png
from tests.golden_pictures import sized
from tests.golden_wheels import draw

Image = pytest.importorskip("PIL.Image", reason="Pillow decodes the PNGs in these tests: run make setup")

RGBA = 6


def _resvg(svg: str) -> bytes:
    """Return resvg's own PNG of ``svg`` (8-bit RGBA, its encoder), drawn with the same fonts."""
    return svg2png_py.svg_to_png(svg, fonts(), options=svg2png_py.RenderOptions(font_family="Noto Sans"))


def _depth_and_colour_type(png: bytes) -> tuple[int, int]:
    """Return the bit depth and colour type of a PNG's IHDR."""
    assert png[12:16] == b"IHDR"
    return struct.unpack(">BB", png[24:26])


def _rgba(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGBA"))


def _wheel(theme: str, size: int = 300, picture: str = "london") -> tuple[str, int, int]:
    return sized(draw(picture, theme, format="svg", size=size).svg)


@pytest.mark.parametrize("size", [200, 800, 1333])
def test_a_print_wheel_is_8_bit_greyscale_with_resvgs_pixels_exactly(size):
    svg, width, height = _wheel("print", size)
    png, theirs = render_png(svg, width, height), _resvg(svg)
    assert _depth_and_colour_type(png) == (8, GREYSCALE) and _depth_and_colour_type(theirs) == (8, RGBA)
    assert np.array_equal(_rgba(png), _rgba(theirs))


@pytest.mark.parametrize("theme", ["light", "dark", "high_contrast"])
def test_a_wheel_in_colour_is_8_bit_rgb_with_resvgs_pixels_exactly(theme):
    svg, width, height = _wheel(theme)
    png, theirs = render_png(svg, width, height), _resvg(svg)
    assert _depth_and_colour_type(png) == (8, RGB)
    assert (_rgba(theirs)[:, :, 3] == 255).all()  # opaque: leaving the alpha out loses nothing
    assert np.array_equal(_rgba(png), _rgba(theirs))


def test_at_800_px_a_print_wheel_is_at_least_two_fifths_smaller_and_one_in_colour_a_fifth():
    """Measured (London, header on): print 58 kB against resvg's RGBA 118 kB, light 114 kB
    against 159 kB (dark 110 against 160, high_contrast 107 against 132)."""
    for theme, share in (("print", 3 / 5), ("light", 4 / 5)):
        svg, width, height = _wheel(theme, 800)
        assert len(render_png(svg, width, height)) < share * len(_resvg(svg))


def test_the_same_svg_gives_the_same_bytes():
    for theme in ("print", "light"):
        svg, width, height = _wheel(theme, 400, "sydney")
        assert render_png(svg, width, height) == render_png(svg, width, height)


def test_a_picture_not_opaque_is_resvgs_own_rgba_png():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
        '<circle cx="20" cy="20" r="15" fill="#777777"/></svg>'
    )
    png = render_png(svg, 40)
    assert _depth_and_colour_type(png) == (8, RGBA) and png == _resvg(svg)


def test_a_colour_written_by_name_is_found_in_the_pixels():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#ffffff"/>'
        '<circle cx="20" cy="20" r="15" fill="red"/></svg>'
    )
    png = render_png(svg, 40)
    assert _depth_and_colour_type(png) == (8, RGB) and np.array_equal(_rgba(png), _rgba(_resvg(svg)))


def test_an_opaque_picture_of_any_grey_is_greyscale():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#202020"/>'
        '<circle cx="20" cy="20" r="15" fill="#D0D0D0" stroke="black"/></svg>'
    )
    png = render_png(svg, 40)
    assert _depth_and_colour_type(png) == (8, GREYSCALE) and np.array_equal(_rgba(png), _rgba(_resvg(svg)))


def test_one_pixel_not_grey_makes_the_picture_rgb_and_one_not_opaque_refuses_it():
    rgba = np.full((3, 5, 4), 200, np.uint8)
    rgba[..., 3] = 255
    assert _depth_and_colour_type(opaque_png(rgba)) == (8, GREYSCALE)
    rgba[1, 2, 1] = 201
    assert _depth_and_colour_type(opaque_png(rgba)) == (8, RGB)
    assert np.array_equal(_rgba(opaque_png(rgba)), rgba)
    rgba[2, 4, 3] = 254
    assert opaque_png(rgba) is None


def test_an_svg_of_another_size_than_asked_is_refused():
    svg, width, height = _wheel("light")
    with pytest.raises(ValueError, match="not 300 x 300"):
        render_png(svg, width, width)
    assert height != width


def test_the_bundled_fonts_are_both_loaded():
    assert len(fonts()) == len(FONT_FILES)
