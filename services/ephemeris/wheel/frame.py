"""Where the parts of a wheel's picture stand: the header across the top, the wheel's square
under it, the aspect grid and the positions-and-cusps table beside or under the wheel
(pixels, from the picture's top left corner)."""

from __future__ import annotations

from dataclasses import dataclass

#: The aspect grid's square (beside or under the wheel), its side as a share of the wheel's
#: size, and the margin around the grid inside it (a share of its side). The whole picture is
#: then GRID_SHARE wider (aside) or taller (below) than the wheel.
GRID_SHARE, GRID_MARGIN = 0.75, 0.05
#: The places of the aspect grid (none, to the right of the wheel, under it) and how many
#: grid sides each adds to the picture's width and height.
GRID_EXTENT: dict[str, tuple[int, int]] = {"none": (0, 0), "aside": (1, 0), "below": (0, 1)}
#: The places of the positions-and-cusps table, as the grid's: none, aside, below.
TABLE_PLACES = ("none", "aside", "below")
#: The header's font size (a share of the wheel's size), its lines' height (of the font
#: size) and the room above its first line and below its last (of the font size).
HEADER_TEXT, HEADER_LINE, HEADER_MARGIN = 0.021, 1.4, 0.6


@dataclass(frozen=True)
class Frame:
    """Where the parts of a picture stand (pixels, from its top left corner): its width and
    height, the header's height (0 without one), the wheel's square's top left corner, the
    grid's and the table's boxes (left, top, width, height; None when not drawn)."""

    width: int
    height: int
    header: int
    wheel: tuple[int, int]
    grid: tuple[float, float, int, int] | None
    table: tuple[int, int, int, int] | None


def frame(size: int, grid: str = "none", table: str = "none", header_lines: int = 0) -> Frame:
    """Return the frame of a wheel ``size`` pixels square under a header of ``header_lines``
    lines (as wide as the picture), with its aspect grid ``grid`` and its table ``table``, each
    none, aside or below: what is aside stands to the right of the wheel, the grid first, each
    GRID_SHARE of ``size`` wide and ``size`` tall (the grid's square centred on the wheel's
    height); what is below stands under the wheel, the grid first, each GRID_SHARE of ``size``
    tall and ``size`` wide (the grid's square centred on the wheel's width)."""
    side = round(size * GRID_SHARE)
    header = header_height(size, header_lines)
    right, bottom = size, header + size
    grid_box = table_box = None
    if grid == "aside":
        grid_box, right = (right, header + (size - side) / 2, side, side), right + side
    elif grid == "below":
        grid_box, bottom = ((size - side) / 2, bottom, side, side), bottom + side
    if table == "aside":
        table_box, right = (right, header, side, size), right + side
    elif table == "below":
        table_box, bottom = (0, bottom, size, side), bottom + side
    return Frame(right, bottom, header, (0, header), grid_box, table_box)


def header_height(size: int, lines: int) -> int:
    """Return the height (pixels) of a header of ``lines`` lines over a wheel ``size`` pixels
    wide: 0 without lines."""
    if not lines:
        return 0
    return round(size * HEADER_TEXT * (HEADER_LINE * lines + 2 * HEADER_MARGIN))


def picture_size(size: int, grid: str = "none", table: str = "none", header_lines: int = 0) -> tuple[int, int]:
    """Return the whole picture's width and height (pixels) of a wheel ``size`` pixels square
    with its aspect grid ``grid`` and its table ``table`` (none, aside: wider, or below:
    taller) under a header of ``header_lines`` lines (``frame``)."""
    placed = frame(size, grid, table, header_lines)
    return placed.width, placed.height
