"""Where the North and South Indian charts put each house, sign and graha: pure geometry in
chart units (the chart's square is 1 wide, x to the right, y down), drawn by ``drawing.py``.

North Indian (the diamond): the square cut by its diagonals and by the diamond joining its
sides' midpoints into twelve houses that never move; the 1st house (the lagna's) is the top
central diamond and the houses run anticlockwise from it; each house is numbered by its sign
(1 Aries ... 12 Pisces), so the signs turn with the lagna. South Indian (the square): the
twelve outer cells of a 4×4 grid hold the signs, fixed, Pisces at the top left and the signs
running clockwise; the lagna's sign is marked by a diagonal across its top-left corner. Both
as B. V. Raman, "How to Judge a Horoscope" (1944), ch. 1, and every Jyotish program draws them.

Each graha's label (its abbreviation, ℞ when retrograde, ^ when combust, and in the rasi its
degree in its sign, D°MM′) stands in its house's (or sign's) label box, in as many columns
as give the largest font, so a house holding every graha and the lagna stays inside its
house and legible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kernel.zodiac import SIGN_KEYS

NORTH_INDIAN, SOUTH_INDIAN = "north_indian", "south_indian"
STYLES = (NORTH_INDIAN, SOUTH_INDIAN)
#: The marks after a graha's abbreviation: retrograde (vakri) and combust (asta).
RETROGRADE_MARK, COMBUST_MARK = "℞", "^"
#: The labels' largest font size, and the line height and column gap in font sizes.
LABEL_FONT, LINE_HEIGHT, COLUMN_GAP = 0.026, 1.25, 0.5
#: Widths of the labels' characters in font sizes, by kind: upper-case (Latin or Cyrillic),
#: lower-case, digits, the retrograde mark, and the rest (space, °, ′, ^). Upper bounds: every
#: label of every language drawn by resvg in Noto Sans at 100 px inks at most 0.99 of the
#: width they give (Юп℞^ the widest for its length; a degree label about 0.89).
UPPER_WIDTH, LOWER_WIDTH, DIGIT_WIDTH, RETROGRADE_WIDTH, OTHER_WIDTH = 0.9, 0.62, 0.58, 0.8, 0.45
#: The most columns a house's labels are set in.
MAX_COLUMNS = 3

Point = tuple[float, float]
Box = tuple[float, float, float, float]

# North Indian houses, 1-12: the house's outline, where its sign number stands (near the
# chart's centre) and the box its labels are set in (x0, y0, x1, y1), each inside the outline.
# A side triangle (houses 3, 5, 9, 11) has a second, wider and shorter box (_WIDE_BOXES): its
# labels take whichever of the two gives them the larger font.
_NORTH: tuple[tuple[tuple[Point, ...], Point, Box], ...] = (
    (((0.5, 0.0), (0.75, 0.25), (0.5, 0.5), (0.25, 0.25)), (0.5, 0.43), (0.38, 0.14, 0.62, 0.32)),
    (((0.0, 0.0), (0.5, 0.0), (0.25, 0.25)), (0.25, 0.2), (0.12, 0.012, 0.38, 0.12)),
    (((0.0, 0.0), (0.25, 0.25), (0.0, 0.5)), (0.2, 0.25), (0.012, 0.12, 0.12, 0.38)),
    (((0.0, 0.5), (0.25, 0.25), (0.5, 0.5), (0.25, 0.75)), (0.43, 0.5), (0.14, 0.38, 0.32, 0.62)),
    (((0.0, 0.5), (0.25, 0.75), (0.0, 1.0)), (0.2, 0.75), (0.012, 0.62, 0.12, 0.88)),
    (((0.0, 1.0), (0.25, 0.75), (0.5, 1.0)), (0.25, 0.8), (0.12, 0.88, 0.38, 0.988)),
    (((0.5, 1.0), (0.25, 0.75), (0.5, 0.5), (0.75, 0.75)), (0.5, 0.57), (0.38, 0.68, 0.62, 0.86)),
    (((0.5, 1.0), (0.75, 0.75), (1.0, 1.0)), (0.75, 0.8), (0.62, 0.88, 0.88, 0.988)),
    (((1.0, 1.0), (0.75, 0.75), (1.0, 0.5)), (0.8, 0.75), (0.88, 0.62, 0.988, 0.88)),
    (((1.0, 0.5), (0.75, 0.75), (0.5, 0.5), (0.75, 0.25)), (0.57, 0.5), (0.68, 0.38, 0.86, 0.62)),
    (((1.0, 0.5), (0.75, 0.25), (1.0, 0.0)), (0.8, 0.25), (0.88, 0.12, 0.988, 0.38)),
    (((1.0, 0.0), (0.75, 0.25), (0.5, 0.0)), (0.75, 0.2), (0.62, 0.012, 0.88, 0.12)),
)
_WIDE_BOXES: dict[int, Box] = {
    3: (0.012, 0.17, 0.16, 0.33),
    5: (0.012, 0.67, 0.16, 0.83),
    9: (0.84, 0.67, 0.988, 0.83),
    11: (0.84, 0.17, 0.988, 0.33),
}
#: South Indian cells by sign (0 Aries ... 11 Pisces): column and row of the 4×4 grid.
_SOUTH_CELLS: tuple[tuple[int, int], ...] = (
    (1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (0, 3), (0, 2), (0, 1), (0, 0),
)  # fmt: skip
#: A South Indian cell's side, its labels' margin, and the band at its top that holds the
#: lagna's diagonal and the sign's glyph (of the chart's side).
_CELL, _MARGIN, _TOP_BAND = 0.25, 0.012, 0.05
#: The sign glyph's size in a South Indian cell, and the diagonal marking the lagna's sign
#: (the length of its legs along the cell's top and left sides).
SIGN_GLYPH, LAGNA_DIAGONAL = 0.036, 0.07


@dataclass(frozen=True)
class ChartPoint:
    """A point to draw: ``body`` (sun ... pluto, rahu, ketu, lagna), its ``sign`` (0 Aries ...
    11 Pisces), its ``house`` (1-12, the North Indian chart's), its ``degree`` in its sign
    (None in a varga, whose labels give the sign only), ``retrograde`` and ``combust``."""

    body: str
    sign: int
    house: int
    degree: float | None = None
    retrograde: bool = False
    combust: bool = False


@dataclass(frozen=True)
class Label:
    """A point's label: the ``point``, its ``text``, its centre (``x``, ``y``), its ``font``
    size and its ``width`` (an upper bound), in chart units."""

    point: ChartPoint
    text: str
    x: float
    y: float
    font: float
    width: float

    @property
    def x_y(self) -> Point:
        """Return the label's centre."""
        return self.x, self.y

    @property
    def box(self) -> Box:
        """Return the label's box (x0, y0, x1, y1): its width, one font size tall."""
        return (self.x - self.width / 2, self.y - self.font / 2, self.x + self.width / 2, self.y + self.font / 2)


@dataclass(frozen=True)
class Cell:
    """A house (North Indian) or a sign (South Indian): its ``house`` and ``sign`` (0 Aries ...
    11 Pisces), its ``outline``, where its sign number (North) or glyph (South) stands and its
    ``labels``."""

    house: int
    sign: int
    outline: tuple[Point, ...]
    sign_at: Point
    labels: tuple[Label, ...]

    @property
    def sign_key(self) -> str:
        return SIGN_KEYS[self.sign]


@dataclass(frozen=True)
class IndianChart:
    """One chart laid out: its ``style``, ``code`` (D1, D9 ...), ``title``, the lagna's sign,
    its twelve cells (houses 1-12 in the North Indian style, signs Aries to Pisces in the
    South Indian) and, South Indian, the diagonal marking the lagna's sign."""

    style: str
    code: str
    title: str
    lagna_sign: int
    cells: tuple[Cell, ...]
    lagna_mark: tuple[Point, Point] | None


def label_text(point: ChartPoint, abbreviation: str) -> str:
    """Return a point's label: its abbreviation, ℞ when retrograde, ^ when combust, and with a
    degree its degree and minutes in its sign (truncated, so 29°59′ never reads 30°00′)."""
    marks = (RETROGRADE_MARK if point.retrograde else "") + (COMBUST_MARK if point.combust else "")
    if point.degree is None:
        return abbreviation + marks
    minutes = int(point.degree * 60.0 + 1e-9)
    return f"{abbreviation}{marks} {minutes // 60}°{minutes % 60:02d}′"


def chart_layout(
    style: str, code: str, title: str, points: Sequence[ChartPoint], abbreviations: dict[str, str]
) -> IndianChart:
    """Return the chart ``code`` titled ``title`` in ``style``: each point (the lagna among
    them) labelled with its abbreviation (``abbreviations`` by body) in its house (North
    Indian) or sign (South Indian)."""
    lagna_sign = next(p.sign for p in points if p.body == "lagna")
    cells = []
    if style == NORTH_INDIAN:
        for house, (outline, number_at, box) in enumerate(_NORTH, start=1):
            held = [p for p in points if p.house == house]
            boxes = (box, _WIDE_BOXES[house]) if house in _WIDE_BOXES else (box,)
            cells.append(
                Cell(house, (lagna_sign + house - 1) % 12, outline, number_at, _set(held, boxes, abbreviations))
            )
        return IndianChart(style, code, title, lagna_sign, tuple(cells), None)
    for sign, (column, row) in enumerate(_SOUTH_CELLS):
        x, y = column * _CELL, row * _CELL
        outline = ((x, y), (x + _CELL, y), (x + _CELL, y + _CELL), (x, y + _CELL))
        box = (x + _MARGIN, y + _TOP_BAND, x + _CELL - _MARGIN, y + _CELL - _MARGIN)
        held = [p for p in points if p.sign == sign]
        glyph_at = (x + _CELL - _MARGIN - SIGN_GLYPH / 2, y + _MARGIN / 2 + SIGN_GLYPH / 2)
        house = (sign - lagna_sign) % 12 + 1
        cells.append(Cell(house, sign, outline, glyph_at, _set(held, (box,), abbreviations)))
    column, row = _SOUTH_CELLS[lagna_sign]
    x, y = column * _CELL, row * _CELL
    mark = ((x + LAGNA_DIAGONAL, y), (x, y + LAGNA_DIAGONAL))
    return IndianChart(style, code, title, lagna_sign, tuple(cells), mark)


def text_width(text: str, font: float) -> float:
    """Return an upper bound of the width of ``text`` set in ``font`` (chart units)."""
    return sum(_char_width(c) for c in text) * font


def _char_width(char: str) -> float:
    if char.isdigit():
        return DIGIT_WIDTH
    if char.isalpha():
        return UPPER_WIDTH if char.isupper() else LOWER_WIDTH
    return RETROGRADE_WIDTH if char == RETROGRADE_MARK else OTHER_WIDTH


def _set(points: Sequence[ChartPoint], boxes: Sequence[Box], abbreviations: dict[str, str]) -> tuple[Label, ...]:
    """Return the labels of ``points`` set in one of ``boxes``: in rows of 1 to MAX_COLUMNS
    columns, whichever box and count give the largest font (at most LABEL_FONT), the grid
    centred in the box."""
    if not points:
        return ()
    texts = [label_text(p, abbreviations[p.body]) for p in points]
    longest = max(text_width(t, 1.0) for t in texts)
    best_font, best_columns, best_box = 0.0, 1, boxes[0]
    for box in boxes:
        x0, y0, x1, y1 = box
        for columns in range(1, min(MAX_COLUMNS, len(texts)) + 1):
            rows = math.ceil(len(texts) / columns)
            font = min(
                LABEL_FONT,
                (y1 - y0) / (rows * LINE_HEIGHT),
                (x1 - x0) / (columns * longest + (columns - 1) * COLUMN_GAP),
            )
            if font > best_font * 1.0001:
                best_font, best_columns, best_box = font, columns, box
    x0, y0, x1, y1 = best_box
    rows = math.ceil(len(texts) / best_columns)
    pitch = best_font * LINE_HEIGHT
    top = (y0 + y1) / 2 - pitch * rows / 2 + pitch / 2
    column_width = (x1 - x0) / best_columns
    labels = []
    for index, (point, text) in enumerate(zip(points, texts, strict=True)):
        row, column = divmod(index, best_columns)
        x = x0 + column_width * (column + 0.5)
        labels.append(Label(point, text, x, top + row * pitch, best_font, text_width(text, best_font)))
    return tuple(labels)
