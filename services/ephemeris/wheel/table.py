"""The positions-and-cusps table a wheel may carry beside or under it (``table=aside|below``),
as kerykeion's report sheet has it: plain rows, no SVG (``table_drawing.py`` draws them).

Two blocks: the bodies, each with its position in its sign (``D°MM′``, the sign drawn as its
glyph), a retrograde mark and its house, in the order the wheel lists them (a bi-wheel's row
gives the inner chart's place, then the outer chart's, each in its own chart's house); and the
houses: each cusp's position, then the Ascendant's and the Midheaven's. Degrees and minutes
are truncated, as the wheel's labels and an ephemeris print them (29°59′ is never 30°).
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.zodiac import sign_key_of
from services.ephemeris.wheel.layout import WheelLayout, WheelPoint

#: The angles whose positions the houses' block ends with: the Ascendant and the Midheaven
#: (the Descendant and the IC are their opposites, to the degree and minute).
TABLE_ANGLES = ("asc", "mc")


@dataclass(frozen=True)
class Placement:
    """Where one point stands: its whole degree and minute within its sign, the sign's key
    (aries ...), whether it is retrograde, and its house (0 for a cusp or an angle)."""

    degree: int
    minute: int
    sign: str
    retrograde: bool = False
    house: int = 0

    @property
    def text(self) -> str:
        """Return the degree and minute: ``15°42′``."""
        return f"{self.degree}°{self.minute:02d}′"


@dataclass(frozen=True)
class BodyRow:
    """One body's row: its name and its placement on each ring (one on a single wheel; the
    inner then the outer chart's on a bi-wheel)."""

    body: str
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class HouseRow:
    """One row of the houses' block: a cusp (``house`` its number, ``angle`` "") or an angle
    (``angle`` asc or mc, ``house`` 0), and its placement."""

    house: int
    angle: str
    placement: Placement


@dataclass(frozen=True)
class PositionsTable:
    """A wheel's table: the bodies' rows and the houses' rows, and how many rings each body
    row covers (1 or 2)."""

    bodies: tuple[BodyRow, ...]
    houses: tuple[HouseRow, ...]
    rings: int


def positions_table(layout: WheelLayout) -> PositionsTable:
    """Return the table of the wheel ``layout``: a row per body of its inner (or only) ring,
    with the same body's placement on the outer ring beside it on a bi-wheel, and a row per
    cusp then per angle of TABLE_ANGLES."""
    outer = {point.body: point for point in layout.outer_points}
    bodies = []
    for point in layout.points:
        placements = (_placement(point),)
        if layout.is_biwheel:
            placements += (_placement(outer[point.body]),) if point.body in outer else ()
        bodies.append(BodyRow(point.body, placements))
    # A body only the outer chart has (none today: both charts are cast with one body list).
    inner = {point.body for point in layout.points}
    bodies += [BodyRow(p.body, (_placement(p),)) for p in layout.outer_points if p.body not in inner]
    houses = [HouseRow(cusp.house, "", _degree_in_sign(cusp.longitude)) for cusp in layout.cusps]
    houses += [HouseRow(0, a.name, _degree_in_sign(a.longitude)) for a in layout.angles if a.name in TABLE_ANGLES]
    return PositionsTable(tuple(bodies), tuple(houses), 2 if layout.is_biwheel else 1)


def _placement(point: WheelPoint) -> Placement:
    return Placement(point.degree, point.minute, point.sign, point.retrograde, point.house)


def _degree_in_sign(longitude_deg: float) -> Placement:
    sign, within = sign_key_of(longitude_deg)
    total = int(within * 60.0)
    return Placement(total // 60, total % 60, sign)
