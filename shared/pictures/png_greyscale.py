"""An opaque grey PNG rewritten as 8-bit greyscale, pixel for pixel (issue 51).

resvg writes every PNG as 8-bit RGBA (colour type 6), four bytes a pixel, although our
pictures are opaque. A picture drawn in greys only (the ``print`` theme: black, grey and white,
antialiased) has every pixel's red, green and blue equal and its alpha 255, so one byte a pixel
(colour type 0, PNG 1.2 section 4.1.1) says all of it: about 40% fewer bytes than resvg's PNG
(92.9 kB → 57.5 kB at 800 px) and the same pixels when decoded.

It is done on the filtered scanlines, never on decoded pixels: every PNG filter (PNG 1.2
section 6) predicts a byte from the bytes of the same channel (the pixel to the left, above,
above-left), so the red channel's filtered bytes, taken alone with the filter type of each
row, are the filtered scanlines of a greyscale image of those red values. And filtering is
invertible channel by channel, so the picture is opaque grey exactly when the filtered red,
green and blue bytes agree everywhere and the filtered alpha bytes are those of a channel of
255s under the same filters. Nothing is decoded; the IDAT is inflated, sliced and deflated.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: IHDR's bit depth and colour type of resvg's PNGs (8-bit RGBA), and of the greyscale one.
RGBA, GREYSCALE = (8, 6), (8, 0)
#: zlib's compression level of the greyscale IDAT. At 800 px in the print theme (resvg's RGBA:
#: 92.9 kB) level 1 gives 64.6 kB, 4 gives 57.5 kB, 6 (zlib's default) 56.4 kB and 9 53.8 kB,
#: the whole rewriting costing about 10, 11, 14 and 97 ms of CPU: 4 is nearly the smallest for
#: little more than the cheapest's time.
LEVEL = 4
#: The filter types of PNG 1.2 section 6.2.
NONE, SUB, UP, AVERAGE, PAETH = range(5)


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """Return a PNG's chunks in order, (type, data), without checking their CRCs (the PNG is
    resvg's, read from memory)."""
    chunks, position = [], len(SIGNATURE)
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        chunks.append((kind, png[position + 8 : position + 8 + length]))
        position += 12 + length
    return chunks


def _chunk(kind: bytes, data: bytes) -> bytes:
    """Return one PNG chunk: its length, type, data and CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def filtered(channel: np.ndarray, filters: np.ndarray) -> np.ndarray:
    """Return the filtered bytes (height, width) of one 8-bit channel (height, width), each row
    filtered by its type in ``filters`` (PNG 1.2 section 6: the byte to the left is a, above b,
    above-left c; 0 outside the image)."""
    x = channel.astype(np.int16)
    b = np.zeros_like(x)
    b[1:] = x[:-1]
    a = np.zeros_like(x)
    a[:, 1:] = x[:, :-1]
    c = np.zeros_like(x)
    c[:, 1:] = b[:, :-1]
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
    predictions = {NONE: np.zeros_like(x), SUB: a, UP: b, AVERAGE: (a + b) // 2, PAETH: paeth}
    types = filters[:, None]
    prediction = np.zeros_like(x)
    for kind, predicted in predictions.items():
        prediction = np.where(types == kind, predicted, prediction)
    return ((x - prediction) % 256).astype(np.uint8)


#: The filtered bytes of a channel of 255s, by filter type: [first row, later rows] x [first
#: byte, later bytes] (a constant channel's filtered row depends on nothing else).
_OPAQUE = np.stack([filtered(np.full((2, 2), 255, np.uint8), np.array([kind, kind])) for kind in range(5)])


def _opaque(alpha: np.ndarray, filters: np.ndarray) -> bool:
    """Return whether the filtered alpha bytes ``alpha`` (height, width), each row filtered by
    its type in ``filters``, are those of a channel of 255s: whether every pixel is opaque."""
    later = np.ones(len(filters), int)
    later[0] = 0
    expected = _OPAQUE[filters, later]  # (height, 2): each row's first byte and later bytes
    return bool(np.array_equal(alpha[:, 0], expected[:, 0]) and (alpha[:, 1:] == expected[:, 1:]).all())


def greyscale_png(png: bytes, level: int = LEVEL) -> bytes | None:
    """Return the PNG ``png`` (8-bit RGBA, not interlaced, as resvg writes it) as an 8-bit
    greyscale PNG of the same pixels, or None when some pixel is not opaque grey (or the PNG is
    not of that form): then ``png`` is the picture to serve."""
    if not png.startswith(SIGNATURE):
        return None
    chunks = _chunks(png)
    kinds = [kind for kind, _ in chunks]
    if kinds[0] != b"IHDR" or kinds[-1] != b"IEND" or set(kinds[1:-1]) != {b"IDAT"}:
        return None
    width, height, depth, colour, compression, filter_method, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (depth, colour) != RGBA or (compression, filter_method, interlace) != (0, 0, 0):
        return None
    rows = np.frombuffer(zlib.decompress(b"".join(data for kind, data in chunks if kind == b"IDAT")), np.uint8)
    rows = rows.reshape(height, 1 + 4 * width)
    filters, bytes_ = rows[:, 0], rows[:, 1:].reshape(height, width, 4)
    red = bytes_[:, :, 0]
    if not (np.array_equal(red, bytes_[:, :, 1]) and np.array_equal(red, bytes_[:, :, 2])):
        return None
    if not _opaque(bytes_[:, :, 3], filters):
        return None
    grey_rows = np.empty((height, 1 + width), np.uint8)
    grey_rows[:, 0], grey_rows[:, 1:] = filters, red
    header = struct.pack(">IIBBBBB", width, height, *GREYSCALE, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(grey_rows.tobytes(), level)),
            _chunk(b"IEND", b""),
        )
    )
