"""The positions-and-cusps table (``table.py``) drawn beside or under a wheel."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from kernel.zodiac import SIGN_KEYS
from services.ephemeris.wheel.geometry import text_width
from services.ephemeris.wheel.svg_parts import glyph_svg, point_svg, text_svg
from services.ephemeris.wheel.table import PositionsTable
from shared.pictures.themes import Theme
from shared.pictures.words import Words

#: The table's largest font size (a share of the wheel's size) and its rows' height (of the
#: font size); a long table's rows shrink to fit its box.
TABLE_TEXT, TABLE_ROW = 0.022, 1.5
#: The table's columns' widths, in its font size: a body's glyph, one ring's placement (its
#: position, sign, mark and house), the gap before the houses' block, and that block.
TABLE_COLUMNS = (1.8, 8.4, 1.6, 8.0)
#: Each sign's place in the zodiac (0 for aries), which gives its element's colour.
SIGN_INDEX = {sign: index for index, sign in enumerate(SIGN_KEYS)}


def table_svg(table: PositionsTable, theme: Theme, size: int, box: tuple[int, int, int, int], words: Words) -> str:
    """Return the positions-and-cusps table (``table.py``) at the top left of its ``box``
    (left, top, width, height): the bodies' block (glyph, then for each ring ``D°MM′``, the
    sign's glyph, the retrograde mark and the house), then the houses' block (the cusp's number
    or the angle's label, ``D°MM′`` and the sign's glyph), its columns TABLE_COLUMNS apart, its
    font TABLE_TEXT of ``size`` or smaller when the box could not hold it; each row a ``<g>``
    with ``data-body`` or ``data-house``/``data-angle`` for a web page to hook."""
    left, top, width, height = box
    margin = size * TABLE_TEXT
    rows = max(len(table.bodies), len(table.houses)) + 1  # and the headings' row
    glyph, ring, gap, houses = TABLE_COLUMNS
    across = glyph + ring * table.rings + gap + houses
    text_size = min(size * TABLE_TEXT, (height - 2 * margin) / rows / TABLE_ROW, (width - 2 * margin) / across)
    row = text_size * TABLE_ROW
    x0, y0 = left + margin, top + margin

    def centre_y(index: int) -> float:
        return y0 + row * (index + 0.5)

    def ring_x(index: int) -> float:
        return x0 + text_size * (glyph + ring * index)

    # Within a ring's column: the position, the sign's glyph after it, the mark, the house.
    mark_at, house_at = 4.9, ring - 0.6
    houses_x = x0 + text_size * (glyph + ring * table.rings + gap)
    parts = ['<g class="positions-table">']
    headings = [(houses_x, words.header("cusps"), "start")]
    for index in range(table.rings):
        name = words.header("position") if table.rings == 1 else words.ring(("inner", "outer")[index])
        headings.append((ring_x(index), name, "start"))
        if table.rings == 1:  # a bi-wheel's ring names take the room of the house's heading
            headings.append((ring_x(index) + text_size * house_at, words.header("house"), "end"))
    parts += [
        text_svg((x, centre_y(0)), text, text_size * 0.85, theme.text, bold=True, anchor=anchor)
        for x, text, anchor in headings
    ]
    for index, body_row in enumerate(table.bodies, start=1):
        y = centre_y(index)
        cells = [point_svg(body_row.body, (x0 + text_size * 0.6, y), text_size * 1.2, theme.text, words)]
        for ring_index, placement in enumerate(body_row.placements):
            x = ring_x(ring_index)
            cells.append(_placed(placement, (x, y), text_size, theme))
            if placement.retrograde:
                cells.append(
                    text_svg((x + text_size * mark_at, y), words.retrograde_mark, text_size, theme.text, anchor="start")
                )
            cells.append(
                text_svg((x + text_size * house_at, y), str(placement.house), text_size, theme.text, anchor="end")
            )
        parts.append(f'<g class="table-body" data-body={quoteattr(body_row.body)}>' + "".join(cells) + "</g>")
    for index, house_row in enumerate(table.houses, start=1):
        y = centre_y(index)
        if house_row.angle:
            label = text_svg(
                (houses_x, y), words.angle_label(house_row.angle), text_size, theme.text, bold=True, anchor="start"
            )
            hook = f'data-angle="{house_row.angle}"'
        else:
            label = text_svg((houses_x, y), str(house_row.house), text_size, theme.text, anchor="start")
            hook = f'data-house="{house_row.house}"'
        placed = _placed(house_row.placement, (houses_x + text_size * 2.6, y), text_size, theme)
        parts.append(f'<g class="table-house" {hook}>' + label + placed + "</g>")
    parts.append("</g>")
    return "\n".join(parts)


def _placed(placement, at: tuple[float, float], text_size: float, theme: Theme) -> str:
    """Return a placement's ``D°MM′`` starting at ``at`` and its sign's glyph after it, in the
    sign's element colour."""
    x, y = at
    degrees = text_svg((x, y), placement.text, text_size, theme.text, anchor="start")
    sign_at = (x + text_width(placement.text, text_size) + text_size * 0.75, y)
    return degrees + glyph_svg(placement.sign, sign_at, text_size * 1.1, theme.element(SIGN_INDEX[placement.sign]))
