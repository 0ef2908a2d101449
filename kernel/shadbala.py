"""Shadbala: the six strengths of the seven grahas (Sun to Saturn), in virupas (60 to a rupa),
and their sum against the least each graha needs.

The tables are the chapter's: Brihat Parashara Hora Shastra (R. Santhanam tr., 1984), ch. 27
"Shadbala" (below, "ch. 27"), read with ch. 3 for the grahas' natures and ch. 26 for the
measure of an aspect (drishti). Where the chapter leaves a choice, the reading taken is named
beside the table (docs/vedic.md "Shadbala" and "Differences from PyJHora"). Longitudes are sidereal degrees [0, 360) of
the ayanamsha the caller chose; declinations are the tropical (sayana) declination of each
graha's ecliptic point (its kranti), north positive; times are UT1 Julian Days.

The chesta bala compares each graha's true place with its mean place and its seeghrocha; the
mean places are the modern mean longitudes (MEAN_LONGITUDE) less the same ayanamsha. The yuddha
bala is the planetary war of two of Mars to Saturn within WAR_ORB_DEG of longitude.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from kernel import engine
from kernel.ashtakoota import NATURAL_RELATIONS, SIGN_LORDS
from kernel.errors import PolarDayOrNight
from kernel.timescale import require_day_within_span
from kernel.vargas import parse_varga, varga_sign

GRAHAS: tuple[str, ...] = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn")
VIRUPAS_PER_RUPA = 60.0

# Source (every table below): BPHS ch. 27 "Shadbala", but where another chapter is named.
# Deep exaltation points, sidereal degrees: Sun 10 Aries, Moon 3 Taurus, Mars 28 Capricorn,
# Mercury 15 Virgo, Jupiter 5 Cancer, Venus 27 Pisces, Saturn 20 Libra (ch. 3).
EXALTATION_DEG: dict[str, float] = {
    "sun": 10.0,
    "moon": 33.0,
    "mars": 298.0,
    "mercury": 165.0,
    "jupiter": 95.0,
    "venus": 357.0,
    "saturn": 200.0,
}
# Moolatrikona signs (0 Aries ... 11 Pisces, ch. 3), read as whole signs.
MOOLATRIKONA_SIGN: dict[str, int] = {
    "sun": 4,
    "moon": 1,
    "mars": 0,
    "mercury": 5,
    "jupiter": 8,
    "venus": 6,
    "saturn": 10,
}
# The seven vargas of the saptavargaja bala (rasi, hora, drekkana, saptamsa, navamsa,
# dvadashamsa, trimshamsa) and the virupas of a graha in each: its moolatrikona (the rasi
# only) 45, its own sign 30, a great friend's 22.5, a friend's 15, a neutral's 7.5, an
# enemy's 3.75, a great enemy's 1.875.
SAPTAVARGAS: tuple[str, ...] = ("D1", "D2", "D3", "D7", "D9", "D12", "D30")
MOOLATRIKONA_VIRUPAS = 45.0
OWN_SIGN_VIRUPAS = 30.0
COMPOUND_RELATION_VIRUPAS: dict[str, float] = {
    "great_friend": 22.5,
    "friend": 15.0,
    "neutral": 7.5,
    "enemy": 3.75,
    "great_enemy": 1.875,
}
# Temporary (tatkalika) friends: the grahas in the 2nd, 3rd, 4th, 10th, 11th and 12th signs
# from a graha (ch. 3); the rest temporary enemies.
TEMPORARY_FRIEND_PLACES: frozenset[int] = frozenset({2, 3, 4, 10, 11, 12})
# Ojhayugma: the Moon and Venus gain 15 in an even sign and 15 in an even navamsa, the others
# in odd ones.
EVEN_SIGN_GRAHAS: frozenset[str] = frozenset({"moon", "venus"})
OJHAYUGMA_VIRUPAS = 15.0
# Kendradi: in a kendra (1, 4, 7, 10 from the lagna) 60, a panaphara (2, 5, 8, 11) 30, an
# apoklima (3, 6, 9, 12) 15.
KENDRADI_VIRUPAS: tuple[float, float, float] = (60.0, 30.0, 15.0)
# Drekkana: males (Sun, Mars, Jupiter) in a sign's first decanate, hermaphrodites (Mercury,
# Saturn) in its second, females (Moon, Venus) in its third, 15.
DREKKANA_OF: dict[str, int] = {
    "sun": 0,
    "mars": 0,
    "jupiter": 0,
    "mercury": 1,
    "saturn": 1,
    "moon": 2,
    "venus": 2,
}
DREKKANA_VIRUPAS = 15.0
# Dig bala: the angle (the middle of its house) that leaves each graha powerless, its
# strongest the opposite one: the Sun and Mars the 4th's (strong on the 10th's), the Moon and
# Venus the 10th's (strong on the 4th's), Mercury and Jupiter the 7th's (strong on the
# lagna), Saturn the lagna (strong on the 7th's). The angles are the lagna, the descendant,
# the midheaven (the 10th's middle) and the nadir (the 4th's), as PyJHora's default bhavas.
POWERLESS_ANGLE: dict[str, str] = {
    "sun": "nadir",
    "moon": "midheaven",
    "mars": "nadir",
    "mercury": "descendant",
    "jupiter": "descendant",
    "venus": "midheaven",
    "saturn": "lagna",
}
# Nathonnatha: the Sun, Jupiter and Venus strong at noon (60) and nil at midnight, the Moon,
# Mars and Saturn the reverse, Mercury always 60.
DIURNAL: frozenset[str] = frozenset({"sun", "jupiter", "venus"})
NOCTURNAL: frozenset[str] = frozenset({"moon", "mars", "saturn"})
# Tribhaga: the lords of the thirds of the day (Mercury, Sun, Saturn) and of the night (Moon,
# Venus, Mars) 60 in their third; Jupiter 60 always.
DAY_THIRDS: tuple[str, str, str] = ("mercury", "sun", "saturn")
NIGHT_THIRDS: tuple[str, str, str] = ("moon", "venus", "mars")
ALWAYS_TRIBHAGA = "jupiter"
# The lords of the year (abda) 15, the month (masa) 30, the weekday (vara) 45 and the hour
# (hora) 60.
ABDA_VIRUPAS, MASA_VIRUPAS, VARA_VIRUPAS, HORA_VIRUPAS = 15.0, 30.0, 45.0, 60.0
# The weekdays' lords, Sunday first; and the order of the horas' lords (each hour's the next).
WEEKDAY_LORDS: tuple[str, ...] = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn")
HORA_ORDER: tuple[str, ...] = ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
# The ahargana's count of civil days starts at the Kali Yuga's first day, 18 February 3102 BC
# (Julian), a Friday (Surya Siddhanta ch. 1); its years are 360 days, its months 30.
KALI_EPOCH_JDN = 588466
KALI_EPOCH_WEEKDAY = 5
SAVANA_YEAR_DAYS, SAVANA_MONTH_DAYS = 360, 30
# Ayana bala: (24 + kranti) * 60 / 48, the kranti counted positive where the graha is strong:
# north for the Sun, Mars, Jupiter and Venus, south for the Moon and Saturn, either way for
# Mercury; the Sun's doubled.
NORTHERN: frozenset[str] = frozenset({"sun", "mars", "jupiter", "venus"})
SOUTHERN: frozenset[str] = frozenset({"moon", "saturn"})
AYANA_DEG, AYANA_SCALE = 24.0, 60.0 / 48.0
# Naisargika bala: sevenths of a rupa, Sun 7 to Saturn 1.
NAISARGIKA_VIRUPAS: dict[str, float] = {
    "sun": 60.0,
    "moon": 60.0 * 6 / 7,
    "venus": 60.0 * 5 / 7,
    "jupiter": 60.0 * 4 / 7,
    "mercury": 60.0 * 3 / 7,
    "mars": 60.0 * 2 / 7,
    "saturn": 60.0 / 7,
}
# The least shadbala, in rupas, each graha needs to be strong.
REQUIRED_RUPAS: dict[str, float] = {
    "sun": 5.0,
    "moon": 6.0,
    "mars": 5.0,
    "mercury": 7.0,
    "jupiter": 6.5,
    "venus": 5.5,
    "saturn": 5.0,
}
# Drishti (ch. 26): the special aspects' extra virupas, by aspecting graha: (from, to) the
# arc in degrees from the aspecting graha to the aspected and the virupas added. Saturn's 3rd
# and 10th, Mars's 4th and 8th, Jupiter's 5th and 9th.
SPECIAL_ASPECTS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "saturn": ((60.0, 90.0, 45.0), (270.0, 300.0, 45.0)),
    "mars": ((90.0, 120.0, 15.0), (210.0, 240.0, 15.0)),
    "jupiter": ((120.0, 150.0, 30.0), (240.0, 270.0, 30.0)),
}
DRIK_SHARE = 0.25
# Natural benefics and malefics (ch. 3): Jupiter and Venus benefic, the Sun, Mars
# and Saturn malefic; the Moon benefic waxing, malefic waning; Mercury benefic alone or with
# more benefics in its sign, malefic with more malefics, with as many the nearer's nature.
BENEFICS: frozenset[str] = frozenset({"jupiter", "venus"})
MALEFICS: frozenset[str] = frozenset({"sun", "mars", "saturn"})
# Chesta bala: the cheshta kendra is the arc (at most 180) from the graha's seeghrocha to the
# middle of its mean and true places, the bala that arc over 3. The seeghrocha of Mars, Jupiter
# and Saturn is the Sun's mean place; Mercury and Venus have the Sun's mean place as their mean
# place and their own (heliocentric) mean place as their seeghrocha, as in the Surya Siddhanta.
# The Sun's chesta bala is its ayana bala, the Moon's its paksha bala.
CHESTA_GRAHAS: tuple[str, ...] = ("mars", "mercury", "jupiter", "venus", "saturn")
INFERIOR: frozenset[str] = frozenset({"mercury", "venus"})
CHESTA_FROM_KALA: dict[str, str] = {"sun": "ayana", "moon": "paksha"}
# Mean longitudes, degrees, referred to the mean equinox of date, as polynomials in Julian
# centuries (TT) from J2000.0: J. Meeus, Astronomical Algorithms (2nd ed., 1998), table 31.A
# (from VSOP87, Bretagnon and Francou). The Sun's is the Earth's plus 180.
J2000_TT = 2451545.0
DAYS_PER_CENTURY = 36525.0
MEAN_LONGITUDE: dict[str, tuple[float, float, float, float]] = {
    "earth": (100.466457, 36000.7698278, 0.00030322, 0.000000020),
    "mercury": (252.250906, 149474.0722491, 0.00030350, 0.000000018),
    "venus": (181.979801, 58519.2130302, 0.00031014, 0.000000015),
    "mars": (355.433000, 19141.6964471, 0.00031052, 0.000000016),
    "jupiter": (34.351519, 3036.3027748, 0.00022330, 0.000000037),
    "saturn": (50.077444, 1223.5110686, 0.00051908, -0.000000030),
}
# Yuddha bala: two of Mars to Saturn within 1 degree of longitude are at war. The sum of each
# one's sthana bala, dig bala and kala bala up to the hora bala (the parts below), their
# difference over the difference of their discs' diameters (in seconds of arc), is added to
# the victor's kala bala and taken from the vanquished's. The victor is read as the graha with
# the greater sum (the difference flows to the stronger).
WAR_ORB_DEG = 1.0
WARRING: tuple[str, ...] = CHESTA_GRAHAS
WAR_KALA_PARTS: tuple[str, ...] = ("nathonnatha", "paksha", "tribhaga", "abda", "masa", "vara", "hora")
DISC_DIAMETER: dict[str, float] = {"mars": 9.4, "mercury": 6.6, "jupiter": 190.4, "venus": 16.6, "saturn": 158.0}

_LONGEST_GAP_DAYS = 1.5
_AFTER_EVENT_DAYS = 1e-3
_FRIENDS = {p: (set(f), set(e)) for p, f, e in NATURAL_RELATIONS}
_VARGAS = tuple(parse_varga(code) for code in SAPTAVARGAS)


@dataclass(frozen=True)
class BirthDay:
    """The Vedic day of a birth: the ``previous_sunset`` before its ``sunrise`` (UT1 JD, at or
    before the birth), the ``sunset`` after that sunrise, the ``next_sunrise``; ``civil_day``
    the Julian Day Number of that sunrise's local civil date."""

    previous_sunset: float
    sunrise: float
    sunset: float
    next_sunrise: float
    civil_day: int


@dataclass(frozen=True)
class War:
    """A planetary war: the ``winner`` and ``loser``, their ``separation_deg`` (degrees of
    longitude) and the ``virupas`` the winner gains and the loser loses."""

    winner: str
    loser: str
    separation_deg: float
    virupas: float


@dataclass(frozen=True)
class GrahaStrength:
    """One graha's strengths, virupas: each part by name (``sthana``, ``kala`` their
    parts, ``dig``, ``chesta``, ``naisargika``, ``drik``); ``wars`` the wars it is in."""

    graha: str
    sthana: dict[str, float]
    dig: float
    kala: dict[str, float]
    chesta: float
    naisargika: float
    drik: float
    wars: tuple[War, ...] = ()

    @property
    def sthana_total(self) -> float:
        """Sthana bala, virupas."""
        return sum(self.sthana.values())

    @property
    def kala_total(self) -> float:
        """Kala bala, virupas: its parts summed."""
        return sum(self.kala.values())

    @property
    def total(self) -> float:
        """The shadbala, virupas: the six strengths summed."""
        return self.sthana_total + self.dig + self.kala_total + self.chesta + self.naisargika + self.drik

    @property
    def rupas(self) -> float:
        """The shadbala in rupas."""
        return self.total / VIRUPAS_PER_RUPA

    @property
    def required_rupas(self) -> float:
        """The least the graha needs (REQUIRED_RUPAS)."""
        return REQUIRED_RUPAS[self.graha]

    @property
    def ratio(self) -> float:
        """The shadbala over the least needed."""
        return self.rupas / self.required_rupas


def _sign(longitude: float) -> int:
    return int(longitude // 30.0) % 12


def _arc(a: float, b: float) -> float:
    """The shorter arc between two longitudes, degrees [0, 180]."""
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d


def uchcha_bala(graha: str, longitude: float) -> float:
    """Virupas: the arc from the graha's deep debilitation (its exaltation + 180) over 3."""
    return _arc(longitude, EXALTATION_DEG[graha] + 180.0) / 3.0


def compound_relation(graha: str, lord: str, signs: Mapping[str, int]) -> str:
    """The graha's compound (panchadha) relation to ``lord``: its natural relation (ch. 3)
    joined with the temporary one from their rasi signs."""
    friends, enemies = _FRIENDS[graha]
    natural = 1 if lord in friends else -1 if lord in enemies else 0
    place = (signs[lord] - signs[graha]) % 12 + 1
    temporary = 1 if place in TEMPORARY_FRIEND_PLACES else -1
    return {2: "great_friend", 1: "friend", 0: "neutral", -1: "enemy", -2: "great_enemy"}[natural + temporary]


def saptavargaja_bala(graha: str, longitudes: Mapping[str, float]) -> float:
    """Virupas: the graha's dignity in each of the seven vargas summed."""
    signs = {g: _sign(longitudes[g]) for g in GRAHAS}
    total = 0.0
    for varga in _VARGAS:
        sign = varga_sign(varga, longitudes[graha])
        lord = SIGN_LORDS[sign]
        if varga.code == "D1" and sign == MOOLATRIKONA_SIGN[graha]:
            total += MOOLATRIKONA_VIRUPAS
        elif lord == graha:
            total += OWN_SIGN_VIRUPAS
        else:
            total += COMPOUND_RELATION_VIRUPAS[compound_relation(graha, lord, signs)]
    return total


def ojhayugma_bala(graha: str, longitude: float) -> float:
    """Virupas: 15 for the rasi and 15 for the navamsa of the graha's parity."""
    parity = 1 if graha in EVEN_SIGN_GRAHAS else 0
    navamsa = varga_sign(_VARGAS[SAPTAVARGAS.index("D9")], longitude)
    return OJHAYUGMA_VIRUPAS * ((_sign(longitude) % 2 == parity) + (navamsa % 2 == parity))


def kendradi_bala(longitude: float, lagna: float) -> float:
    """Virupas by the graha's whole-sign house from the lagna."""
    house = (_sign(longitude) - _sign(lagna)) % 12
    return KENDRADI_VIRUPAS[house % 3]


def drekkana_bala(graha: str, longitude: float) -> float:
    """Virupas: 15 in the decanate of the graha's sex."""
    return DREKKANA_VIRUPAS if int((longitude % 30.0) // 10.0) == DREKKANA_OF[graha] else 0.0


def dig_bala(graha: str, longitude: float, lagna: float, midheaven: float) -> float:
    """Virupas: the arc from the graha's powerless angle (sidereal ``lagna`` and ``midheaven``
    and their opposites) over 3."""
    angles = {"lagna": lagna, "descendant": lagna + 180.0, "midheaven": midheaven, "nadir": midheaven + 180.0}
    return _arc(longitude, angles[POWERLESS_ANGLE[graha]]) / 3.0


def elongation(sun: float, moon: float) -> float:
    """The Moon's arc from the Sun, degrees [0, 180]."""
    return _arc(moon, sun)


def natures(longitudes: Mapping[str, float]) -> dict[str, bool]:
    """Each graha benefic (True) or malefic (False): the Moon by its paksha (waxing while
    less than 180 degrees ahead of the Sun), Mercury by its sign's company."""
    nature = {g: g in BENEFICS for g in GRAHAS}
    nature["moon"] = (longitudes["moon"] - longitudes["sun"]) % 360.0 < 180.0
    mercury = longitudes["mercury"]
    company = [g for g in GRAHAS if g != "mercury" and _sign(longitudes[g]) == _sign(mercury)]
    good = sum(nature[g] for g in company)
    bad = len(company) - good
    if good == bad and company:
        nature["mercury"] = nature[min(company, key=lambda g: abs(longitudes[g] - mercury))]
    else:
        nature["mercury"] = good >= bad
    return nature


def paksha_bala(graha: str, longitudes: Mapping[str, float], benefic: bool) -> float:
    """Virupas: a benefic the elongation over 3, a malefic 60 less that; the Moon's doubled."""
    value = elongation(longitudes["sun"], longitudes["moon"]) / 3.0
    value = value if benefic else 60.0 - value
    return 2.0 * value if graha == "moon" else value


def nathonnatha_bala(graha: str, jd: float, day: BirthDay) -> float:
    """Virupas: by the time from the nearer midnight (the middle of a night, sunset to
    sunrise), 60 half a day from it."""
    midnights = (0.5 * (day.previous_sunset + day.sunrise), 0.5 * (day.sunset + day.next_sunrise))
    from_midnight = min(0.5, *(abs(jd - m) for m in midnights))
    diurnal = 60.0 * from_midnight / 0.5
    if graha in DIURNAL:
        return diurnal
    if graha in NOCTURNAL:
        return 60.0 - diurnal
    return 60.0


def tribhaga_lord(jd: float, day: BirthDay) -> str:
    """The lord of the third of the day or night the birth falls in."""
    if jd < day.sunset:
        return DAY_THIRDS[min(2, int(3.0 * (jd - day.sunrise) / (day.sunset - day.sunrise)))]
    return NIGHT_THIRDS[min(2, int(3.0 * (jd - day.sunset) / (day.next_sunrise - day.sunset)))]


def weekday(jdn: int) -> int:
    """The weekday of a Julian Day Number, 0 Sunday."""
    return (jdn + 1) % 7


def abda_lord(day: BirthDay) -> str:
    """The lord of the weekday that began the birth's 360-day year counted from the Kali epoch."""
    days = day.civil_day - KALI_EPOCH_JDN
    return WEEKDAY_LORDS[(KALI_EPOCH_WEEKDAY + days // SAVANA_YEAR_DAYS * SAVANA_YEAR_DAYS) % 7]


def masa_lord(day: BirthDay) -> str:
    """The lord of the weekday that began the birth's 30-day month counted from the Kali epoch."""
    days = day.civil_day - KALI_EPOCH_JDN
    return WEEKDAY_LORDS[(KALI_EPOCH_WEEKDAY + days // SAVANA_MONTH_DAYS * SAVANA_MONTH_DAYS) % 7]


def vara_lord(day: BirthDay) -> str:
    """The lord of the weekday that began at the day's sunrise."""
    return WEEKDAY_LORDS[weekday(day.civil_day)]


def hora_lord(jd: float, day: BirthDay) -> str:
    """The lord of the hour (60 minutes from sunrise) of the birth, the first the day's lord."""
    hours = int((jd - day.sunrise) * 24.0)
    return HORA_ORDER[(HORA_ORDER.index(vara_lord(day)) + hours) % 7]


def ayana_bala(graha: str, declination: float) -> float:
    """Virupas: (24 + kranti) * 60 / 48, the kranti signed by where the graha is strong; the
    Sun's doubled."""
    signed = declination if graha in NORTHERN else -declination if graha in SOUTHERN else abs(declination)
    value = (AYANA_DEG + signed) * AYANA_SCALE
    return 2.0 * value if graha == "sun" else value


def drishti(aspecting: str, arc: float) -> float:
    """Virupas of the aspect a graha casts on a point ``arc`` degrees ahead of it (ch. 26)."""
    a = arc % 360.0
    if a < 30.0 or a >= 300.0:
        value = 0.0
    elif a < 60.0:
        value = 0.5 * (a - 30.0)
    elif a < 90.0:
        value = a - 45.0
    elif a < 120.0:
        value = 30.0 + 0.5 * (120.0 - a)
    elif a < 150.0:
        value = 150.0 - a
    elif a < 180.0:
        value = 2.0 * (a - 150.0)
    else:
        value = 0.5 * (300.0 - a)
    for start, end, extra in SPECIAL_ASPECTS.get(aspecting, ()):
        if start <= a < end:
            value += extra
    return value


def drik_bala(graha: str, longitudes: Mapping[str, float], nature: Mapping[str, bool]) -> float:
    """Virupas: a quarter of the benefics' aspects on the graha less a quarter of the malefics'."""
    total = 0.0
    for other in GRAHAS:
        if other != graha:
            aspect = drishti(other, longitudes[graha] - longitudes[other])
            total += aspect if nature[other] else -aspect
    return DRIK_SHARE * total


def mean_longitudes(jd_tt: float, ayanamsha_deg: float) -> dict[str, float]:
    """Return the sidereal mean longitudes (degrees [0, 360)) of the Sun and of Mars to Saturn
    (Mercury's and Venus's heliocentric) at ``jd_tt`` (TT Julian Day): MEAN_LONGITUDE's, of
    the mean equinox of date, less ``ayanamsha_deg``."""
    t = (jd_tt - J2000_TT) / DAYS_PER_CENTURY
    tropical = {body: a0 + t * (a1 + t * (a2 + t * a3)) for body, (a0, a1, a2, a3) in MEAN_LONGITUDE.items()}
    tropical["sun"] = tropical.pop("earth") + 180.0
    return {body: (value - ayanamsha_deg) % 360.0 for body, value in tropical.items()}


def chesta_kendra(graha: str, true_longitude: float, mean: Mapping[str, float]) -> float:
    """Degrees [0, 180]: the arc from the graha's seeghrocha to the middle of its mean and true
    places (sidereal ``true_longitude``, ``mean`` from mean_longitudes); the middle is taken
    on the shorter arc between the two, so a pair astride 0 Aries averages near it."""
    if graha in INFERIOR:
        mean_place, seeghrocha = mean["sun"], mean[graha]
    else:
        mean_place, seeghrocha = mean[graha], mean["sun"]
    half = ((true_longitude - mean_place + 180.0) % 360.0 - 180.0) / 2.0
    return _arc(seeghrocha, mean_place + half)


def chesta_bala(graha: str, true_longitude: float, mean: Mapping[str, float]) -> float:
    """Virupas, 0-60, of Mars to Saturn: the cheshta kendra over 3 (0 at conjunction with the
    Sun, 60 in the middle of its retrograde arc)."""
    return chesta_kendra(graha, true_longitude, mean) / 3.0


def planetary_wars(longitudes: Mapping[str, float], strengths: Mapping[str, float]) -> list[War]:
    """Return the wars among Mars to Saturn: each pair within WAR_ORB_DEG of longitude, the
    victor the one of the greater ``strengths`` (virupas: sthana, dig and the kala bala up to
    the hora bala), its gain their difference over the difference of their discs' diameters."""
    wars = []
    for i, a in enumerate(WARRING):
        for b in WARRING[i + 1 :]:
            separation = _arc(longitudes[a], longitudes[b])
            if separation <= WAR_ORB_DEG:
                winner, loser = (a, b) if strengths[a] >= strengths[b] else (b, a)
                gain = (strengths[winner] - strengths[loser]) / abs(DISC_DIAMETER[a] - DISC_DIAMETER[b])
                wars.append(War(winner, loser, separation, gain))
    return wars


def yuddha_bala(graha: str, wars: list[War]) -> float:
    """Virupas: the gains of the wars the graha won less those of the wars it lost."""
    return sum(w.virupas for w in wars if w.winner == graha) - sum(w.virupas for w in wars if w.loser == graha)


def shadbala(
    longitudes: Mapping[str, float],
    lagna: float,
    midheaven: float,
    declinations: Mapping[str, float],
    jd: float,
    day: BirthDay,
    mean: Mapping[str, float],
) -> list[GrahaStrength]:
    """Return the seven grahas' strengths (Sun to Saturn): ``longitudes`` sidereal degrees,
    ``lagna`` and ``midheaven`` the sidereal ascendant and MC, ``declinations`` each graha's kranti (degrees, north
    positive), ``jd`` the birth (UT1), ``day`` its Vedic day and ``mean`` the sidereal mean
    longitudes of the same ayanamsha (mean_longitudes)."""
    nature = natures(longitudes)
    lords = {"abda": abda_lord(day), "masa": masa_lord(day), "vara": vara_lord(day), "hora": hora_lord(jd, day)}
    points = {"abda": ABDA_VIRUPAS, "masa": MASA_VIRUPAS, "vara": VARA_VIRUPAS, "hora": HORA_VIRUPAS}
    third = tribhaga_lord(jd, day)
    sthanas, digs, kalas = {}, {}, {}
    for graha in GRAHAS:
        longitude = longitudes[graha]
        sthanas[graha] = {
            "uchcha": uchcha_bala(graha, longitude),
            "saptavargaja": saptavargaja_bala(graha, longitudes),
            "ojhayugma": ojhayugma_bala(graha, longitude),
            "kendradi": kendradi_bala(longitude, lagna),
            "drekkana": drekkana_bala(graha, longitude),
        }
        digs[graha] = dig_bala(graha, longitude, lagna, midheaven)
        kalas[graha] = {
            "nathonnatha": nathonnatha_bala(graha, jd, day),
            "paksha": paksha_bala(graha, longitudes, nature[graha]),
            "tribhaga": 60.0 if graha in (third, ALWAYS_TRIBHAGA) else 0.0,
            **{part: points[part] if lords[part] == graha else 0.0 for part in ("abda", "masa", "vara", "hora")},
            "ayana": ayana_bala(graha, declinations[graha]),
        }
    before_war = {g: sum(sthanas[g].values()) + digs[g] + sum(kalas[g][p] for p in WAR_KALA_PARTS) for g in WARRING}
    wars = planetary_wars(longitudes, before_war)
    result = []
    for graha in GRAHAS:
        kala = {**kalas[graha], "yuddha": yuddha_bala(graha, wars)}
        chesta = (
            kala[CHESTA_FROM_KALA[graha]] if graha in CHESTA_FROM_KALA else chesta_bala(graha, longitudes[graha], mean)
        )
        result.append(
            GrahaStrength(
                graha,
                sthanas[graha],
                digs[graha],
                kala,
                chesta,
                NAISARGIKA_VIRUPAS[graha],
                drik_bala(graha, longitudes, nature),
                tuple(w for w in wars if graha in (w.winner, w.loser)),
            )
        )
    return result


def kranti(sayana_longitude: float, obliquity: float) -> float:
    """The declination (degrees, north positive) of the ecliptic point at ``sayana_longitude``
    degrees for an ``obliquity`` in degrees."""
    return math.degrees(math.asin(math.sin(math.radians(obliquity)) * math.sin(math.radians(sayana_longitude))))


def birth_day(jd: float, latitude_deg: float, longitude_deg: float, altitude_m: float = 0.0) -> BirthDay:
    """Return the Vedic day holding the birth at ``jd`` (UT1): from the last sunrise (the
    upper limb on the refracted horizon) at or before it to the next, with the sunset between;
    its civil date read on local mean time. Raises PolarDayOrNight where the Sun does not both
    rise and set, and OutOfRange (about the moment) where that day may begin before the
    supported dates (require_day_within_span)."""
    require_day_within_span(jd, "Vedic day")

    def next_event(after: float, rising: bool) -> float:
        found = engine.next_sun_rise_or_set(after, latitude_deg, longitude_deg, altitude_m, rising=rising).jd_ut1
        if found is None or found - after > _LONGEST_GAP_DAYS:
            raise PolarDayOrNight(
                f"At latitude {latitude_deg:g} the Sun does not both rise and set around this moment, so the "
                "birth has no day for the kala bala."
            )
        return found

    sunrise = next_event(jd - 1.0, True)
    while (following := next_event(sunrise + _AFTER_EVENT_DAYS, True)) <= jd:
        sunrise = following
    sunset = next_event(sunrise + _AFTER_EVENT_DAYS, False)
    next_sunrise = next_event(sunset, True)
    previous_sunset = next_event(sunrise - 1.0, False)
    while (following := next_event(previous_sunset + _AFTER_EVENT_DAYS, False)) < sunrise:
        previous_sunset = following
    return BirthDay(previous_sunset, sunrise, sunset, next_sunrise, math.floor(sunrise + 0.5 + longitude_deg / 360.0))
