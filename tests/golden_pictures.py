"""The golden pictures of every family (the chart wheels, the North and South Indian charts, the
sensitivity timelines): PNGs drawn as the API draws them, looked at by eye once and kept under
tests/golden/<family>/, and what their tests share: decoding, comparing pixel for pixel, and
Chromium's picture of the same SVG compared with resvg's within stated bounds.

Each family's module (tests/golden_wheels.py, tests/golden_vedic.py,
tests/golden_sensitivity.py) holds only its table of pictures and how one is drawn, as a
:class:`Family`. ``python -m tests.golden_pictures FAMILY --write`` draws that family's golden
images again (after a change of the drawing, the fonts or resvg); each written image is then
looked at once, by eye, before it is committed: the golden images hold what was reviewed, not
what the code is proven to draw. ``--docs`` draws the family's pictures of docs/ as
``format=png`` draws them. Without either it lists the images that differ from the golden ones
and exits 1 if any does; without FAMILY it does so for every family.
``python -m tests.golden_wheels`` (and each family's module) is the same with its FAMILY.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernel import civil_time, engine
from shared.runtime.config import REPO_ROOT, load_settings

GOLDEN_ROOT = REPO_ROOT / "tests" / "golden"
#: Family name (its folder under GOLDEN_ROOT) → the module that holds it as ``FAMILY``.
FAMILY_MODULES = {
    "wheel": "tests.golden_wheels",
    "vedic": "tests.golden_vedic",
    "sensitivity": "tests.golden_sensitivity",
}

#: Chromium against resvg: a pixel differs when one of its channels differs by more than
#: CHANNEL_TOLERANCE (of 255), and at most MAX_DIFFERING_SHARE of the pixels may. Two
#: rasterisers agree inside every shape and part only at the edges, where each pixel is a
#: blend by the share of it the shape covers: they sample that coverage differently and
#: Chromium's Skia draws text with its own gamma, so an edge pixel of a dark stroke on white
#: can differ by a fifth of the range (measured: up to 0.57% of the pixels differ by more than
#: 48 over the wheel's CHROMIUM_PICTURES (tests/unit/services/test_wheel_png.py) in the four
#: themes, the most in high_contrast and print, black on white, and in the pictures with the
#: most text and edges: the bi-wheels, the Russian wheel; it was 0.39% before the degree
#: scale's 360 ticks and the cusps' positions, issue 51).
#: A stroke or glyph missing or misplaced by more than a pixel differs by far more than 48
#: along its whole length; but the text is only 0.4% of the pixels, which is why the text is
#: also compared within a pixel (below). The header (on by default) adds lines of text, and a
#: bi-wheel's ring labels more: measured 0.26% (London) to 0.59% (synastry in print) with
#: them, the header's text whole pixels apart in both (its baselines on whole pixels); the
#: header and the degree scale together, up to 0.81% (the transit bi-wheel in print).
CHANNEL_TOLERANCE = 48
MAX_DIFFERING_SHARE = 0.009
#: Compared within a pixel (each pixel against the nearest colour within one pixel in the
#: other picture), at most MAX_SHIFTED_SHARE may differ: measured 0.035-0.11% over the wheel's
#: CHROMIUM_PICTURES in the four themes before the header, up to 0.24% with it (the
#: bi-wheels in high_contrast and print: looked at, every such pixel is at a letter's edge in
#: the header, where the two engines place a glyph's advance a fraction of a pixel apart), and
#: 0.44-0.47% for a wheel drawn without its text, which this bound still tells apart.
MAX_SHIFTED_SHARE = 0.003


@dataclass(frozen=True)
class Family:
    """A family of golden pictures: its ``name`` (its folder under GOLDEN_ROOT), its golden
    ``pictures`` (each a file name without ``.png``), ``draw_png`` (a golden picture's name →
    the PNG's bytes the API answers for it) and ``docs`` (a picture's file name under docs/ →
    a function drawing its PNG)."""

    name: str
    pictures: Sequence[str]
    draw_png: Callable[[str], bytes]
    docs: Mapping[str, Callable[[], bytes]]

    @property
    def folder(self) -> Path:
        """Return the folder of the family's golden images."""
        return GOLDEN_ROOT / self.name

    def path(self, picture: str) -> Path:
        """Return the path of the golden image ``picture``."""
        return self.folder / f"{picture}.png"


def pixels(png: bytes | Path) -> np.ndarray:
    """Return a PNG's pixels as an array (height, width, 4) of RGBA bytes."""
    from PIL import Image  # a test dependency; the service never decodes a PNG

    with Image.open(io.BytesIO(png) if isinstance(png, bytes) else png) as image:
        return np.asarray(image.convert("RGBA"))


def sized(svg: str) -> tuple[str, int, int]:
    """Return ``svg`` with its width and height in pixels (its root's attributes)."""
    root = ET.fromstring(svg)
    return svg, int(root.get("width")), int(root.get("height"))


def assert_drawn_as_golden(family: Family, picture: str) -> None:
    """Assert that ``picture`` is drawn again to its golden image's pixels, with no tolerance."""
    drawn, golden = pixels(family.draw_png(picture)), pixels(family.path(picture))
    assert drawn.shape == golden.shape
    assert np.array_equal(drawn, golden), f"{int(np.any(drawn != golden, axis=2).sum())} pixels changed"


def chromium_pixels(page, svg: str, width: int = 800, height: int = 800) -> np.ndarray:
    """Return Chromium's picture of ``svg`` inline in a page whose viewport is the picture's
    ``width`` by ``height`` pixels (a grid's picture is wider or taller than the wheel)."""
    page.set_viewport_size({"width": width, "height": height})
    page.set_content(f'<!DOCTYPE html><html><body style="margin:0">{svg}</body></html>')
    return pixels(page.screenshot())


def differing_share(a: np.ndarray, b: np.ndarray) -> float:
    """Return the share (0-1) of pixels whose colour differs by more than CHANNEL_TOLERANCE in
    a channel between two RGB(A) images of one size."""
    difference = np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).max(axis=2)
    return float((difference > CHANNEL_TOLERANCE).mean())


def _nearest_within_a_pixel(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return, for each pixel of ``a``, the least of its largest channel differences to the
    pixels of ``b`` within one pixel of it (the 3 x 3 square around it)."""
    height, width = a.shape[:2]
    padded = np.pad(b, ((1, 1), (1, 1), (0, 0)), mode="edge")
    nearest = np.full((height, width), 255)
    for dy in range(3):
        for dx in range(3):
            nearest = np.minimum(nearest, np.abs(a - padded[dy : dy + height, dx : dx + width]).max(axis=2))
    return nearest


def differing_share_within_a_pixel(a: np.ndarray, b: np.ndarray) -> float:
    """Return the share (0-1) of pixels of either RGB(A) image with no colour within
    CHANNEL_TOLERANCE in every channel among the other's pixels within one pixel of it."""
    a, b = a[..., :3].astype(int), b[..., :3].astype(int)
    return float((np.maximum(_nearest_within_a_pixel(a, b), _nearest_within_a_pixel(b, a)) > CHANNEL_TOLERANCE).mean())


def assert_chromium_draws_as_resvg(page, svg: str, width: int, height: int, png: bytes) -> None:
    """Assert that Chromium's picture of ``svg`` and resvg's (``png``) differ by at most
    MAX_DIFFERING_SHARE of the pixels, and by at most MAX_SHIFTED_SHARE within a pixel."""
    chromium, resvg = chromium_pixels(page, svg, width, height), pixels(png)
    share = differing_share(chromium, resvg)
    assert share <= MAX_DIFFERING_SHARE, f"{share:.4%} of the pixels differ by more than {CHANNEL_TOLERANCE}"
    shifted = differing_share_within_a_pixel(chromium, resvg)
    assert shifted <= MAX_SHIFTED_SHARE, f"{shifted:.4%} differ by more than {CHANNEL_TOLERANCE} within a pixel"


def family_named(name: str) -> Family:
    """Return the family ``name`` (a key of FAMILY_MODULES)."""
    return importlib.import_module(FAMILY_MODULES[name]).FAMILY


def differing(family: Family) -> list[Path]:
    """Return the golden images of ``family`` that are missing or that its pictures, drawn
    again, differ from, printing each."""
    found = []
    for picture in family.pictures:
        path = family.path(picture)
        if not path.exists() or not np.array_equal(pixels(family.draw_png(picture)), pixels(path)):
            found.append(path)
            print(f"differs: {path.relative_to(REPO_ROOT)}")
    return found


def write(family: Family) -> None:
    """Draw the golden images of ``family`` again, over the old ones."""
    family.folder.mkdir(parents=True, exist_ok=True)
    for picture in family.pictures:
        path = family.path(picture)
        path.write_bytes(family.draw_png(picture))
        print(f"wrote {path.relative_to(REPO_ROOT)}")


def write_docs(family: Family) -> None:
    """Draw the pictures of docs/ that ``family`` draws."""
    for name, draw in family.docs.items():
        (REPO_ROOT / "docs" / name).write_bytes(draw())
        print(f"wrote docs/{name}")


def main(argv: list[str] | None = None, family: Family | None = None) -> int:
    """Run the command line: of ``family``, or of the FAMILY it names when ``family`` is None."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    if family is None:
        parser.add_argument("family", nargs="?", choices=FAMILY_MODULES, help="the family (every one if left out)")
    parser.add_argument(
        "--write", action="store_true", help="write the golden images (then look at each before committing)"
    )
    parser.add_argument("--docs", action="store_true", help="write the family's pictures of docs/ (then look at each)")
    args = parser.parse_args(argv)
    if family is not None:
        families = [family]
    elif args.family is not None:
        families = [family_named(args.family)]
    elif args.write or args.docs:
        parser.error("--write and --docs take a FAMILY")
    else:
        families = [family_named(name) for name in FAMILY_MODULES]
    settings = load_settings()
    engine.use_ephemeris_files(settings.ephe_path)
    civil_time.use_zone_files(settings.tz_path)
    if args.docs:
        for each in families:
            write_docs(each)
        return 0
    if args.write:
        for each in families:
            write(each)
        return 0
    return 1 if [path for each in families for path in differing(each)] else 0


if __name__ == "__main__":
    sys.exit(main())
