"""Ashtakavarga: for each of the seven grahas (Sun to Saturn) its bhinnashtakavarga, the bindus
(benefic points) its eight contributors (the seven grahas and the lagna) give each of the
twelve sidereal signs, and the sarvashtakavarga, the sum of the seven per sign (337 in all).

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
# Jupiter 56, Venus 52, Saturn 39, 337 in all. PyJHora 4.8.7's table differs in four cells
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
class Ashtakavarga:
    """The seven bhinnashtakavargas, Sun to Saturn, and the ``sarvashtakavarga``: their bindus
    summed per sign (0 Aries to 11 Pisces)."""

    bhinnashtakavargas: tuple[Bhinnashtakavarga, ...]
    sarvashtakavarga: tuple[int, ...]


def bhinnashtakavarga(graha: str, signs: Mapping[str, int]) -> Bhinnashtakavarga:
    """Return ``graha``'s ashtakavarga from the sign (0 Aries to 11 Pisces) of each contributor
    in ``signs`` (the seven grahas and the lagna): a contributor gives a bindu to each sign at
    one of its BENEFIC_PLACES counted from its own sign."""
    given: list[list[str]] = [[] for _ in range(12)]
    for contributor, places in zip(CONTRIBUTORS, BENEFIC_PLACES[graha], strict=True):
        for place in places:
            given[(signs[contributor] + place - 1) % 12].append(contributor)
    return Bhinnashtakavarga(graha, tuple(tuple(g) for g in given))


def ashtakavarga(signs: Mapping[str, int]) -> Ashtakavarga:
    """Return the seven bhinnashtakavargas and the sarvashtakavarga of a chart whose grahas
    and lagna stand in ``signs`` (0 Aries to 11 Pisces)."""
    each = tuple(bhinnashtakavarga(graha, signs) for graha in GRAHAS)
    return Ashtakavarga(each, tuple(sum(b.bindus[sign] for b in each) for sign in range(12)))
