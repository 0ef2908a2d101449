"""Each body's distance from the Sun, named as tradition names it: cazimi, combust, under the beams or free."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Source: spec/decisions.md, /v1/solar-proximity. Each status applies below its limit in
# degrees of ecliptic longitude from the Sun, tightest first; beyond the last a body is free.
STATUS_LIMITS_DEG: tuple[tuple[str, float], ...] = (
    ("cazimi", 17.0 / 60.0),
    ("combust", 8.0),
    ("under_the_beams", 17.0),
)
FREE = "free"
SUN = "sun"


@dataclass(frozen=True)
class SolarProximity:
    """One body's ``separation`` from the Sun in degrees of ecliptic longitude, [0, 180], and its status."""

    body: str
    separation: float
    status: str


def status_at(separation_deg: float) -> str:
    """Return the status of a body ``separation_deg`` degrees of longitude from the Sun."""
    for status, limit in STATUS_LIMITS_DEG:
        if separation_deg < limit:
            return status
    return FREE


def solar_proximity(sun_longitude_deg: float, bodies: Sequence[tuple[str, float]]) -> list[SolarProximity]:
    """Return the proximity of each (name, ecliptic longitude deg) in ``bodies``, in their
    order, the Sun itself left out. The separation is the shorter arc of longitude, the
    measure of the tradition (latitude ignored), and the same in any zodiac."""
    out = []
    for name, longitude in bodies:
        if name == SUN:
            continue
        arc = abs(longitude - sun_longitude_deg) % 360.0
        separation = 360.0 - arc if arc > 180.0 else arc
        out.append(SolarProximity(name, separation, status_at(separation)))
    return out
