"""Ashtakavarga: for each of the seven grahas (Sun to Saturn) its bhinnashtakavarga, the bindus
(benefic points) its eight contributors (the seven grahas and the lagna) give each of the
twelve sidereal signs, and the sarvashtakavarga, the sum of the seven per sign (337 in all);
and each bhinnashtakavarga's reductions, trikona then ekadhipatya shodhana, and the shodhya
pinda of the bindus left; and the sarvashtakavarga reduced the two ways in use: by the same
two shodhanas (BPHS ch. 68's closing verse), and as the sum of the reduced
bhinnashtakavargas.

Signs are indices 0 (Aries) to 11 (Pisces); places are counted inclusively, the contributor's
own sign the 1st."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

GRAHAS: tuple[str, ...] = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn")
LAGNA = "lagna"
#: The eight contributors (ashtaka: eight), in the order the texts list them.
CONTRIBUTORS: tuple[str, ...] = (*GRAHAS, LAGNA)

# Source: Brihat Parashara Hora Shastra (R. Santhanam tr., 1984), ch. 66 "Ashtakavarga", the
# benefic places (bindus) of each graha counted from each contributor: for each graha, the
# places from the Sun, Moon, Mars, Mercury, Jupiter, Venus, Saturn and the lagna, in that
# order (CONTRIBUTORS). The totals are the chapter's own: Sun 48, Moon 49, Mars 39, Mercury 54,
# Jupiter 56, Venus 52, Saturn 39, 337 in all. PyJHora 4.8.7's table differs in six places of four rows
# (docs/vedic.md, "Differences from PyJHora").
BENEFIC_PLACES: dict[str, tuple[tuple[int, ...], ...]] = {
    "sun": (
        (1, 2, 4, 7, 8, 9, 10, 11),
        (3, 6, 10, 11),
        (1, 2, 4, 7, 8, 9, 10, 11),
        (3, 5, 6, 9, 10, 11, 12),
        (5, 6, 9, 11),
        (6, 7, 12),
        (1, 2, 4, 7, 8, 9, 10, 11),
        (3, 4, 6, 10, 11, 12),
    ),
    "moon": (
        (3, 6, 7, 8, 10, 11),
        (1, 3, 6, 7, 10, 11),
        (2, 3, 5, 6, 9, 10, 11),
        (1, 3, 4, 5, 7, 8, 10, 11),
        (1, 4, 7, 8, 10, 11, 12),
        (3, 4, 5, 7, 9, 10, 11),
        (3, 5, 6, 11),
        (3, 6, 10, 11),
    ),
    "mars": (
        (3, 5, 6, 10, 11),
        (3, 6, 11),
        (1, 2, 4, 7, 8, 10, 11),
        (3, 5, 6, 11),
        (6, 10, 11, 12),
        (6, 8, 11, 12),
        (1, 4, 7, 8, 9, 10, 11),
        (1, 3, 6, 10, 11),
    ),
    "mercury": (
        (5, 6, 9, 11, 12),
        (2, 4, 6, 8, 10, 11),
        (1, 2, 4, 7, 8, 9, 10, 11),
        (1, 3, 5, 6, 9, 10, 11, 12),
        (6, 8, 11, 12),
        (1, 2, 3, 4, 5, 8, 9, 11),
        (1, 2, 4, 7, 8, 9, 10, 11),
        (1, 2, 4, 6, 8, 10, 11),
    ),
    "jupiter": (
        (1, 2, 3, 4, 7, 8, 9, 10, 11),
        (2, 5, 7, 9, 11),
        (1, 2, 4, 7, 8, 10, 11),
        (1, 2, 4, 5, 6, 9, 10, 11),
        (1, 2, 3, 4, 7, 8, 10, 11),
        (2, 5, 6, 9, 10, 11),
        (3, 5, 6, 12),
        (1, 2, 4, 5, 6, 7, 9, 10, 11),
    ),
    "venus": (
        (8, 11, 12),
        (1, 2, 3, 4, 5, 8, 9, 11, 12),
        (3, 5, 6, 9, 11, 12),
        (3, 5, 6, 9, 11),
        (5, 8, 9, 10, 11),
        (1, 2, 3, 4, 5, 8, 9, 10, 11),
        (3, 4, 5, 8, 9, 10, 11),
        (1, 2, 3, 4, 5, 8, 9, 11),
    ),
    "saturn": (
        (1, 2, 4, 7, 8, 10, 11),
        (3, 6, 11),
        (3, 5, 6, 10, 11, 12),
        (6, 8, 9, 10, 11, 12),
        (5, 6, 11, 12),
        (6, 11, 12),
        (3, 5, 6, 11),
        (1, 3, 4, 6, 10, 11),
    ),
}
# Source: BPHS ch. 68 "Ekadhipatya Shodhana" (its rules as a published translation numbers them,
# ficinosociety.org's variations 2-9): the five grahas that own two signs, and their signs (0 Aries
# ... 11 Pisces); the Sun's Leo and the Moon's Cancer are left as they are.
TWO_SIGN_LORDS: dict[str, tuple[int, int]] = {
    "mars": (0, 7),
    "mercury": (2, 5),
    "jupiter": (8, 11),
    "venus": (1, 6),
    "saturn": (9, 10),
}
# Source: BPHS (Santhanam tr.), ch. 69 "Pinda Sadhana" sl. 1-4: the measure of each sign, Aries
# first. The verse pairs the signs: Taurus and Leo 10, Gemini and Scorpio 8, Aries and Libra 7,
# Virgo and Capricorn one number, the rest their own numbers (Cancer 4, Sagittarius 9, Aquarius
# 11, Pisces 12). For Virgo and Capricorn the translation's words give 6, its table Virgo 6 and
# Capricorn 5; we read 5 for both, one number for the pair as the verse has it, as the other
# tabulations at hand give it: horosoft.net's "Zodiacal & Planetary Products" (7 10 8 4 10 5 7 8
# 9 5 11 12) and the ashtakavarga stanza 80 at allrefrs.su/2-13332.html ("Virgo and Capricorn
# 5") (docs/vedic.md).
SIGN_MEASURES: tuple[int, ...] = (7, 10, 8, 4, 10, 5, 7, 8, 9, 5, 11, 12)
# Source: BPHS (Santhanam tr.), ch. 69 sl. 1-4: the measure of each graha: Jupiter 10, Mars 8,
# Venus 7, the Sun, the Moon, Mercury and Saturn 5.
GRAHA_MEASURES: dict[str, int] = {
    "sun": 5,
    "moon": 5,
    "mars": 8,
    "mercury": 5,
    "jupiter": 10,
    "venus": 7,
    "saturn": 5,
}
#: Every graha's bindus in all, whatever the chart: the places its table lists.
TOTALS: dict[str, int] = {graha: sum(len(places) for places in rows) for graha, rows in BENEFIC_PLACES.items()}
#: The sarvashtakavarga's bindus in all, whatever the chart.
SARVASHTAKAVARGA_TOTAL = sum(TOTALS.values())


@dataclass(frozen=True)
class Bhinnashtakavarga:
    """One graha's ashtakavarga: for each sign (0 Aries to 11 Pisces) the contributors that
    give it a bindu, in CONTRIBUTORS' order; its ``bindus`` are their counts."""

    graha: str
    contributors: tuple[tuple[str, ...], ...]

    @property
    def bindus(self) -> tuple[int, ...]:
        """The bindus in each sign, 0 to 8."""
        return tuple(len(given) for given in self.contributors)


@dataclass(frozen=True)
class Reduction:
    """One bhinnashtakavarga reduced: the bindus in each sign (0 Aries to 11 Pisces) left
    ``after_trikona`` shodhana, then ``after_ekadhipatya`` shodhana too, and the shodhya
    pinda of the latter, its ``rasi_pinda`` plus its ``graha_pinda``."""

    after_trikona: tuple[int, ...]
    after_ekadhipatya: tuple[int, ...]
    rasi_pinda: int
    graha_pinda: int

    @property
    def shodhya_pinda(self) -> int:
        """The rasi pinda plus the graha pinda."""
        return self.rasi_pinda + self.graha_pinda


@dataclass(frozen=True)
class SarvashtakavargaReduction:
    """The sarvashtakavarga reduced, each a tuple of bindus per sign (0 Aries to 11 Pisces):
    its own bindus ``after_trikona`` shodhana and then ``after_ekadhipatya`` shodhana too, the
    rules of the bhinnashtakavargas' (BPHS ch. 68's closing verse: the samudaya ashtakavarga
    is reduced the same way); and ``of_reduced_bhinnashtakavargas``, the seven
    bhinnashtakavargas' bindus after both their reductions, summed."""

    after_trikona: tuple[int, ...]
    after_ekadhipatya: tuple[int, ...]
    of_reduced_bhinnashtakavargas: tuple[int, ...]


@dataclass(frozen=True)
class Ashtakavarga:
    """The seven bhinnashtakavargas, Sun to Saturn, their ``reductions`` in the same order,
    the ``sarvashtakavarga``: their bindus summed per sign (0 Aries to 11 Pisces), and its
    ``sarvashtakavarga_reduction``."""

    bhinnashtakavargas: tuple[Bhinnashtakavarga, ...]
    reductions: tuple[Reduction, ...]
    sarvashtakavarga: tuple[int, ...]
    sarvashtakavarga_reduction: SarvashtakavargaReduction


def bhinnashtakavarga(graha: str, signs: Mapping[str, int]) -> Bhinnashtakavarga:
    """Return ``graha``'s ashtakavarga from the sign (0 Aries to 11 Pisces) of each contributor
    in ``signs`` (the seven grahas and the lagna): a contributor gives a bindu to each sign at
    one of its BENEFIC_PLACES counted from its own sign."""
    given: list[list[str]] = [[] for _ in range(12)]
    for contributor, places in zip(CONTRIBUTORS, BENEFIC_PLACES[graha], strict=True):
        for place in places:
            given[(signs[contributor] + place - 1) % 12].append(contributor)
    return Bhinnashtakavarga(graha, tuple(tuple(g) for g in given))


def trikona_shodhana(bindus: tuple[int, ...]) -> tuple[int, ...]:
    """Return the bindus (0 Aries to 11 Pisces) reduced by the trines (BPHS ch. 67): in each
    trine of signs (Aries, Leo, Sagittarius; Taurus, Virgo, Capricorn; ...) left as they are
    when one of the three has none, all made 0 when the three are equal, and otherwise the
    least of the three taken from each."""
    reduced = list(bindus)
    for first in range(4):
        trine = (first, first + 4, first + 8)
        values = [bindus[sign] for sign in trine]
        if 0 in values:
            continue
        least = min(values)  # three equal become 0
        for sign in trine:
            reduced[sign] = bindus[sign] - least
    return tuple(reduced)


def ekadhipatya_shodhana(bindus: tuple[int, ...], occupied: frozenset[int]) -> tuple[int, ...]:
    """Return the bindus after trikona shodhana (0 Aries to 11 Pisces) reduced in the two
    signs of each lord of two (BPHS ch. 68), ``occupied`` the signs that hold one of the seven
    grahas. A pair is left as it is when either sign has no bindu, or when both are occupied.
    Both empty: equal, both become 0; unequal, both the smaller. One occupied: the empty
    sign becomes 0 when it has as many bindus as the occupied one or fewer, and the occupied
    one's number when it has more; the occupied sign keeps its own."""
    reduced = list(bindus)
    for a, b in TWO_SIGN_LORDS.values():
        if not bindus[a] or not bindus[b] or (a in occupied and b in occupied):
            continue
        if a not in occupied and b not in occupied:
            smaller = 0 if bindus[a] == bindus[b] else min(bindus[a], bindus[b])
            reduced[a] = reduced[b] = smaller
            continue
        full, empty = (a, b) if a in occupied else (b, a)
        reduced[empty] = 0 if bindus[empty] <= bindus[full] else bindus[full]
    return tuple(reduced)


def occupied_signs(signs: Mapping[str, int]) -> frozenset[int]:
    """Return the signs (0 Aries to 11 Pisces) that hold one of the seven grahas of ``signs``:
    the ones ekadhipatya shodhana counts occupied (neither the lagna nor the nodes)."""
    return frozenset(signs[graha] for graha in GRAHAS)


def reduce_sarvashtakavarga(
    sarvashtakavarga: tuple[int, ...], reductions: tuple[Reduction, ...], signs: Mapping[str, int]
) -> SarvashtakavargaReduction:
    """Return the ``sarvashtakavarga`` (bindus, 0 Aries to 11 Pisces) reduced by trikona then
    ekadhipatya shodhana, the rules of a bhinnashtakavarga's with the seven grahas of ``signs``
    occupying their signs, and the seven bhinnashtakavargas' ``reductions`` summed per sign."""
    after_trikona = trikona_shodhana(sarvashtakavarga)
    return SarvashtakavargaReduction(
        after_trikona,
        ekadhipatya_shodhana(after_trikona, occupied_signs(signs)),
        tuple(sum(r.after_ekadhipatya[sign] for r in reductions) for sign in range(12)),
    )


def reduce(bindus: tuple[int, ...], signs: Mapping[str, int]) -> Reduction:
    """Return a bhinnashtakavarga's ``bindus`` reduced, trikona then ekadhipatya shodhana, with
    the shodhya pinda of what is left (BPHS ch. 69): each sign's bindus times its SIGN_MEASURES
    summed (the rasi pinda), plus the bindus in each graha's sign of ``signs`` times its
    GRAHA_MEASURES (the graha pinda; a sign holding two grahas counted for each)."""
    after_trikona = trikona_shodhana(bindus)
    after_ekadhipatya = ekadhipatya_shodhana(after_trikona, occupied_signs(signs))
    rasi = sum(b * m for b, m in zip(after_ekadhipatya, SIGN_MEASURES, strict=True))
    graha = sum(after_ekadhipatya[signs[g]] * GRAHA_MEASURES[g] for g in GRAHAS)
    return Reduction(after_trikona, after_ekadhipatya, rasi, graha)


def ashtakavarga(signs: Mapping[str, int]) -> Ashtakavarga:
    """Return the seven bhinnashtakavargas, their reductions, the sarvashtakavarga and its
    reductions of a chart whose grahas and lagna stand in ``signs`` (0 Aries to 11 Pisces)."""
    each = tuple(bhinnashtakavarga(graha, signs) for graha in GRAHAS)
    reductions = tuple(reduce(b.bindus, signs) for b in each)
    sarvashtakavarga = tuple(sum(b.bindus[sign] for b in each) for sign in range(12))
    return Ashtakavarga(
        each, reductions, sarvashtakavarga, reduce_sarvashtakavarga(sarvashtakavarga, reductions, signs)
    )
