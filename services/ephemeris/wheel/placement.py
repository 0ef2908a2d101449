"""Where the bodies of one ring of a chart wheel stand: each body's unit (its glyph and, under
it along the same angle, its label) placed by its screen angle, radius, tier and scale.

Truth before tidiness: a unit never leaves its body's sign and house (it stands within the arc
both share, SECTOR_MARGIN_DEG inside it), nor, where there is room, the part of the ring
between the cusp and angle lines its body is in (it stands clear of those lines); units that do
not fit side by side stack in tiers, a second and third ring of glyphs further in, their sizes
scaled down as far as the ring's depth needs. On a legible ring (a bi-wheel's:
``PointRing.least_glyph``) the labels keep their size and the glyphs shrink no further than
the ring's least glyph: a stretch that does not fit so drops its labels' minutes, then its
labels but the retrograde marks, then those, and only when its bare glyphs do not fit at that
size either are they drawn smaller. Where a line cannot be kept clear (a house narrower than a
glyph), the line is drawn with a gap across the unit (``layout.line_pieces``).

How far a unit must stand from its neighbours depends on how wide its label is where it
stands: upright text is wide across the top and bottom of the wheel and narrow (one line high)
at 3 and 9 o'clock (``geometry.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from kernel.zodiac import normalize_deg, sign_key_of, sign_of
from services.ephemeris.wheel.geometry import (
    LABEL_FORMS,
    LABEL_GAP,
    UNIT_GAP,
    PointRing,
    across,
    along,
    degree_minute,
    label_radius,
    position_label,
    screen_angle,
    signed_deg,
    text_box,
)
from services.ephemeris.wheel.points import ChartPoint

#: How far (degrees) inside its sign's and house's shared arc a unit's angle stays (less when
#: the arc is narrower than four times this: then a quarter of it).
SECTOR_MARGIN_DEG = 0.5
#: Rounds of pushing crowded units of one tier apart (each moves a crowded pair half the way),
#: and how short of its room (degrees) a pair may stay before the exact pass closes it.
PACK_ROUNDS, PACK_TOLERANCE_DEG = 60, 1e-4
#: The most tiers a crowded stretch of a ring is stacked in, the least scale tried for its
#: units, and how many halvings find the largest scale that fits.
MOST_TIERS, MIN_SCALE, SCALE_STEPS = 6, 0.2, 7


@dataclass(frozen=True)
class WheelPoint:
    """One point on a ring (a body, a south node, a lot, the Vertex: ``points.py``): its name,
    longitude (degrees, chart's zodiac), sign, degree and minute within the sign, house,
    whether retrograde, the screen angle of its true longitude, the screen angle its glyph and
    label are drawn at (within its sign and house), the radius (fraction of the wheel's) of its
    label's centre, of its glyph's centre, its glyph's size and label's font size (fractions of
    the radius), its tier (0 outermost), its kind (``points.POINT_KINDS``) and its label's form
    (``geometry.LABEL_FORMS``: full, degree, mark or none)."""

    body: str
    longitude: float
    sign: str
    degree: int
    minute: int
    house: int
    retrograde: bool
    angle_deg: float
    glyph_deg: float
    label_radius: float
    glyph_radius: float
    glyph_size: float
    text_size: float
    tier: int
    kind: str = "body"
    label_form: str = "full"

    @property
    def label(self) -> str:
        """Return the position's label in its form, degree then minute within the sign:
        ``11°06′`` (``11°`` in the form degree, empty in the form none)."""
        return position_label(self.degree, self.minute, self.label_form)


def label_box(point: WheelPoint) -> tuple[float, float]:
    """Return the width and height (fractions of the wheel's radius) of ``point``'s label at
    its own font size, its ℞ (when retrograde) included; nothing (0, 0) in the form none."""
    return text_box(point.degree, point.minute, point.retrograde, point.text_size, point.label_form)


def place_points(
    positions: list[ChartPoint], ascendant: float, ring: PointRing, lines: tuple[list[float], list[float]]
) -> tuple[WheelPoint, ...]:
    """Return one ring's bodies (``ring``, on a wheel turned by its ``ascendant``, degrees), each
    unit within its sign's and house's shared arc (the houses bounded by ``lines``' cusps,
    longitudes) and, where the ring has room, clear of the lines (``lines``' second list,
    longitudes) on either side of its body; crowded units stacked in tiers (``_place``)."""
    cusps, drawn_lines = lines
    turn = 180.0 - ascendant  # a longitude's screen angle is the longitude turned by this
    forms = [
        tuple(text_box(*degree_minute(sign_of(p.longitude)[1]), p.retrograde, ring.text_size, f) for f in LABEL_FORMS)
        for p in positions
    ]
    boxes = [f[0] for f in forms]
    sectors = []
    for position in positions:
        longitude = position.longitude
        sign_low = math.floor(longitude / 30.0) * 30.0
        house_low, house_high = arc_around(longitude, cusps)
        low, high = max(sign_low, house_low), min(sign_low + 30.0, house_high)
        margin = min(SECTOR_MARGIN_DEG, (high - low) / 4)
        sectors.append((low + margin, high - margin))
    drawn_lines = _clearable(positions, sectors, boxes, list(drawn_lines), turn, ring)
    segments: dict[float, list[int]] = {}
    arcs = []
    for index, position in enumerate(positions):
        segment = arc_around(position.longitude, drawn_lines)
        arcs.append((*sectors[index], segment))
        segments.setdefault(round(normalize_deg(segment[0]), 9), []).append(index)
    placed: dict[int, tuple[float, float, int, float]] = {}
    for members in segments.values():
        segment_low, segment_high = arcs[members[0]][2]
        # Unwrapped into the segment's own arc, in the order of the zodiac.
        unwrapped = {i: segment_low + (positions[i].longitude - segment_low) % 360.0 for i in members}
        members.sort(key=lambda i: (unwrapped[i], i))
        units = [
            _Unit(
                i,
                unwrapped[i],
                arcs[i][0] + unwrapped[i] - positions[i].longitude,
                arcs[i][1] + unwrapped[i] - positions[i].longitude,
                boxes[i],
                normalize_deg(unwrapped[i] + turn),
                forms[i],
            )
            for i in members
        ]
        place = _place if ring.least_glyph is None else _place_legibly
        placed.update(place(units, segment_low, segment_high, ring))
    points = []
    for index, position in enumerate(positions):
        sign, within = sign_key_of(position.longitude)
        degree, minute = degree_minute(within)
        at, radius, tier, scale, text_scale, form = placed[index]
        glyph_deg = normalize_deg(at + turn)
        glyph_size, text_size = ring.glyph_size * scale, ring.text_size * text_scale
        box = text_box(degree, minute, position.retrograde, text_size, form)
        # A glyph without a label: its (empty) label's place is the glyph's centre.
        label_at = label_radius(box, radius, glyph_size, glyph_deg) if box[0] else radius
        points.append(
            WheelPoint(
                position.body,
                position.longitude,
                sign,
                degree,
                minute,
                position.house,
                position.retrograde,
                screen_angle(position.longitude, ascendant),
                glyph_deg,
                label_at,
                radius,
                glyph_size,
                text_size,
                tier,
                position.kind,
                form,
            )
        )
    return tuple(points)


def _clearable(
    positions: list[ChartPoint],
    sectors: list[tuple[float, float]],
    boxes: list[tuple[float, float]],
    lines: list[float],
    turn: float,
    ring: PointRing,
) -> list[float]:
    """Return the ``lines`` (longitudes) the units keep clear of: all of them but those beside
    a unit whose sector (``sectors``, longitudes) leaves it no room to stand clear at full
    size; such a line is drawn with a gap across the units, and the units on both its sides are
    placed together."""
    halves = [
        _unit_width(
            _Unit(0, p.longitude, low, high, box, normalize_deg(p.longitude + turn)),
            ring.top - ring.glyph_size / 2,
            1.0,
            ring,
        )
        / 2
        for p, (low, high), box in zip(positions, sectors, boxes)
    ]
    for _ in range(len(lines) - 1):
        narrow = None
        for position, (low, high), half in zip(positions, sectors, halves):
            line_low, line_high = arc_around(position.longitude, lines)
            if max(low, line_low + half) > min(high, line_high - half):
                near_low = position.longitude - line_low < line_high - position.longitude
                narrow = normalize_deg(line_low if near_low else line_high)
                break
        if narrow is None:
            break
        lines = [line for line in lines if abs(signed_deg(line - narrow)) > 1e-9]
    return lines


@dataclass(frozen=True)
class _Unit:
    """A body's unit while it is placed: its index among the ring's bodies, its longitude
    unwrapped into its segment's arc, the least and greatest longitude its angle may take
    (its sign's and house's shared arc, within the margin), its label's box at full scale,
    its true screen angle (degrees), and its label's box at full size in each of
    ``geometry.LABEL_FORMS``."""

    index: int
    longitude: float
    low: float
    high: float
    box: tuple[float, float]
    screen_deg: float
    forms: tuple[tuple[float, float], ...] = ()


def arc_around(longitude: float, boundaries: list[float]) -> tuple[float, float]:
    """Return the arc (two longitudes, degrees, unwrapped: low ≤ ``longitude`` < high) between
    the two of ``boundaries`` that hold ``longitude``; a body on a boundary is in the arc it
    begins."""
    back = min((longitude - b) % 360.0 for b in boundaries)
    ahead = min((b - longitude) % 360.0 or 360.0 for b in boundaries)
    return longitude - back, longitude + ahead


Placement = dict[int, tuple[float, float, int, float, float, str]]


def _place(units: list[_Unit], low: float, high: float, ring: PointRing) -> Placement:
    """Return where the ``units`` of one segment (the arc ``low`` to ``high``, longitudes,
    between two lines) stand, by index: their longitude, glyph radius (fraction of the
    wheel's), tier and scale. One tier at full size when they fit side by side, each within its
    arc and clear of the lines; else the largest scale at which they fit in one tier, or in two
    (alternate units, in the order of the zodiac), three … (each tier count's scale at most what
    the ring's depth allows its tiers), the fewer tiers at equal scale. Glyphs and labels are
    scaled alike, every label full: (longitude, radius, tier, glyph scale, label scale, label
    form) by index."""
    reach = max(along(*u.box, u.screen_deg) for u in units)
    best: tuple[float, Placement] | None = None
    crowded: Placement = {}
    for tiers in range(1, MOST_TIERS + 1):
        depth = tiers * (ring.glyph_size + LABEL_GAP + reach) + (tiers - 1) * UNIT_GAP
        deepest = min(1.0, (ring.top - ring.floor) / depth)
        if best is not None and deepest <= best[0]:
            continue
        placed, fits = _tiers(units, low, high, ring, tiers, deepest, reach)
        if fits:
            best = (deepest, placed)
            if deepest == 1.0:
                break
            continue
        crowded = crowded or placed
        # The largest scale below the deepest at which these tiers fit.
        best = _largest_fitting(
            lambda scale, tiers=tiers: _tiers(units, low, high, ring, tiers, scale, reach),
            best[0] if best else MIN_SCALE,
            deepest,
            best,
        )
    return best[1] if best else crowded


def _largest_fitting(
    try_at: Callable[[float], tuple[Placement, bool]],
    least: float,
    most: float,
    best: tuple[float, Placement] | None,
) -> tuple[float, Placement] | None:
    """Return the (scale, placement) of the largest scale between ``least`` and ``most`` at
    which ``try_at`` fits, found by halving the interval SCALE_STEPS times; ``best`` (the
    placement at ``least``, or None) when none between fits."""
    for _ in range(SCALE_STEPS):
        middle = (least + most) / 2
        placed, fits = try_at(middle)
        if fits:
            least, best = middle, (middle, placed)
        else:
            most = middle
    return best


def _tiers(
    units: list[_Unit], low: float, high: float, ring: PointRing, tiers: int, scale: float, reach: float
) -> tuple[Placement, bool]:
    """Return ``_place``'s placement of ``units`` in ``tiers`` tiers at ``scale``, and whether
    every unit fits (if not, the nearest try, crowded); ``reach`` is the most any label reaches
    along the radius at full scale."""
    size = ring.glyph_size
    result: Placement = {}
    fits = True
    for tier in range(tiers):
        radius = ring.top - scale * (size / 2 + tier * (size + LABEL_GAP + reach + UNIT_GAP))
        members = units[tier::tiers]
        widths = [_unit_width(u, radius, scale, ring) for u in members]
        at, packed = _pack_within(members, widths, low, high)
        fits = fits and packed
        result.update({u.index: (x, radius, tier, scale, scale, "full") for u, x in zip(members, at)})
    return result, fits


def _place_legibly(units: list[_Unit], low: float, high: float, ring: PointRing) -> Placement:
    """Return where the ``units`` of one segment of a legible ring (``PointRing.least_glyph``)
    stand, as ``_place`` does, with their labels at full size and no glyph smaller than the
    ring's least: in the fullest label form (``geometry.LABEL_FORMS``) at which they fit at
    any glyph scale down to that least, at the largest such scale, in the fewest tiers at it.
    Only when the bare glyphs do not fit at the least size either are they drawn smaller."""
    least = ring.least_glyph / ring.glyph_size
    for form in LABEL_FORMS:
        placed = _legible_search(units, low, high, ring, form, least)
        if placed is not None:
            return placed
    return (
        _legible_search(units, low, high, ring, "none", MIN_SCALE)
        or _legible_tiers(units, low, high, ring, MOST_TIERS, MIN_SCALE, "none")[0]
    )


def _legible_search(
    units: list[_Unit], low: float, high: float, ring: PointRing, form: str, least: float
) -> Placement | None:
    """Return the placement of ``units`` with their labels in ``form``, at the largest glyph
    scale from ``least`` up to 1 at which they fit, in the fewest tiers at it; None when they
    fit at no such scale."""
    index = LABEL_FORMS.index(form)
    text = ring.least_text / ring.text_size
    reach = max(along(*u.forms[index], u.screen_deg) for u in units)
    size, gap = _glyph_depth(units, ring, form)
    depth = ring.top - ring.floor
    best: tuple[float, Placement] | None = None
    for tiers in range(1, MOST_TIERS + 1):
        # The largest glyph scale at which these tiers fit the ring's depth (``_legible_tiers``):
        # the labels scaled with the glyphs, or at their least size below it.
        deepest = depth / (tiers * (size + gap + UNIT_GAP + reach) - UNIT_GAP)
        if deepest < text:
            deepest = (depth - tiers * text * reach) / (tiers * (size + gap + UNIT_GAP) - UNIT_GAP)
        deepest = min(1.0, deepest)
        if deepest < least:
            break  # more tiers are only deeper
        if best is not None and deepest <= best[0]:
            continue
        placed, fits = _legible_tiers(units, low, high, ring, tiers, deepest, form)
        if fits:
            best = (deepest, placed)
            if deepest == 1.0:
                break
            continue
        floor = best[0] if best else least
        if best is None:
            placed, fits = _legible_tiers(units, low, high, ring, tiers, least, form)
            if not fits:
                continue
            best = (least, placed)
        # The largest scale between the floor and the deepest at which these tiers fit.
        best = _largest_fitting(
            lambda scale, tiers=tiers: _legible_tiers(units, low, high, ring, tiers, scale, form),
            floor,
            deepest,
            best,
        )
    return best[1] if best else None


def _legible_tiers(
    units: list[_Unit],
    low: float,
    high: float,
    ring: PointRing,
    tiers: int,
    scale: float,
    form: str,
) -> tuple[Placement, bool]:
    """Return the placement of ``units`` in ``tiers`` tiers with their glyphs at ``scale`` and
    their labels in ``form``, scaled alike but never below the ring's least label font, and
    whether every unit fits, the last tier's labels within the ring's depth (if not, the
    nearest try, crowded)."""
    index = LABEL_FORMS.index(form)
    text = max(scale, ring.least_text / ring.text_size)
    boxes = [(u.forms[index][0] * text, u.forms[index][1] * text) for u in units]
    reach = max(along(*box, u.screen_deg) for u, box in zip(units, boxes))
    size, gap = _glyph_depth(units, ring, form)
    step = scale * (size + gap + UNIT_GAP) + reach
    fits = ring.top - tiers * step + scale * UNIT_GAP >= ring.floor - 1e-9
    result: Placement = {}
    for tier in range(tiers):
        radius = ring.top - scale * size / 2 - tier * step
        members = list(range(tier, len(units), tiers))
        widths = [_unit_width(units[i], radius, scale, ring, boxes[i]) for i in members]
        # Straddling a line is for units too wide at full size (``_clearable``): in a deeper
        # tier a unit that cannot clear its line would meet the unit clearing it on its other
        # side, so these tiers do not fit.
        at, packed = _pack_within([units[i] for i in members], widths, low, high, straddle=False)
        fits = fits and packed
        result.update({units[i].index: (x, radius, tier, scale, text, form) for i, x in zip(members, at)})
    return result, fits


def _glyph_depth(units: list[_Unit], ring: PointRing, form: str) -> tuple[float, float]:
    """Return how deep (fraction of the radius, at full scale) a tier's glyph is, and the
    gap under it, for ``units`` with labels in ``form``: a labelled glyph's size and LABEL_GAP
    (its label keeps the next tier off its corners); where a glyph may stand bare (the forms
    mark and none), its square as far as it reaches along the radius where the units stand
    (and LABEL_GAP over a retrograde mark)."""
    if form in ("full", "degree"):
        return ring.glyph_size, LABEL_GAP
    bare = ring.glyph_size * max(along(1.0, 1.0, u.screen_deg) for u in units)
    return bare, (LABEL_GAP if form == "mark" else 0.0)


def _pack_within(
    members: list[_Unit], widths: list[float], low: float, high: float, *, straddle: bool = True
) -> tuple[list[float], bool]:
    """Return the longitudes of one tier's ``members`` (each ``widths`` degrees wide) packed
    between the lines at ``low`` and ``high``, each within its sector, and whether they fit
    (not when a unit cannot stand clear of the lines, unless ``straddle``)."""
    lows, highs = [], []
    for u, width in zip(members, widths):
        clear_low, clear_high = max(u.low, low + width / 2), min(u.high, high - width / 2)
        if clear_low > clear_high and not straddle:
            return [u.longitude for u in members], False
        # A unit wider than its arc between the lines keeps to its sector; the line is
        # drawn with a gap across it.
        lows.append(clear_low if clear_low <= clear_high else u.low)
        highs.append(clear_high if clear_low <= clear_high else u.high)
    gaps = [(a + b) / 2 for a, b in zip(widths, widths[1:])]
    return _pack([u.longitude for u in members], lows, highs, gaps)


def _unit_width(
    unit: _Unit, radius: float, scale: float, ring: PointRing, box: tuple[float, float] | None = None
) -> float:
    """Return the angle (degrees) a unit spans across the radius with its glyph centred at
    ``radius`` and scaled by ``scale``, the gap to a neighbour included: its glyph's square's
    and its label's box's reach across the radius, seen from their nearest edges. The label's
    box is its full one scaled alike, unless ``box`` gives it as drawn."""
    size, gap = ring.glyph_size * scale, UNIT_GAP * scale
    if box is None:
        box = (unit.box[0] * scale, unit.box[1] * scale)
    at = unit.screen_deg
    glyph = (across(size, size, at) + gap) / (radius - along(size, size, at) / 2)
    centre = label_radius(box, radius, size, at)
    label = (across(*box, at) + gap) / (centre - along(*box, at) / 2)
    return math.degrees(max(glyph, label))


def _pack(wanted: list[float], lows: list[float], highs: list[float], gaps: list[float]) -> tuple[list[float], bool]:
    """Return positions (degrees) as near ``wanted`` as crowding allows, each within its
    ``lows`` to ``highs`` and each neighbour at least ``gaps`` ahead of the one before, and
    whether that was possible (if not, the positions of the nearest try, crowded)."""
    count = len(wanted)
    shown = [min(max(w, lo), hi) for w, lo, hi in zip(wanted, lows, highs)]
    if _packed(shown, lows, highs, gaps):
        return shown, True
    # The tightest packing from the arcs' starts fits whenever any packing does.
    tight = []
    for k in range(count):
        tight.append(max(lows[k], tight[-1] + gaps[k - 1]) if k else lows[k])
    if not _packed(tight, lows, highs, gaps):
        return shown, False
    for _ in range(PACK_ROUNDS):
        moved = False
        for k in range(count - 1):
            short = gaps[k] - (shown[k + 1] - shown[k])
            if short > PACK_TOLERANCE_DEG:
                shown[k] = max(lows[k], shown[k] - short / 2)
                shown[k + 1] = min(highs[k + 1], shown[k + 1] + short / 2)
                moved = True
        if not moved:
            break
    # Exactly: pushed ahead where still short, then back where past the arc's end.
    for k in range(1, count):
        shown[k] = max(shown[k], shown[k - 1] + gaps[k - 1])
    shown[-1] = min(shown[-1], highs[-1])
    for k in range(count - 2, -1, -1):
        shown[k] = min(shown[k], highs[k], shown[k + 1] - gaps[k])
    return (shown, True) if _packed(shown, lows, highs, gaps) else (tight, True)


def _packed(shown: list[float], lows: list[float], highs: list[float], gaps: list[float]) -> bool:
    """Return whether ``shown`` keeps within ``lows`` and ``highs`` and its ``gaps``."""
    slack = 1e-9
    return all(lo - slack <= x <= hi + slack for x, lo, hi in zip(shown, lows, highs)) and all(
        b - a >= gap - slack for a, b, gap in zip(shown, shown[1:], gaps)
    )
