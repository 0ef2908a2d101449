"""Solar-arc directions: every point of the natal chart moved forward by one arc (/v1/directions).

The arc a birth has travelled to a target date depends on its ``key``:

- ``true_solar_arc``: the secondary progressed Sun's longitude minus the natal Sun's (the Sun of
  the chart cast one day after birth for each year lived, ``kernel/progressions.py``).
- ``naibod``: the Sun's mean daily motion, 0°59'08.33" for each year lived (Valentin Naibod's
  key; 360° / 365.2422 days is 0.985647°).
- ``ptolemy``: one degree for each year lived (the "degree for a year" key, applied here in
  longitude).

Years lived are the days elapsed (UT1) divided by the year's days of the progression
(``kernel.progressions.TROPICAL_YEAR_DAYS`` by default). Every directed point moves forward in
zodiacal longitude by the same arc (solar arc in longitude): directed = natal + arc, mod 360.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.progressions import TROPICAL_YEAR_DAYS
from kernel.timescale import Moment
from kernel.zodiac import normalize_deg

TRUE_SOLAR_ARC = "true_solar_arc"
NAIBOD = "naibod"
PTOLEMY = "ptolemy"
#: The keys, default first.
KEYS = (TRUE_SOLAR_ARC, NAIBOD, PTOLEMY)

#: Naibod's key, degrees a year: 0°59'08.33", the Sun's mean motion in a day.
NAIBOD_DEG_PER_YEAR = 59.0 / 60.0 + 8.33 / 3600.0
#: Ptolemy's key, degrees a year.
PTOLEMY_DEG_PER_YEAR = 1.0

#: What a directed point is: a body, an angle or a house cusp.
BODY = "body"
ANGLE = "angle"
CUSP = "cusp"


@dataclass(frozen=True)
class NatalPoint:
    """A point of the natal chart that is directed: its ``name`` (a body's name, ``ascendant``,
    ``midheaven``, ``descendant``, ``imum_coeli``, ``vertex``, or ``cusp_1`` … ``cusp_12``), its
    ``kind`` (BODY, ANGLE, CUSP) and its ecliptic ``longitude`` in degrees [0, 360)."""

    name: str
    kind: str
    longitude: float


@dataclass(frozen=True)
class DirectedPoint:
    """A natal point and where the arc moved it: both longitudes in degrees [0, 360), on the
    natal chart's ecliptic (tropical, or sidereal when the chart is)."""

    name: str
    kind: str
    natal_longitude: float
    directed_longitude: float


def years_lived(natal: Moment, target: Moment, year_days: float = TROPICAL_YEAR_DAYS) -> float:
    """Return the years from ``natal`` to ``target``: the UT1 days between them over ``year_days``."""
    return (target.jd_ut1 - natal.jd_ut1) / year_days


def solar_arc(key: str, years: float, natal_sun_deg: float, progressed_sun_deg: float) -> float:
    """Return the arc in degrees [0, 360) directed by ``key`` after ``years``: for
    ``true_solar_arc`` the progressed Sun's longitude minus the natal Sun's (both degrees, on
    the same ecliptic), else the key's degrees a year times ``years``. An unknown key is the
    caller's error (ValueError)."""
    if key == TRUE_SOLAR_ARC:
        return normalize_deg(progressed_sun_deg - natal_sun_deg)
    if key == NAIBOD:
        return normalize_deg(NAIBOD_DEG_PER_YEAR * years)
    if key == PTOLEMY:
        return normalize_deg(PTOLEMY_DEG_PER_YEAR * years)
    raise ValueError(f"unknown direction key {key!r}")


def angle_points(ascendant_deg: float, midheaven_deg: float, vertex_deg: float) -> list[NatalPoint]:
    """Return the four angles and the Vertex as natal points (degrees): the ascendant, the
    midheaven, the descendant and the imum coeli (each opposite), then the vertex."""
    return [
        NatalPoint("ascendant", ANGLE, normalize_deg(ascendant_deg)),
        NatalPoint("midheaven", ANGLE, normalize_deg(midheaven_deg)),
        NatalPoint("descendant", ANGLE, normalize_deg(ascendant_deg + 180.0)),
        NatalPoint("imum_coeli", ANGLE, normalize_deg(midheaven_deg + 180.0)),
        NatalPoint("vertex", ANGLE, normalize_deg(vertex_deg)),
    ]


def cusp_points(cusps_deg: list[float]) -> list[NatalPoint]:
    """Return the house cusps (degrees, house 1 first) as natal points ``cusp_1`` …"""
    return [NatalPoint(f"cusp_{n}", CUSP, normalize_deg(c)) for n, c in enumerate(cusps_deg, start=1)]


def direct(points: list[NatalPoint], arc_deg: float) -> list[DirectedPoint]:
    """Return each point moved forward by ``arc_deg`` degrees of longitude, in the given order."""
    return [DirectedPoint(p.name, p.kind, p.longitude, normalize_deg(p.longitude + arc_deg)) for p in points]
