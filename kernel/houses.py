"""House systems by name or Swiss Ephemeris letter, and house cusps with the polar fallback."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kernel import engine
from kernel.ayanamshas import Ayanamsha
from kernel.conditions import HIGH_LATITUDE, Condition
from kernel.errors import UnreadableValue
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg

# Source: spec/decisions.md "House systems" (name, Swiss Ephemeris hsys letter), with two
# corrections from Swiss Ephemeris's own names (swe_house_name): pullen_sr is Q and sripati S
# (decisions.md swaps the two letters); equal_aries ("equal/1=Aries") and apc ("APC houses")
# are the engine's two systems it did not list (issue 22).
HOUSE_SYSTEM_TABLE: tuple[tuple[str, str], ...] = (
    ("placidus", "P"),
    ("koch", "K"),
    ("porphyrius", "O"),
    ("regiomontanus", "R"),
    ("campanus", "C"),
    ("equal", "E"),
    ("whole_sign", "W"),
    ("vehlow_equal", "V"),
    ("meridian", "X"),
    ("azimuthal", "H"),
    ("polich_page", "T"),
    ("alcabitius", "B"),
    ("morinus", "M"),
    ("krusinski", "U"),
    ("equal_mc", "D"),
    ("pullen_sd", "L"),
    ("pullen_sr", "Q"),
    ("sripati", "S"),
    ("gauquelin", "G"),
    ("sunshine", "i"),
    ("sunshine_treindl", "I"),
    ("carter", "F"),
    ("equal_aries", "N"),
    ("apc", "Y"),
)
HOUSE_SYSTEM_ALIASES: dict[str, str] = {"porphyry": "porphyrius", "topocentric": "polich_page"}

# Systems without cusps at high latitude: Swiss Ephemeris refuses them there ("within polar
# circle, switched to Porphyry"). Found empirically (tests/unit/kernel/test_houses.py checks it):
# Placidus, Koch and Gauquelin fail exactly when |latitude| >= 90° - obliquity (the polar
# circles); Sunshine (Makransky) fails when |latitude| >= 90° - |Sun's declination|, i.e. where
# the Sun neither rises nor sets that day. Every other system gives cusps up to the poles.
POLAR_UNDEFINED_LETTERS: frozenset[str] = frozenset({"P", "K", "G", "i"})
SUN_DEPENDENT_LETTERS: frozenset[str] = frozenset({"i"})
FALLBACK_SYSTEM_NAME = "porphyrius"


@dataclass(frozen=True)
class HouseSystem:
    """A house system: our lowercase ``name`` and its case-sensitive Swiss Ephemeris ``letter``."""

    name: str
    letter: str


HOUSE_SYSTEMS: tuple[HouseSystem, ...] = tuple(HouseSystem(name, letter) for name, letter in HOUSE_SYSTEM_TABLE)
HOUSE_SYSTEM_NAMES: tuple[str, ...] = tuple(s.name for s in HOUSE_SYSTEMS)
_BY_NAME = {s.name: s for s in HOUSE_SYSTEMS}
_BY_LETTER = {s.letter: s for s in HOUSE_SYSTEMS}


def parse_house_system(text: str) -> HouseSystem:
    """Return the house system named by ``text``.

    A single character is a Swiss Ephemeris letter, matched case-sensitively (``i`` is
    sunshine, ``I`` sunshine_treindl); anything longer is a name or alias, matched
    case-insensitively (``porphyry`` -> porphyrius, ``topocentric`` -> polich_page). Unknown
    values raise UnreadableValue listing the systems (worded with the parameter's name).
    """
    if isinstance(text, str):
        key = text.strip()
        if len(key) == 1 and key in _BY_LETTER:
            return _BY_LETTER[key]
        lowered = key.lower()
        lowered = HOUSE_SYSTEM_ALIASES.get(lowered, lowered)
        if len(key) > 1 and lowered in _BY_NAME:
            return _BY_NAME[lowered]
    listing = ", ".join(f"{s.name} ({s.letter})" for s in HOUSE_SYSTEMS)
    raise UnreadableValue(
        wording=lambda param: (
            f"Unknown house system {text!r} for {param}. Accepted names (case-insensitive) and Swiss "
            f"Ephemeris letters (case-sensitive): {listing}; aliases porphyry, topocentric."
        ),
        suggestion="Send a house system name such as placidus, koch or whole_sign.",
    )


@dataclass(frozen=True)
class HouseSet:
    """House cusps and angles at a place and moment; all longitudes in degrees [0, 360).

    ``system`` is the system that produced the cusps (``porphyrius`` after a polar fallback),
    ``requested_system`` the one asked for. ``cusps_deg`` holds the 12 cusps, house 1 first
    (36 Gauquelin sectors). Longitudes are on the ecliptic of date (tropical, or reduced by
    the ayanamsha in sidereal mode); ``armc_deg`` is the right ascension of the MC (local
    apparent sidereal time in degrees, never reduced). ``warnings`` holds a ``high_latitude``
    Condition when the fallback was used.
    """

    system: str
    requested_system: str
    cusps_deg: list[float]
    ascendant_deg: float
    midheaven_deg: float
    armc_deg: float
    vertex_deg: float
    warnings: list[Condition] = field(default_factory=list)


def _display(name: str) -> str:
    return name.replace("_", " ").title()


def compute_houses(
    moment: Moment,
    latitude_deg: float,
    longitude_deg: float,
    system: HouseSystem,
    *,
    sidereal: Ayanamsha | None = None,
    no_nutation: bool = False,
) -> HouseSet:
    """Return the houses of ``system`` at geographic ``latitude_deg`` (north +) and ``longitude_deg`` (east +).

    Where the system has no cusps (Placidus, Koch and Gauquelin inside the polar circles;
    Sunshine where the Sun neither rises nor sets that day) the cusps are Porphyrius,
    ``system`` says so and a ``high_latitude`` Condition is added. ``sidereal`` reduces cusps,
    ascendant, MC and vertex by the ayanamsha; ``no_nutation`` uses the mean equinox and
    obliquity. Returns a :class:`HouseSet` (degrees). A latitude outside [-90, 90] or a
    longitude outside [-180, 180] is the caller's error (ValueError): requests are checked
    against those ranges before they reach the kernel.
    """
    _check_coordinate(latitude_deg, -90.0, 90.0, "latitude")
    _check_coordinate(longitude_deg, -180.0, 180.0, "longitude")
    flags = engine.FLG_NONUT if no_nutation else 0
    with engine.map_engine_errors(f"the {system.name} houses", about="system"):
        if sidereal is not None:
            with engine.configured(sidereal_mode=sidereal.id):
                raw = engine.houses(
                    moment.jd_ut1, latitude_deg, longitude_deg, system.letter, flags | engine.FLG_SIDEREAL
                )
        else:
            raw = engine.houses(moment.jd_ut1, latitude_deg, longitude_deg, system.letter, flags)
    warnings: list[Condition] = []
    used = system.name
    if raw.polar_fallback:
        used = FALLBACK_SYSTEM_NAME
        reason = (
            "where the Sun neither rises nor sets on this day"
            if system.letter in SUN_DEPENDENT_LETTERS
            else "inside the polar circle"
        )
        warnings.append(
            Condition(
                HIGH_LATITUDE,
                f"{_display(system.name)} houses do not exist at latitude {latitude_deg:.2f}° "
                f"({reason}); the cusps are {_display(FALLBACK_SYSTEM_NAME)} houses instead.",
            )
        )
    ascmc = raw.ascmc
    return HouseSet(
        system=used,
        requested_system=system.name,
        cusps_deg=[normalize_deg(c) for c in raw.cusps],
        ascendant_deg=normalize_deg(ascmc[0]),
        midheaven_deg=normalize_deg(ascmc[1]),
        armc_deg=normalize_deg(ascmc[2]),
        vertex_deg=normalize_deg(ascmc[3]),
        warnings=warnings,
    )


def _check_coordinate(value: float, low: float, high: float, what: str) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ValueError(f"{what} {value!r} is not a number of degrees between {low:g} and {high:g}")
