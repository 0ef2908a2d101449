"""Parashara's sixteen divisional charts (vargas, shodashavarga): the sign a sidereal
longitude falls in when its sign is cut into n parts and each part is given a sign."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.errors import UnreadableValue
from kernel.zodiac import SIGN_KEYS

# Sign classes. Odd signs are Aries, Gemini ... (index 0, 2, ...); movable (chara) Aries,
# Cancer, Libra, Capricorn, fixed (sthira) the next and dual (dvisvabhava) the third of each
# quadrant; the elements run fire, earth, air, water from Aries (BPHS ch. 4).
ODD, EVEN = "odd", "even"
MOVABLE, FIXED, DUAL = "movable", "fixed", "dual"
FIRE, EARTH, AIR, WATER = "fire", "earth", "air", "water"
ANY = "any"

# The rules of the sixteen vargas. Source: Brihat Parashara Hora Shastra (R. Santhanam tr.,
# 1984), ch. 6 "Sixteen divisions of a sign" (shodashavarga), sl. 5-41, in its plain reading
# (the "traditional Parashara" method PyJHora also names as its first). Each row: code, name,
# number of equal parts, the classes the rule tells apart, and for each class the first
# part's sign, either counted from the sign itself (("from_sign", k, step): the (k+1)-th from
# it) or fixed (("sign", s, step): sign s, 0 Aries), and the step in signs from one part's
# sign to the next (-1: backwards).
#   D1  rasi:            the sign itself.
#   D2  hora:            odd signs: the Sun's hora (Leo) then the Moon's (Cancer); even: the reverse (sl. 5-6).
#   D3  drekkana:        the sign, the 5th and the 9th from it (sl. 7-8).
#   D4  chaturthamsa:    the sign, the 4th, 7th and 10th from it (sl. 9).
#   D7  saptamsa:        odd from the sign, even from the 7th (sl. 10).
#   D9  navamsa:         movable from the sign, fixed from the 9th, dual from the 5th (sl. 11).
#   D10 dashamsa:        odd from the sign, even from the 9th (sl. 12).
#   D12 dvadashamsa:     from the sign (sl. 13).
#   D16 shodashamsa:     movable from Aries, fixed from Leo, dual from Sagittarius (sl. 14).
#   D20 vimshamsa:       movable from Aries, fixed from Sagittarius, dual from Leo (sl. 15).
#   D24 chaturvimshamsa: odd from Leo, even from Cancer (sl. 16).
#   D27 bhamsa:          fire from Aries, earth from Cancer, air from Libra, water from Capricorn (sl. 17).
#   D30 trimshamsa:      unequal parts, TRIMSHAMSA below (sl. 18-19).
#   D40 khavedamsa:      odd from Aries, even from Libra (sl. 20).
#   D45 akshavedamsa:    movable from Aries, fixed from Leo, dual from Sagittarius (sl. 21).
#   D60 shashtyamsa:     from the sign (sl. 22-23: the count of halves of a degree from the sign).
VARGA_TABLE: tuple[tuple[str, str, int, str, dict[str, tuple[str, int, int]]], ...] = (
    ("D1", "rasi", 1, ANY, {ANY: ("from_sign", 0, 1)}),
    ("D2", "hora", 2, ODD, {ODD: ("sign", 4, -1), EVEN: ("sign", 3, 1)}),
    ("D3", "drekkana", 3, ANY, {ANY: ("from_sign", 0, 4)}),
    ("D4", "chaturthamsa", 4, ANY, {ANY: ("from_sign", 0, 3)}),
    ("D7", "saptamsa", 7, ODD, {ODD: ("from_sign", 0, 1), EVEN: ("from_sign", 6, 1)}),
    (
        "D9",
        "navamsa",
        9,
        MOVABLE,
        {MOVABLE: ("from_sign", 0, 1), FIXED: ("from_sign", 8, 1), DUAL: ("from_sign", 4, 1)},
    ),
    ("D10", "dashamsa", 10, ODD, {ODD: ("from_sign", 0, 1), EVEN: ("from_sign", 8, 1)}),
    ("D12", "dvadashamsa", 12, ANY, {ANY: ("from_sign", 0, 1)}),
    ("D16", "shodashamsa", 16, MOVABLE, {MOVABLE: ("sign", 0, 1), FIXED: ("sign", 4, 1), DUAL: ("sign", 8, 1)}),
    ("D20", "vimshamsa", 20, MOVABLE, {MOVABLE: ("sign", 0, 1), FIXED: ("sign", 8, 1), DUAL: ("sign", 4, 1)}),
    ("D24", "chaturvimshamsa", 24, ODD, {ODD: ("sign", 4, 1), EVEN: ("sign", 3, 1)}),
    (
        "D27",
        "bhamsa",
        27,
        FIRE,
        {FIRE: ("sign", 0, 1), EARTH: ("sign", 3, 1), AIR: ("sign", 6, 1), WATER: ("sign", 9, 1)},
    ),
    ("D30", "trimshamsa", 30, ODD, {}),
    ("D40", "khavedamsa", 40, ODD, {ODD: ("sign", 0, 1), EVEN: ("sign", 6, 1)}),
    ("D45", "akshavedamsa", 45, MOVABLE, {MOVABLE: ("sign", 0, 1), FIXED: ("sign", 4, 1), DUAL: ("sign", 8, 1)}),
    ("D60", "shashtyamsa", 60, ANY, {ANY: ("from_sign", 0, 1)}),
)

# Source: BPHS ch. 6 sl. 18-19. The trimshamsas of an odd sign: 5° Mars (Aries), 5° Saturn
# (Aquarius), 8° Jupiter (Sagittarius), 7° Mercury (Gemini), 5° Venus (Libra); of an even
# sign the same lords in the reverse order, each in its even sign: 5° Venus (Taurus),
# 7° Mercury (Virgo), 8° Jupiter (Pisces), 5° Saturn (Capricorn), 5° Mars (Scorpio).
# Rows: (degrees of the part, its sign, 0 Aries).
TRIMSHAMSA: dict[str, tuple[tuple[int, int], ...]] = {
    ODD: ((5, 0), (5, 10), (8, 8), (7, 2), (5, 6)),
    EVEN: ((5, 1), (7, 5), (8, 11), (5, 9), (5, 7)),
}


@dataclass(frozen=True)
class Varga:
    """One divisional chart: its ``code`` (D9), ``name`` (navamsa), number of ``parts`` of a
    sign, the sign ``classes`` its rule tells apart, and for each class how its first part's
    sign is found and the step in signs from one part to the next (VARGA_TABLE)."""

    code: str
    name: str
    parts: int
    classes: str
    first: dict[str, tuple[str, int, int]]


VARGAS: tuple[Varga, ...] = tuple(Varga(*row) for row in VARGA_TABLE)
VARGA_CODES: tuple[str, ...] = tuple(v.code for v in VARGAS)
_BY_CODE = {v.code: v for v in VARGAS}


def sign_class(sign: int, classes: str) -> str:
    """Return the class of sign ``sign`` (0 Aries) under ``classes`` (odd/even, movable/fixed/dual, the element, or
    any)."""
    if classes == ODD:
        return ODD if sign % 2 == 0 else EVEN
    if classes == MOVABLE:
        return (MOVABLE, FIXED, DUAL)[sign % 3]
    if classes == FIRE:
        return (FIRE, EARTH, AIR, WATER)[sign % 4]
    return ANY


def parse_varga(text: str) -> Varga:
    """Return the varga a code names (D9, d9; any case); another is UnreadableValue listing the codes."""
    found = _BY_CODE.get(text.strip().upper())
    if found is None:
        raise UnreadableValue(
            wording=lambda param: f"{param}: {text!r} is not one of Parashara's sixteen vargas.",
            suggesting=lambda param: f"Send {param} as codes among {', '.join(VARGA_CODES)}, comma-separated.",
        )
    return found


def varga_sign(varga: Varga, longitude_deg: float) -> int:
    """Return the sign (0 Aries .. 11 Pisces) of a sidereal longitude (degrees) in ``varga``."""
    longitude = longitude_deg % 360.0
    sign = min(int(longitude // 30.0), 11)
    degree = longitude - sign * 30.0
    kind = sign_class(sign, varga.classes)
    if varga.code == "D30":
        bound = 0
        for width, part_sign in TRIMSHAMSA[kind]:
            bound += width
            if degree < bound:
                return part_sign
        return TRIMSHAMSA[kind][-1][1]
    part = min(int(degree * varga.parts / 30.0), varga.parts - 1)
    how, value, step = varga.first[kind]
    first = sign + value if how == "from_sign" else value
    return (first + part * step) % 12


def varga_sign_name(varga: Varga, longitude_deg: float) -> str:
    """Return the lowercase name of :func:`varga_sign`."""
    return SIGN_KEYS[varga_sign(varga, longitude_deg)]
