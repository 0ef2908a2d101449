"""The measures of a chart wheel: its rings' radii, the sizes of its glyphs and text (fractions
of the wheel's radius), the advance widths of the text it sets, and how far an upright box
reaches along and across the radius at a screen angle (degrees, counterclockwise from 3
o'clock). Plain numbers, shared by the layout (``layout.py``), the placement of the bodies
(``placement.py``) and the drawing."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from kernel.zodiac import normalize_deg

#: The zodiac band's outer and inner edges and the aspect circle of a single wheel (56% of the
#: radius, so lines to a stellium do not bundle into a fan), and a bi-wheel's circle between
#: its rings and its aspect circle.
ZODIAC_OUTER, ZODIAC_INNER = 0.97, 0.82
ASPECT_RING = 0.56
BI_DIVIDER, BI_ASPECT_RING = 0.6, 0.34
#: The house numbers' font sizes: a single wheel's, a bi-wheel's and Gauquelin's 36 sectors'.
#: A number stands in a thin ring just outside the aspect circle, HOUSE_GAP clear of it, so the
#: aspect lines, which end on the circle, never meet it; the ring of bodies begins beyond the
#: widest number ("12" turned 35° off an axis) and a little room (``PointRing.floor``).
HOUSE_TEXT, BI_HOUSE_TEXT, SECTOR_TEXT = 0.038, 0.034, 0.028
HOUSE_GAP = 0.007
#: The degree scale on the zodiac band's inner edge: how far (fractions of the radius) its
#: ticks reach into the band, every degree, every 5 and every 10 degrees.
TICK_1, TICK_5, TICK_10 = 0.01, 0.018, 0.028
#: A cusp's position's font size (``14°07′``, in the zodiac band's outer rim beside the cusp)
#: and how far (fractions of the radius) inside the band's outer edge it keeps.
CUSP_TEXT, CUSP_RIM = 0.022, 0.006
#: The sign glyphs' size, the angle labels' (ASC, MC …, bold) font size, and the font size of
#: an angle's position (``14°07′`` and its sign's glyph, a little larger) beside its label.
SIGN_GLYPH, ANGLE_TEXT, ANGLE_DEGREE_TEXT = 0.075, 0.04, 0.03
#: Advance widths of Noto Sans (the font the PNG is drawn with, and the SVG's first choice), in
#: thousandths of the font size, of the characters the wheel's labels use (read from the
#: bundled fonts' hmtx tables); ``0`` to ``9`` share one width. Anything else counts as 0.6.
REGULAR_ADVANCE = {**dict.fromkeys("0123456789", 572), "°": 428, "′": 232, " ": 260, "R": 622, "℞": 620}
BOLD_ADVANCE = {"A": 690, "S": 551, "C": 637, "M": 943, "D": 740, "I": 389}
#: A line of label text's height, as a fraction of its font size (the digits' ink, 0.714,
#: and a little room), and the space between a label and its R (of the font size).
TEXT_HEIGHT, RETROGRADE_SPACE = 0.8, 0.2
#: The space kept between a glyph and its label, and between units (or a unit and a cusp
#: line it keeps clear of), as fractions of the radius (scaled with the unit's tier).
LABEL_GAP, UNIT_GAP = 0.012, 0.016
#: The forms of a body's label, fullest first: degree and minute (``11°06′``), the degree
#: alone (``11°``), the retrograde mark alone (``℞``, nothing for a direct body), none (the
#: glyph alone); each with ℞ when the body is retrograde but the last. The ``<title>`` and the
#: positions table keep the whole position.
LABEL_FORMS = ("full", "degree", "mark", "none")


@dataclass(frozen=True)
class PointRing:
    """Where one ring of bodies is drawn, as fractions of the wheel's radius: the circle its
    marks stand on (inside it), the outermost reach of its glyphs (the first tier's tops), the
    innermost reach of its units (the last tier's labels), and its glyphs' size and labels'
    font size at full scale (a crowded stretch's tiers are scaled down from them). With
    ``least_glyph`` and ``least_text`` (a legible ring, ``legible``: ``placement.py``), no glyph
    is drawn smaller than the one and no label's font than the other: a crowded stretch's
    labels drop their minutes, then themselves, before its glyphs shrink below the least."""

    edge: float
    top: float
    floor: float
    glyph_size: float
    text_size: float
    least_glyph: float | None = None
    least_text: float | None = None


#: The single wheel's one ring, under the zodiac band, down to the house numbers: its glyphs
#: as large as the sign glyphs.
SINGLE_RING = PointRing(ZODIAC_INNER, 0.79, 0.625, SIGN_GLYPH, 0.032)
#: A bi-wheel's legibility, in pixels at any size: no glyph under 10 px (at 400 px two thirds
#: of a sign glyph's 14.7 px, the least at which Noto Sans Symbols' planets keep their
#: distinguishing strokes apart: ♃ from ♄, ☿ from ♀), no label's font under 7 px (the
#: label's full size at 400 px, its digits 5 px tall).
LEAST_GLYPH_PX, LEAST_TEXT_PX = 10.0, 7.0
#: The wheel's radius as a share of half its size (the drawing's margin).
RADIUS_SHARE = 0.98
#: A bi-wheel's rings at their full proportions (from 641 px up, and on any bi-wheel whose
#: inner ring is not crowded: ``biwheel_rings``): the outer chart's under the zodiac band, then
#: a circle dividing the rings, the inner chart's under it, then the house numbers and the
#: aspect circle. Glyphs are a little smaller than the single wheel's so both rings fit; labels
#: a little larger, so that they read at 400 px (7 px), and never smaller (``legible``).
BI_OUTER_RING = PointRing(ZODIAC_INNER, 0.79, BI_DIVIDER + 0.008, 0.068, 0.036)
BI_INNER_RING = PointRing(BI_DIVIDER, BI_DIVIDER - 0.03, 0.398, 0.068, 0.036)
#: On a smaller bi-wheel whose inner ring is crowded the inner ring keeps at least
#: BI_INNER_RING_PX of depth: the aspect circle and the house numbers' ring shrink to make
#: room, the outer ring and the divider staying where they are (the inner ring, nearer the
#: centre, has the shorter arcs: its crowded stretches need the tiers; giving the outer ring a
#: share moves the inner ring's tiers in, onto shorter arcs, and measured worse). The circle is
#: never below BI_LEAST_ASPECT_RING (47 px at 400 px, its lines still apart: a smaller one,
#: 0.18, left 46 glyphs of 2,310 under 10 px rather than 71, with its lines a knot); 54 px is
#: about the depth that floor leaves at 400 px (0.272 of 196 px), so the inner ring deepens
#: from the full proportions at 641 px to the floor at 400 px and stays there below.
BI_INNER_RING_PX, BI_LEAST_ASPECT_RING = 54.0, 0.24


@dataclass(frozen=True)
class BiwheelRings:
    """Where a bi-wheel ``size`` pixels wide draws its rings (``biwheel_rings``): the outer
    chart's and the inner chart's rings of bodies, each legible (``legible``), and the radii
    of the circle dividing them and of the aspect circle, fractions of the wheel's radius."""

    outer: PointRing
    inner: PointRing
    divider: float
    aspect_ring: float


def biwheel_rings(size: int, *, crowded: bool) -> BiwheelRings:
    """Return a bi-wheel's rings at ``size`` pixels: BI_OUTER_RING, BI_INNER_RING, BI_DIVIDER and
    BI_ASPECT_RING, unless its inner ring is ``crowded`` (``layout.biwheel_layout``: its labels
    do not all fit whole in those) and less than BI_INNER_RING_PX deep (under 641 px): then the
    aspect circle as much smaller as makes it so (down to BI_LEAST_ASPECT_RING, reached at
    400 px), the inner ring's floor moving in with it."""
    radius = size / 2 * RADIUS_SHARE
    depth = BI_INNER_RING.top - BI_INNER_RING.floor
    wanted = max(0.0, BI_INNER_RING_PX / radius - depth) if crowded else 0.0
    shift = min(wanted, BI_ASPECT_RING - BI_LEAST_ASPECT_RING)
    inner = dataclasses.replace(BI_INNER_RING, floor=BI_INNER_RING.floor - shift)
    return BiwheelRings(legible(BI_OUTER_RING, size), legible(inner, size), BI_DIVIDER, BI_ASPECT_RING - shift)


def legible(ring: PointRing, size: int) -> PointRing:
    """Return ``ring`` drawn on a wheel ``size`` pixels wide with its least glyph and label
    font (fractions of the radius) LEAST_GLYPH_PX and LEAST_TEXT_PX at that size, or its
    full sizes where those are smaller."""
    radius = size / 2 * RADIUS_SHARE
    return PointRing(
        ring.edge,
        ring.top,
        ring.floor,
        ring.glyph_size,
        ring.text_size,
        min(ring.glyph_size, LEAST_GLYPH_PX / radius),
        min(ring.text_size, LEAST_TEXT_PX / radius),
    )


def screen_angle(longitude_deg: float, ascendant_deg: float) -> float:
    """Return the screen angle (degrees [0, 360), counterclockwise from 3 o'clock) at which the
    longitude ``longitude_deg`` is drawn on a wheel whose Ascendant is ``ascendant_deg``."""
    return normalize_deg(180.0 + longitude_deg - ascendant_deg)


def house_number_radius(house: int, size: float, aspect_ring: float, angle_deg: float) -> float:
    """Return the radius (fraction of the wheel's) of the centre of the house number ``house``
    set at ``size`` at the screen angle ``angle_deg``: its box HOUSE_GAP outside the aspect
    circle ``aspect_ring`` (as far out as the box reaches along the radius there)."""
    width, height = text_width(str(house), size), size * TEXT_HEIGHT
    return aspect_ring + HOUSE_GAP + along(width, height, angle_deg) / 2


def position_label(degree: int, minute: int, form: str = "full") -> str:
    """Return a body's label in ``form`` (``LABEL_FORMS``), its retrograde mark aside: its
    degree and minute (``11°06′``), its degree alone (``11°``) or nothing (``mark``, ``none``)."""
    return {"full": f"{degree}°{minute:02d}′", "degree": f"{degree}°"}.get(form, "")


def text_box(degree: int, minute: int, retrograde: bool, text_size: float, form: str = "full") -> tuple[float, float]:
    """Return the width and height (in the units of ``text_size``) of a label ``D°MM′`` (or
    ``D°`` in the form ``degree``; nothing in the forms ``mark`` and ``none``), and its ℞ when
    ``retrograde`` (but in the form ``none``), set at ``text_size``: (0, 0) when nothing."""
    if form == "none" or (form == "mark" and not retrograde):
        return 0.0, 0.0
    width = text_width(position_label(degree, minute, form), text_size)
    if retrograde:
        width += (text_size * RETROGRADE_SPACE if width else 0.0) + text_width("℞", text_size)
    return width, text_size * TEXT_HEIGHT


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """Return the advance width of ``text`` set in Noto Sans at ``size`` (in the units of
    ``size``)."""
    advance = BOLD_ADVANCE if bold else REGULAR_ADVANCE
    return size * sum(advance.get(character, 600) for character in text) / 1000.0


def across(width: float, height: float, angle_deg: float) -> float:
    """Return how far an upright box ``width`` by ``height`` reaches across the radius (along
    the tangent) at screen angle ``angle_deg``, in the box's units."""
    theta = math.radians(angle_deg)
    return width * abs(math.sin(theta)) + height * abs(math.cos(theta))


def along(width: float, height: float, angle_deg: float) -> float:
    """Return how far an upright box ``width`` by ``height`` reaches along the radius at screen
    angle ``angle_deg``, in the box's units."""
    theta = math.radians(angle_deg)
    return width * abs(math.cos(theta)) + height * abs(math.sin(theta))


def label_radius(box: tuple[float, float], glyph_radius: float, glyph_size: float, angle_deg: float) -> float:
    """Return the radius (fraction of the wheel's) of the centre of a label ``box`` drawn at
    ``angle_deg`` under a glyph ``glyph_size`` wide centred at ``glyph_radius``: just inside
    the glyph, as far in as the box reaches along the radius there (the gap scaled with the
    glyph)."""
    scale = glyph_size / SINGLE_RING.glyph_size
    return glyph_radius - glyph_size / 2 - LABEL_GAP * scale - along(*box, angle_deg) / 2


def signed_deg(angle_deg: float) -> float:
    """Return an angle difference (degrees) in [-180, 180)."""
    return (angle_deg + 180.0) % 360.0 - 180.0


def degree_minute(within_sign_deg: float) -> tuple[int, int]:
    """Return the whole degree and minute of an angle within a sign (degrees [0, 30)), the
    minute truncated as an ephemeris prints it (29°59′ is never rounded up to 30°)."""
    total = int(within_sign_deg * 60.0)
    return total // 60, total % 60
