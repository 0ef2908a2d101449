"""The 27 nakshatras (lunar mansions) of the sidereal zodiac: the one a longitude stands in,
its pada (quarter) and its lord, the planet whose Vimshottari period it starts."""

from __future__ import annotations

from dataclasses import dataclass

# Source: Brihat Parashara Hora Shastra (R. Santhanam tr., 1984), ch. 46 "Dasas of planets"
# (Vimshottari): the 27 nakshatras from Ashwini at 0° of sidereal Aries, each 13°20'
# (360°/27) of four padas of 3°20', and their lords, counted there from Krittika (the Sun's)
# in the order Sun, Moon, Mars, Rahu, Jupiter, Saturn, Mercury, Ketu, Venus, three times round;
# the same cycle read here from Ashwini. Names as B. V. Raman spells them (A Manual of Hindu
# Astrology), lowercase and joined by "_".
NAKSHATRA_TABLE: tuple[tuple[str, str], ...] = (
    ("ashwini", "ketu"),
    ("bharani", "venus"),
    ("krittika", "sun"),
    ("rohini", "moon"),
    ("mrigashira", "mars"),
    ("ardra", "rahu"),
    ("punarvasu", "jupiter"),
    ("pushya", "saturn"),
    ("ashlesha", "mercury"),
    ("magha", "ketu"),
    ("purva_phalguni", "venus"),
    ("uttara_phalguni", "sun"),
    ("hasta", "moon"),
    ("chitra", "mars"),
    ("swati", "rahu"),
    ("vishakha", "jupiter"),
    ("anuradha", "saturn"),
    ("jyeshtha", "mercury"),
    ("mula", "ketu"),
    ("purva_ashadha", "venus"),
    ("uttara_ashadha", "sun"),
    ("shravana", "moon"),
    ("dhanishta", "mars"),
    ("shatabhisha", "rahu"),
    ("purva_bhadrapada", "jupiter"),
    ("uttara_bhadrapada", "saturn"),
    ("revati", "mercury"),
)
COUNT = len(NAKSHATRA_TABLE)
SPAN_DEG = 360.0 / COUNT
PADAS = 4
PADA_DEG = SPAN_DEG / PADAS


@dataclass(frozen=True)
class Nakshatra:
    """Where a sidereal longitude stands among the nakshatras: ``index`` 1-27 (1 Ashwini),
    ``name``, ``pada`` 1-4, ``lord`` (a planet, rahu or ketu) and ``elapsed``, the fraction
    [0, 1) of the nakshatra behind the longitude."""

    index: int
    name: str
    pada: int
    lord: str
    elapsed: float


def nakshatra_of(longitude_deg: float) -> Nakshatra:
    """Return the nakshatra of a sidereal longitude (degrees, any value: read modulo 360)."""
    longitude = longitude_deg % 360.0
    position = longitude / SPAN_DEG
    number = min(int(position), COUNT - 1)
    elapsed = min(max(position - number, 0.0), 1.0 - 1e-15)
    name, lord = NAKSHATRA_TABLE[number]
    return Nakshatra(number + 1, name, min(int(elapsed * PADAS), PADAS - 1) + 1, lord, elapsed)
