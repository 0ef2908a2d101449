"""An opaque picture's pixels written as a PNG (issue 51): 8-bit greyscale when every pixel is
a grey, 8-bit RGB otherwise, never RGBA.

resvg draws into RGBA pixels (alpha premultiplied, which changes nothing where every pixel is
opaque); its own PNG encoder writes all four bytes of each. Our pictures are opaque (each draws
its theme's background), so three bytes a pixel say all of it (colour type 2, PNG 1.2 section
4.1.1), and one when red, green and blue are equal everywhere (colour type 0: the ``print``
theme, a ``palette`` of greys). A palette (colour type 3) is not written: a wheel in colour
has 1,200 to 2,200 colours (its antialiased edges), more than a palette's 256, and a picture in
greys is one byte a pixel already without one.

Every row is written unfiltered (filter type 0, PNG 1.2 section 6.2) and deflated by Python's
zlib, chosen by measure over 800 px wheels (six births, light, dark and print; the mean size
and the CPU time of the whole encoding, bench/chart_wheel.py times it in its PNG):

- RGB: unfiltered at level 4, 105 kB in 12.5 ms (resvg's own RGBA PNG 146 kB). Sub, Up or
  Paeth filters make it larger (135, 142, 145 kB at level 4: the wheel is flat colour with
  thin antialiased edges, whose repeats deflate finds whole), level 6 saves 2% for 30% more
  time, level 1 costs 13% more bytes.
- Greyscale: unfiltered, deflated as runs (``Z_RLE``), 52 kB in 3 ms in print (level 4 of the
  default strategy 56 kB in 5 ms; resvg's own RGBA PNG 108 kB).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: IHDR's colour types (PNG 1.2 section 4.1.1) of the pictures written here, at bit depth 8.
GREYSCALE, RGB = 0, 2
#: zlib's level and strategy of the IDAT, by colour type (measured: see the module's docstring).
DEFLATE = {RGB: (4, zlib.Z_DEFAULT_STRATEGY), GREYSCALE: (4, zlib.Z_RLE)}


def _chunk(kind: bytes, data: bytes) -> bytes:
    """Return one PNG chunk: its length, type, data and CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def opaque_png(rgba: np.ndarray) -> bytes | None:
    """Return the PNG (bytes) of the pixels ``rgba`` (height, width, 4: 8-bit red, green, blue
    and alpha, as resvg draws them), greyscale when every pixel is grey, RGB otherwise; or None
    when some pixel is not opaque (its alpha below 255: this writes no alpha)."""
    if not (rgba[:, :, 3] == 255).all():
        return None
    height, width = rgba.shape[:2]
    red = rgba[:, :, 0]
    grey = np.array_equal(red, rgba[:, :, 1]) and np.array_equal(red, rgba[:, :, 2])
    colour, channels = (GREYSCALE, red[:, :, None]) if grey else (RGB, rgba[:, :, :3])
    samples = channels.shape[2]
    rows = np.zeros((height, 1 + width * samples), np.uint8)  # each row's first byte: filter type 0
    rows[:, 1:] = channels.reshape(height, width * samples)
    level, strategy = DEFLATE[colour]
    deflate = zlib.compressobj(level, zlib.DEFLATED, zlib.MAX_WBITS, 8, strategy)
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", deflate.compress(rows.tobytes()) + deflate.flush()),
            _chunk(b"IEND", b""),
        )
    )
