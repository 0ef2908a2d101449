"""Ashtakoota, the kundali match of North Indian practice: eight kootas read from the two
Moons' sidereal longitudes (nakshatra, sign and degree in it), each with its score out of its
maximum (varna 1, vashya 2, tara 3, yoni 4, graha maitri 5, gana 6, bhakoot 7, nadi 8: 36 in
all) and why; and the manglik status of a birth (Mars's house from the lagna, Moon and Venus).

The rules are those of Muhurta Chintamani (Daivajna Rama, 1600), Vivaha Prakarana, the
classical source of the kootas; each table below names where its numbers are read from. No
dosha cancellation is applied: every score is its table's (docs/vedic.md, "The match")."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.dignity_tables import TRADITIONAL_RULERS
from kernel.nakshatras import COUNT, nakshatra_of
from kernel.zodiac import SIGN_KEYS as SIGNS

GROOM, BRIDE = "groom", "bride"

# Source: Muhurta Chintamani, Vivaha Prakarana (varna by the element of the Moon's sign), as
# every modern tabulation reads it (e.g. astroswami.in and kundalimilan.in, "Varna"): water
# signs Brahmin, fire Kshatriya, earth Vaishya, air Shudra; ranked in that order. 1 point when
# the groom's varna is the bride's or above it, else 0.
VARNA_BY_ELEMENT = {"water": "brahmin", "fire": "kshatriya", "earth": "vaishya", "air": "shudra"}
VARNA_RANK = ("brahmin", "kshatriya", "vaishya", "shudra")
ELEMENTS = ("fire", "earth", "air", "water")  # Aries fire, Taurus earth ... round the zodiac

# Source: Muhurta Chintamani, Vivaha Prakarana (the five vashya classes), as tabulated at
# ranjanadikshit.com ("Kundali Milan"): Sagittarius's first 15° and Capricorn's last 15° are
# split off by the Moon's degree in the sign. Rows: (sign, class of its first half, of its
# second half).
VASHYA_BY_SIGN = (
    ("aries", "chatushpada", "chatushpada"),
    ("taurus", "chatushpada", "chatushpada"),
    ("gemini", "manava", "manava"),
    ("cancer", "jalachara", "jalachara"),
    ("leo", "vanachara", "vanachara"),
    ("virgo", "manava", "manava"),
    ("libra", "manava", "manava"),
    ("scorpio", "keeta", "keeta"),
    ("sagittarius", "manava", "chatushpada"),
    ("capricorn", "chatushpada", "jalachara"),
    ("aquarius", "manava", "manava"),
    ("pisces", "jalachara", "jalachara"),
)
VASHYA_CLASSES = ("chatushpada", "manava", "jalachara", "vanachara", "keeta")
# Source: saravali.de's vashya koota table, the one PyJHora 4.8.7 tabulates
# (jhora/horoscope/match/compatibility.py, VasiyaArray, "From Saravali.de"). Rows: the
# bride's class, columns: the groom's, both in VASHYA_CLASSES order; points out of 2.
VASHYA_POINTS = (
    (2.0, 0.5, 1.0, 0.0, 2.0),
    (0.5, 2.0, 0.0, 0.0, 0.0),
    (1.0, 0.0, 2.0, 2.0, 2.0),
    (0.0, 0.0, 2.0, 2.0, 0.0),
    (1.0, 0.0, 1.0, 0.0, 2.0),
)

# Source: Muhurta Chintamani, Vivaha Prakarana (tara or dina koota): count from one birth
# star to the other, inclusive, and take the remainder by 9; the taras 3 (vipat), 5 (pratyak)
# and 7 (vadha) are inauspicious. Each direction counted (bride to groom, groom to bride)
# gives 1.5 points when auspicious, so 3 in all.
TARAS = ("janma", "sampat", "vipat", "kshema", "pratyak", "sadhana", "vadha", "mitra", "parama_mitra")
BAD_TARAS = frozenset({3, 5, 7})
TARA_POINTS_EACH = 1.5

# Source: Muhurta Chintamani, Vivaha Prakarana (yoni koota): the animal of each nakshatra,
# Ashwini first, and the seven pairs of sworn enemies (horse-buffalo, elephant-lion,
# sheep-monkey, serpent-mongoose, dog-deer, cat-rat, cow-tiger), as freehoroscopesonline.in
# ("The Yoni Koota") lists them.
YONI_BY_NAKSHATRA = (
    "horse",
    "elephant",
    "sheep",
    "serpent",
    "serpent",
    "dog",
    "cat",
    "sheep",
    "cat",
    "rat",
    "rat",
    "cow",
    "buffalo",
    "tiger",
    "buffalo",
    "tiger",
    "deer",
    "deer",
    "dog",
    "monkey",
    "mongoose",
    "monkey",
    "lion",
    "horse",
    "lion",
    "cow",
    "elephant",
)
YONIS = (
    "horse",
    "elephant",
    "sheep",
    "serpent",
    "dog",
    "cat",
    "rat",
    "cow",
    "buffalo",
    "tiger",
    "deer",
    "monkey",
    "mongoose",
    "lion",
)
# Source: copied from PyJHora 4.8.7 (jhora/horoscope/match/compatibility.py, YoniArray), which
# names no source for it; it is laid out as saravali.de's yoni table, whose published page
# differs from it in two cells (an independent audit, 2026): we keep PyJHora's, whose scores
# tests/unit/kernel/test_ashtakoota.py compares ours with. 4 the same yoni, 3 friends, 2
# neutral, 1 enemies, 0 the sworn enemies above. Rows the bride's yoni, columns the groom's, in
# YONIS order (it is symmetric).
YONI_POINTS = (
    (4, 2, 2, 3, 2, 2, 2, 1, 0, 1, 1, 3, 2, 1),
    (2, 4, 3, 3, 2, 2, 2, 2, 3, 1, 2, 3, 2, 0),
    (2, 3, 4, 2, 1, 2, 1, 3, 3, 1, 2, 0, 3, 1),
    (3, 3, 2, 4, 2, 1, 1, 1, 1, 2, 2, 2, 0, 2),
    (2, 2, 1, 2, 4, 2, 1, 2, 2, 1, 0, 2, 1, 1),
    (2, 2, 2, 1, 2, 4, 0, 2, 2, 1, 3, 3, 2, 1),
    (2, 2, 1, 1, 1, 0, 4, 2, 2, 2, 2, 2, 1, 2),
    (1, 2, 3, 1, 2, 2, 2, 4, 3, 0, 3, 2, 2, 1),
    (0, 3, 3, 1, 2, 2, 2, 3, 4, 1, 2, 2, 2, 1),
    (1, 1, 1, 2, 1, 1, 2, 0, 1, 4, 1, 1, 2, 1),
    (1, 2, 2, 2, 0, 3, 2, 3, 2, 1, 4, 2, 2, 1),
    (3, 3, 0, 2, 2, 3, 2, 2, 2, 1, 2, 4, 3, 2),
    (2, 2, 3, 0, 1, 2, 1, 2, 2, 2, 2, 3, 4, 2),
    (1, 0, 1, 2, 1, 1, 2, 1, 1, 1, 1, 2, 2, 4),
)

# Source: Brihat Parashara Hora Shastra (R. Santhanam tr.), ch. 3 "Grahas' characters and
# description", sl. 55-58: the natural (naisargika) friends, neutrals and enemies of each
# planet. Rows: (planet, friends, enemies); the rest are neutral. The signs' lords are the
# seven classical domicile rulers, Jyotish's as Ptolemy's (kernel/dignity_tables.py).
NATURAL_RELATIONS = (
    ("sun", ("moon", "mars", "jupiter"), ("venus", "saturn")),
    ("moon", ("sun", "mercury"), ()),
    ("mars", ("sun", "moon", "jupiter"), ("mercury",)),
    ("mercury", ("sun", "venus"), ("moon",)),
    ("jupiter", ("sun", "moon", "mars"), ("mercury", "venus")),
    ("venus", ("mercury", "saturn"), ("sun", "moon")),
    ("saturn", ("mercury", "venus"), ("sun", "moon", "mars")),
)
SIGN_LORDS = TRADITIONAL_RULERS
# Source: Muhurta Chintamani, Vivaha Prakarana (graha maitri), as saravali.de and PyJHora
# 4.8.7 (raasi_adhipathi_array) tabulate it: the points of the two lords' relations, each
# read both ways (one lord, or friend-friend, 5; friend-neutral 4; neutral-neutral 3;
# friend-enemy 1; neutral-enemy 0.5; enemy-enemy 0).
MAITRI_POINTS = {
    frozenset({"friend"}): 5.0,
    frozenset({"friend", "neutral"}): 4.0,
    frozenset({"neutral"}): 3.0,
    frozenset({"friend", "enemy"}): 1.0,
    frozenset({"neutral", "enemy"}): 0.5,
    frozenset({"enemy"}): 0.0,
}

# Source: Muhurta Chintamani, Vivaha Prakarana (gana koota): the gana of each nakshatra,
# Ashwini first (deva, manushya or rakshasa), as astropankajseth.co.in ("Gana matching in
# horoscope") lists it.
GANA_BY_NAKSHATRA = (
    "deva",
    "manushya",
    "rakshasa",
    "manushya",
    "deva",
    "manushya",
    "deva",
    "deva",
    "rakshasa",
    "rakshasa",
    "manushya",
    "manushya",
    "deva",
    "rakshasa",
    "deva",
    "rakshasa",
    "deva",
    "rakshasa",
    "rakshasa",
    "manushya",
    "manushya",
    "deva",
    "rakshasa",
    "rakshasa",
    "manushya",
    "manushya",
    "deva",
)
GANAS = ("deva", "manushya", "rakshasa")
# Source: the gana table as astropankajseth.co.in ("Gana matching in horoscope") states it,
# groom by bride: a deva groom 6 with a deva or manushya bride, 0 with a rakshasa; a manushya
# groom 5 with a deva bride, 6 with a manushya, 0 with a rakshasa; a rakshasa groom 1 with a
# deva bride, 0 with a manushya, 6 with a rakshasa. Rows the bride's gana, columns the
# groom's, in GANAS order (PyJHora's gana_array is its transpose: docs/vedic.md).
GANA_POINTS = ((6, 5, 1), (6, 6, 0), (0, 0, 6))

# Source: Muhurta Chintamani, Vivaha Prakarana (bhakoot or rashi koota): the Moon signs 2/12
# (dvirdvadasha), 5/9 (navapanchama) or 6/8 (shadashtaka) from each other are inauspicious,
# 0 points; every other distance 7.
BAD_BHAKOOT = {
    2: "2/12 (dvirdvadasha)",
    12: "2/12 (dvirdvadasha)",
    5: "5/9 (navapanchama)",
    9: "5/9 (navapanchama)",
    6: "6/8 (shadashtaka)",
    8: "6/8 (shadashtaka)",
}
BHAKOOT_POINTS = 7.0

# Source: Muhurta Chintamani, Vivaha Prakarana (nadi koota): the nadi of each nakshatra,
# Ashwini first, adi (vata), madhya (pitta) or antya (kapha), zigzagging three by three; the
# same nadi is nadi dosha, 0 points, different nadis 8.
NADI_BY_NAKSHATRA = (
    "adi",
    "madhya",
    "antya",
    "antya",
    "madhya",
    "adi",
    "adi",
    "madhya",
    "antya",
    "antya",
    "madhya",
    "adi",
    "adi",
    "madhya",
    "antya",
    "antya",
    "madhya",
    "adi",
    "adi",
    "madhya",
    "antya",
    "antya",
    "madhya",
    "adi",
    "adi",
    "madhya",
    "antya",
)
NADI_POINTS = 8.0

# Source: the kuja (Mangal) dosha: Mars in the 1st, 2nd, 4th, 7th, 8th or 12th house (whole
# signs) from the lagna, the common North Indian reading; the South Indian counts from the Moon
# and Venus too. PyJHora's dosha.manglik counts the 4th, 7th, 8th and 12th and by default the
# 2nd, leaving out the 1st after Sanjay Rath (srath.com, "Mangalika dosha"). No exception
# (B. V. Raman's: Mars in its own sign, aspected by Jupiter ...) is applied.
MANGLIK_HOUSES = frozenset({1, 2, 4, 7, 8, 12})

KOOTAS = ("varna", "vashya", "tara", "yoni", "graha_maitri", "gana", "bhakoot", "nadi")
MAXIMA = {
    "varna": 1.0,
    "vashya": 2.0,
    "tara": 3.0,
    "yoni": 4.0,
    "graha_maitri": 5.0,
    "gana": 6.0,
    "bhakoot": 7.0,
    "nadi": 8.0,
}
TOTAL = sum(MAXIMA.values())

_VASHYA = {sign: (first, second) for sign, first, second in VASHYA_BY_SIGN}
_RELATIONS = {planet: (set(friends), set(enemies)) for planet, friends, enemies in NATURAL_RELATIONS}


@dataclass(frozen=True)
class MoonPlace:
    """Where a birth's Moon stands for the match: its sidereal ``longitude`` (degrees), its
    ``sign`` (lowercase), ``degree`` in it [0, 30), ``nakshatra`` 1-27 and its ``pada`` 1-4."""

    longitude: float
    sign: str
    degree: float
    nakshatra: int
    pada: int


@dataclass(frozen=True)
class Koota:
    """One koota: ``name``, ``score`` out of ``maximum`` points, the ``groom``'s and the
    ``bride``'s class in it (a varna, a yoni, a sign lord ...) and the ``reason`` in words."""

    name: str
    score: float
    maximum: float
    groom: str
    bride: str
    reason: str


@dataclass(frozen=True)
class Manglik:
    """Mars's whole-sign house counted from the lagna, the Moon and Venus (1-12), and whether
    each is in MANGLIK_HOUSES; ``manglik`` is the lagna's reading."""

    house_from_lagna: int
    house_from_moon: int
    house_from_venus: int

    @property
    def manglik(self) -> bool:
        return self.house_from_lagna in MANGLIK_HOUSES

    @property
    def from_moon(self) -> bool:
        return self.house_from_moon in MANGLIK_HOUSES

    @property
    def from_venus(self) -> bool:
        return self.house_from_venus in MANGLIK_HOUSES


def moon_place(longitude_deg: float) -> MoonPlace:
    """Return the sign, degree, nakshatra and pada of a sidereal Moon longitude (degrees)."""
    longitude = longitude_deg % 360.0
    sign = min(int(longitude // 30.0), 11)
    nakshatra = nakshatra_of(longitude)
    return MoonPlace(longitude, SIGNS[sign], longitude - 30.0 * sign, nakshatra.index, nakshatra.pada)


def count(start: int, end: int, total: int) -> int:
    """Return the place of ``end`` counted from ``start``, inclusive (start itself is 1), round
    a cycle of ``total`` (27 nakshatras, 12 signs)."""
    return (end - start) % total + 1


def varna(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the varna koota: 1 when the groom's varna ranks with the bride's or above."""
    his, hers = _varna(groom.sign), _varna(bride.sign)
    good = VARNA_RANK.index(his) <= VARNA_RANK.index(hers)
    reason = (
        f"the groom's varna ({his}) is {'the same as' if his == hers else 'above' if good else 'below'} the bride's "
        f"({hers})"
    )
    return Koota("varna", 1.0 if good else 0.0, MAXIMA["varna"], his, hers, reason)


def vashya(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the vashya koota: the bride's and groom's classes in VASHYA_POINTS."""
    his, hers = vashya_class(groom), vashya_class(bride)
    score = VASHYA_POINTS[VASHYA_CLASSES.index(hers)][VASHYA_CLASSES.index(his)]
    return Koota("vashya", score, MAXIMA["vashya"], his, hers, f"groom {his}, bride {hers}")


def vashya_class(moon: MoonPlace) -> str:
    """Return the vashya class of a Moon: its sign's, by the half of the sign it stands in."""
    first, second = _VASHYA[moon.sign]
    return first if moon.degree < 15.0 else second


def tara(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the tara koota: 1.5 for each direction whose tara is auspicious."""
    from_bride = (count(bride.nakshatra, groom.nakshatra, COUNT) - 1) % 9 + 1
    from_groom = (count(groom.nakshatra, bride.nakshatra, COUNT) - 1) % 9 + 1
    score = sum(TARA_POINTS_EACH for t in (from_bride, from_groom) if t not in BAD_TARAS)
    reason = (
        f"the groom's star is {TARAS[from_bride - 1]} tara ({from_bride}) from the bride's, "
        f"hers {TARAS[from_groom - 1]} tara ({from_groom}) from his; 3, 5 and 7 are inauspicious"
    )
    return Koota("tara", score, MAXIMA["tara"], TARAS[from_bride - 1], TARAS[from_groom - 1], reason)


def yoni(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the yoni koota: the two nakshatras' animals in YONI_POINTS."""
    his, hers = YONI_BY_NAKSHATRA[groom.nakshatra - 1], YONI_BY_NAKSHATRA[bride.nakshatra - 1]
    score = YONI_POINTS[YONIS.index(hers)][YONIS.index(his)]
    grade = {4: "the same yoni", 3: "friendly yonis", 2: "neutral yonis", 1: "inimical yonis", 0: "sworn enemies"}[
        score
    ]
    return Koota("yoni", float(score), MAXIMA["yoni"], his, hers, f"{his} and {hers}: {grade}")


def relation(planet: str, other: str) -> str:
    """Return ``other``'s natural relation to ``planet``: friend, neutral or enemy (BPHS ch. 3)."""
    friends, enemies = _RELATIONS[planet]
    return "friend" if other in friends else "enemy" if other in enemies else "neutral"


def graha_maitri(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the graha maitri koota: the Moon signs' lords' natural relations, both ways."""
    his, hers = SIGN_LORDS[SIGNS.index(groom.sign)], SIGN_LORDS[SIGNS.index(bride.sign)]
    if his == hers:
        return Koota("graha_maitri", 5.0, MAXIMA["graha_maitri"], his, hers, f"one lord, {his}")
    to_hers, to_his = relation(his, hers), relation(hers, his)
    score = MAITRI_POINTS[frozenset({to_hers, to_his})]
    reason = f"to {his} (the groom's lord) {hers} is a {to_hers}; to {hers} (the bride's) {his} is a {to_his}"
    return Koota("graha_maitri", score, MAXIMA["graha_maitri"], his, hers, reason)


def gana(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the gana koota: the two nakshatras' ganas in GANA_POINTS."""
    his, hers = GANA_BY_NAKSHATRA[groom.nakshatra - 1], GANA_BY_NAKSHATRA[bride.nakshatra - 1]
    score = GANA_POINTS[GANAS.index(hers)][GANAS.index(his)]
    return Koota("gana", float(score), MAXIMA["gana"], his, hers, f"groom {his}, bride {hers}")


def bhakoot(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the bhakoot koota: 0 when the Moon signs are 2/12, 5/9 or 6/8 from each other."""
    distance = count(SIGNS.index(bride.sign), SIGNS.index(groom.sign), 12)
    back = count(SIGNS.index(groom.sign), SIGNS.index(bride.sign), 12)
    dosha = BAD_BHAKOOT.get(distance)
    reason = f"the groom's Moon sign is {distance} from the bride's, hers {back} from his"
    reason += f": {dosha}, bhakoot dosha" if dosha else ""
    return Koota("bhakoot", 0.0 if dosha else BHAKOOT_POINTS, MAXIMA["bhakoot"], groom.sign, bride.sign, reason)


def nadi(groom: MoonPlace, bride: MoonPlace) -> Koota:
    """Return the nadi koota: 0 (nadi dosha) when both nakshatras share a nadi, else 8."""
    his, hers = NADI_BY_NAKSHATRA[groom.nakshatra - 1], NADI_BY_NAKSHATRA[bride.nakshatra - 1]
    same = his == hers
    reason = f"both {his}: nadi dosha" if same else f"groom {his}, bride {hers}: different nadis"
    return Koota("nadi", 0.0 if same else NADI_POINTS, MAXIMA["nadi"], his, hers, reason)


def ashtakoota(groom_moon_deg: float, bride_moon_deg: float) -> list[Koota]:
    """Return the eight kootas, in KOOTAS order, of the groom's and the bride's sidereal Moon
    longitudes (degrees)."""
    groom, bride = moon_place(groom_moon_deg), moon_place(bride_moon_deg)
    return [rule(groom, bride) for rule in (varna, vashya, tara, yoni, graha_maitri, gana, bhakoot, nadi)]


def manglik(lagna_deg: float, moon_deg: float, venus_deg: float, mars_deg: float) -> Manglik:
    """Return Mars's whole-sign house from the lagna, the Moon and Venus (sidereal longitudes,
    degrees)."""
    mars = _sign(mars_deg)
    return Manglik(
        count(_sign(lagna_deg), mars, 12), count(_sign(moon_deg), mars, 12), count(_sign(venus_deg), mars, 12)
    )


def _sign(longitude_deg: float) -> int:
    return min(int((longitude_deg % 360.0) // 30.0), 11)


def _varna(sign: str) -> str:
    return VARNA_BY_ELEMENT[ELEMENTS[SIGNS.index(sign) % 4]]
