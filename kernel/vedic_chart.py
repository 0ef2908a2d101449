"""The sidereal birth chart of Jyotish: the grahas (Sun to Saturn, Rahu and Ketu, optionally
Uranus to Pluto) and the lagna, each with its sign, nakshatra and house, whether retrograde
and whether combust, and their signs in the divisional charts asked for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kernel.ayanamshas import Ayanamsha
from kernel.chart import zodiacal_house
from kernel.conditions import Condition
from kernel.houses import HouseSystem, compute_houses
from kernel.nakshatras import Nakshatra, nakshatra_of
from kernel.natal_points import ANGLES_ONLY_SYSTEM
from kernel.positions import CalcFlags, Observer, ayanamsha_value, compute_positions
from kernel.timescale import Moment
from kernel.vargas import Varga, varga_sign_name
from kernel.zodiac import SIGN_KEYS

GRAHAS: tuple[str, ...] = ("sun", "moon", "mars", "mercury", "jupiter", "venus", "saturn")
OUTER_PLANETS: tuple[str, ...] = ("uranus", "neptune", "pluto")
RAHU, KETU, LAGNA = "rahu", "ketu", "lagna"
#: The node Rahu is: the Moon's mean node or its true (osculating) node; Ketu is opposite it.
NODE_BODIES: dict[str, str] = {"mean": "mean_node", "true": "true_node"}
DEFAULT_NODE = "mean"
WHOLE_SIGN, BHAVA = "whole_sign", "bhava"
HOUSE_MODES = (WHOLE_SIGN, BHAVA)

# Source: Surya Siddhanta ch. IX "Heliacal risings and settings" sl. 6-9 (Burgess tr., 1860),
# the kalamshas of each planet's invisibility near the Sun, as the combustion orbs (degrees of
# longitude from the Sun) Jyotish texts read from it (B. V. Raman, A Manual of Hindu
# Astrology): Moon 12, Mars 17, Mercury 14 (12 when retrograde), Jupiter 11, Venus 10 (8
# when retrograde), Saturn 15. Rows: (planet, orb, orb when retrograde).
COMBUSTION_ORBS: tuple[tuple[str, float, float], ...] = (
    ("moon", 12.0, 12.0),
    ("mars", 17.0, 17.0),
    ("mercury", 14.0, 12.0),
    ("jupiter", 11.0, 11.0),
    ("venus", 10.0, 8.0),
    ("saturn", 15.0, 15.0),
)
_ORBS = {planet: (orb, retrograde_orb) for planet, orb, retrograde_orb in COMBUSTION_ORBS}


@dataclass(frozen=True)
class VedicPoint:
    """One graha or the lagna: ``name``, sidereal ``longitude`` [0, 360), ``sign`` (lowercase)
    and ``degree`` in it [0, 30), its ``nakshatra``, its ``house`` 1-12, ``retrograde`` (None
    for the lagna), ``combust`` (None where no orb applies: the Sun, the nodes, Uranus to
    Pluto and the lagna) and ``speed`` (degrees/day; None for the lagna)."""

    name: str
    longitude: float
    sign: str
    degree: float
    nakshatra: Nakshatra
    house: int
    retrograde: bool | None
    combust: bool | None
    speed: float | None


@dataclass(frozen=True)
class VedicChart:
    """A sidereal birth chart: the ``ayanamsha`` and its value in degrees at birth, the
    ``node`` Rahu is, the ``house_mode`` and the ``house_system`` of a bhava chart (None for
    whole signs), the points (grahas in order, then the lagna), each varga's sign of every
    point by code then name, and the engine's conditions."""

    ayanamsha: Ayanamsha
    ayanamsha_deg: float
    node: str
    house_mode: str
    house_system: str | None
    points: list[VedicPoint]
    vargas: dict[str, dict[str, str]] = field(default_factory=dict)
    warnings: list[Condition] = field(default_factory=list)


def is_combust(planet: str, longitude_deg: float, sun_longitude_deg: float, retrograde: bool) -> bool | None:
    """Return whether ``planet`` is within its combustion orb of the Sun (COMBUSTION_ORBS), or
    None for a body without one."""
    orbs = _ORBS.get(planet)
    if orbs is None:
        return None
    separation = abs((longitude_deg - sun_longitude_deg + 180.0) % 360.0 - 180.0)
    return separation < (orbs[1] if retrograde else orbs[0])


def cast_vedic_chart(
    moment: Moment,
    place: Observer,
    ayanamsha: Ayanamsha,
    *,
    node: str = DEFAULT_NODE,
    outer: bool = False,
    house_mode: str = WHOLE_SIGN,
    system: HouseSystem | None = None,
    vargas: Sequence[Varga] = (),
) -> VedicChart:
    """Return the sidereal chart of a birth at ``moment`` and ``place``: apparent geocentric
    longitudes of date reduced by ``ayanamsha``, Rahu the ``node`` (mean or true) and Ketu
    180° from it, Uranus to Pluto with ``outer``, the lagna the sidereal Ascendant. Houses are
    whole signs from the lagna's sign (the Ascendant alone is needed, cast in the natal
    points' ANGLES_ONLY_SYSTEM, which never falls back nor warns), or with ``house_mode`` bhava
    the span between two cusps of ``system`` (the bhava chalit) that holds the longitude. Raises the kernel's errors for
    a moment outside the ephemeris."""
    bodies = [*GRAHAS, NODE_BODIES[node], *(OUTER_PLANETS if outer else ())]
    result = compute_positions(moment, bodies, CalcFlags(sidereal=ayanamsha))
    records = {r.body: r for r in result.records}
    cusp_system = system if house_mode == BHAVA and system is not None else None
    houses = compute_houses(
        moment, place.latitude_deg, place.longitude_deg, cusp_system or ANGLES_ONLY_SYSTEM, sidereal=ayanamsha
    )
    lagna = houses.ascendant_deg
    lagna_sign = int(lagna // 30.0) % 12

    def house_of(longitude: float) -> int:
        if cusp_system is not None:
            return zodiacal_house(longitude, houses.cusps_deg)
        return (int(longitude // 30.0) % 12 - lagna_sign) % 12 + 1

    sun = records["sun"].longitude
    points = []
    for name in bodies:
        record = records[name]
        label = RAHU if name == NODE_BODIES[node] else name
        retrograde = bool(record.retrograde)
        points.append(
            _point(
                label,
                record.longitude,
                house_of(record.longitude),
                retrograde,
                is_combust(label, record.longitude, sun, retrograde),
                record.speed,
            )
        )
        if label == RAHU:
            ketu = (record.longitude + 180.0) % 360.0
            points.append(_point(KETU, ketu, house_of(ketu), retrograde, None, record.speed))
    points.append(_point(LAGNA, lagna, house_of(lagna), None, None, None))
    divisions = {v.code: {p.name: varga_sign_name(v, p.longitude) for p in points} for v in vargas}
    return VedicChart(
        ayanamsha,
        ayanamsha_value(moment, ayanamsha),
        node,
        house_mode,
        houses.system if cusp_system else None,
        points,
        divisions,
        [*result.conditions, *(houses.warnings if cusp_system else [])],
    )


def _point(
    name: str, longitude: float, house: int, retrograde: bool | None, combust: bool | None, speed: float | None
) -> VedicPoint:
    """Return one point of the chart, its sign and nakshatra read from its longitude."""
    sign = min(int(longitude // 30.0), 11)
    return VedicPoint(
        name,
        longitude,
        SIGN_KEYS[sign],
        longitude - sign * 30.0,
        nakshatra_of(longitude),
        house,
        retrograde,
        combust,
        speed,
    )
