"""The seven Hermetic lots and the chart's sect (interface.md, GET/POST /v1/lots).

Formulas and evaluation order are the spec's table (the lots of Paulus Alexandrinus's
Introduction, ch. 23, as Valens and Paulus give them): by day Ascendant + A − B, by night
Ascendant + B − A. A lot built on Fortune or Spirit comes after it and names it by its id.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.errors import UnreadableValue
from kernel.zodiac import normalize_deg


@dataclass(frozen=True)
class LotDefinition:
    """A lot: ``id`` (snake_case), display ``name``, keyword, and the day formula's operands
    (body or lot id): longitude = Ascendant + ``day_a`` − ``day_b`` by day, reversed by night."""

    id: str
    name: str
    keyword: str
    day_a: str
    day_b: str


#: In evaluation order (interface.md, /v1/lots).
LOTS: tuple[LotDefinition, ...] = (
    LotDefinition("part_of_fortune", "Part of Fortune", "fortune", "moon", "sun"),
    LotDefinition("part_of_spirit", "Part of Spirit", "spirit", "sun", "moon"),
    LotDefinition("part_of_eros", "Part of Eros", "eros", "venus", "part_of_spirit"),
    LotDefinition("part_of_necessity", "Part of Necessity", "necessity", "part_of_fortune", "mercury"),
    LotDefinition("part_of_courage", "Part of Courage", "courage", "part_of_fortune", "mars"),
    LotDefinition("part_of_victory", "Part of Victory", "victory", "jupiter", "part_of_spirit"),
    LotDefinition("part_of_nemesis", "Part of Nemesis", "nemesis", "part_of_fortune", "saturn"),
)
_BY_ID = {lot.id: lot for lot in LOTS}
_BY_KEYWORD = {lot.keyword: lot for lot in LOTS}
#: The keyword that asks for all seven lots.
ALL_LOTS_KEYWORD = "default"


@dataclass(frozen=True)
class Lot:
    """A computed lot: ``longitude`` in degrees [0, 360) on the chart's zodiac, and its formula
    as used (``body_a`` and ``body_b`` already swapped at night, ``reversed`` True then; an
    operand that is a lot is named by its id and computed earlier)."""

    id: str
    name: str
    longitude: float
    body_a: str
    body_b: str
    ascendant: float
    reversed: bool


def is_day_chart(sun_longitude_deg: float, ascendant_deg: float) -> bool:
    """Return whether the Sun is on or above the horizon, measured along the ecliptic from the
    Ascendant: above is the half from the Descendant through the Midheaven to the Ascendant
    (the Sun at the Ascendant or the Descendant counts as above)."""
    behind = normalize_deg(ascendant_deg - sun_longitude_deg)
    return behind <= 180.0


def parse_lots(names: list[str]) -> tuple[str, ...]:
    """Return the lot ids asked for by keyword (``fortune``), id (``part_of_fortune``) or
    ``default`` (all seven), with the lots they are built on brought along, each once, in
    evaluation order. An unknown name raises UnreadableValue."""
    wanted: set[str] = set()
    for name in names:
        key = name.strip().lower()
        if key == ALL_LOTS_KEYWORD:
            wanted.update(_BY_ID)
            continue
        lot = _BY_KEYWORD.get(key) or _BY_ID.get(key)
        if lot is None:
            raise UnreadableValue(
                f"Unknown lot {name!r}.",
                suggestion=f"Use {ALL_LOTS_KEYWORD} or any of: {', '.join(known.keyword for known in LOTS)}.",
            )
        wanted.add(lot.id)
    for lot in reversed(LOTS):  # dependencies always come earlier in the table
        if lot.id in wanted:
            wanted.update(operand for operand in (lot.day_a, lot.day_b) if operand in _BY_ID)
    return tuple(lot.id for lot in LOTS if lot.id in wanted)


def bodies_needed(lot_ids: tuple[str, ...]) -> tuple[str, ...]:
    """Return the bodies the lots' formulas use (always the Sun and the Moon, for the sect and
    the lots built on Fortune or Spirit), in the order first used."""
    needed: list[str] = []
    for lot_id in lot_ids:
        lot = _BY_ID[lot_id]
        for operand in (lot.day_a, lot.day_b):
            if operand not in _BY_ID and operand not in needed:
                needed.append(operand)
    return tuple(needed)


def compute_lots(lot_ids: tuple[str, ...], longitudes: dict[str, float], ascendant_deg: float, day: bool) -> list[Lot]:
    """Return the lots ``lot_ids`` (as :func:`parse_lots` gives them) from body longitudes and
    the Ascendant (degrees, one zodiac), by day or by night. Every body :func:`bodies_needed`
    names must be in ``longitudes`` (KeyError otherwise)."""
    known = dict(longitudes)
    lots: list[Lot] = []
    for lot_id in lot_ids:
        lot = _BY_ID[lot_id]
        a, b = (lot.day_a, lot.day_b) if day else (lot.day_b, lot.day_a)
        longitude = normalize_deg(ascendant_deg + known[a] - known[b])
        known[lot.id] = longitude
        lots.append(Lot(lot.id, lot.name, longitude, a, b, ascendant_deg, not day))
    return lots
