"""The aspect grid drawn beside or under a wheel (``layout.aspect_grid``): a single wheel's
triangle, a bi-wheel's table of cross aspects."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from services.ephemeris.wheel.frame import GRID_MARGIN
from services.ephemeris.wheel.layout import WheelLayout, aspect_grid
from services.ephemeris.wheel.svg_parts import body_glyph_svg, glyph_svg, num, text_svg
from shared.pictures.glyphs import glyph_outlines
from shared.pictures.themes import Theme
from shared.pictures.words import Words

#: The grid's axis labels' font size, a share of the grid's side (they stand in its margin).
AXIS_TEXT = 0.026


def grid_svg(
    layout: WheelLayout,
    theme: Theme,
    box: tuple[float, float, int, int],
    words: Words,
    axes: tuple[str, str] | None = None,
) -> str:
    """Return the aspect grid (``layout.aspect_grid``) in its square ``box`` (left, top, side,
    side): a triangular grid with the bodies' glyphs on its diagonal, or a bi-wheel's table
    with the outer bodies along the top and the inner ones down the left, labelled, when
    ``axes`` names the inner and the outer chart, "Rows: <inner>" down its left margin and
    "Columns: <outer>" along its top one; each aspect's cell a ``<g class="grid-cell">`` with
    its glyph and its orb in degrees and minutes (rounded to the minute), in its aspect line's
    colour."""
    table = aspect_grid(layout)
    side = box[2]
    left, top = box[0] + side * GRID_MARGIN, box[1] + side * GRID_MARGIN
    span = side * (1 - 2 * GRID_MARGIN)
    headed = 0 if table.triangular else 1  # the bi-wheel's header row and column
    cell = span / (len(table.rows) if table.triangular else max(len(table.rows), len(table.columns)) + 1)

    def corner(row: int, column: int) -> tuple[float, float]:
        return left + (column + headed) * cell, top + (row + headed) * cell

    def centre(row: int, column: int, down: float = 0.5) -> tuple[float, float]:
        x, y = corner(row, column)
        return x + cell / 2, y + cell * down

    parts = ['<g class="aspect-grid">']
    cells = [
        (r, c) for r in range(len(table.rows)) for c in range(len(table.columns)) if not table.triangular or c <= r
    ]
    parts += [
        f'<rect x="{num(corner(r, c)[0])}" y="{num(corner(r, c)[1])}" width="{num(cell)}" height="{num(cell)}" '
        f'fill="none" stroke="{theme.faint}" stroke-width="0.8"/>'
        for r, c in cells
    ]
    if axes is not None and not table.triangular:
        # In the grid's margins: the columns' chart above the outer bodies' glyphs, the rows'
        # chart turned up the left edge beside the inner bodies' glyphs.
        text_size, margin = side * AXIS_TEXT, side * GRID_MARGIN
        columns_at = (left + cell + (span - cell) / 2, top - margin / 2)
        rows_at = (left - margin / 2, top + cell + (span - cell) / 2)
        parts.append(
            '<g class="grid-axes">'
            + text_svg(
                columns_at, words.header("columns", chart=axes[1]), text_size, theme.text, css_class="grid-columns"
            )
            + text_svg(
                rows_at,
                words.header("rows", chart=axes[0]),
                text_size,
                theme.text,
                css_class="grid-rows",
                rotate=-90,
            )
            + "</g>"
        )
    # The bodies' glyphs: on the diagonal, or along the top (outer) and down the left (inner).
    glyph_size = cell * 0.6
    if table.triangular:
        heads = [(body, centre(i, i), "") for i, body in enumerate(table.rows)]
    else:
        heads = [(body, centre(-1, i), ' data-ring="outer"') for i, body in enumerate(table.columns)]
        heads += [(body, centre(i, -1), ' data-ring="inner"') for i, body in enumerate(table.rows)]
    for body, at, ring in heads:
        parts.append(
            '<g class="grid-body" '
            f"data-body={quoteattr(body)}{ring}>{body_glyph_svg(body, at, glyph_size, theme.text)}</g>"
        )
    outlines = glyph_outlines()
    for grid_cell in table.cells:
        aspect = grid_cell.aspect
        colour = theme.aspect(aspect.aspect)
        glyph_at = centre(grid_cell.row, grid_cell.column, 0.37)
        if aspect.aspect in outlines:
            glyph = glyph_svg(aspect.aspect, glyph_at, cell * 0.46, colour)
        else:
            glyph = text_svg(glyph_at, aspect.aspect[:3], cell * 0.3, colour)
        parts.append(
            f'<g class="grid-cell" data-aspect="{aspect.aspect}" data-body-a={quoteattr(aspect.body_a)} '
            f'data-body-b={quoteattr(aspect.body_b)} data-orb="{aspect.orb:.4f}">'
            + glyph
            + text_svg(centre(grid_cell.row, grid_cell.column, 0.8), _orb(aspect.orb), cell * 0.24, colour)
            + "</g>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _orb(orb_deg: float) -> str:
    """Return an orb (degrees) in degrees and minutes, rounded to the minute: ``1°05′``."""
    minutes = round(orb_deg * 60.0)
    return f"{minutes // 60}°{minutes % 60:02d}′"
