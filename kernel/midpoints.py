"""Midpoints, antiscia and midpoint trees (interface.md, GET/POST /v1/midpoints, rules 1, 2 and 4)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kernel.errors import UnreadableValue
from kernel.zodiac import normalize_deg

RESOLUTIONS = ("lower", "higher")
#: Dials the spec names; any modulus in (0, 360] is accepted.
DEFAULT_MODULUS_DEG = 90.0
DEFAULT_TREE_ORB_DEG = 1.5
MAX_TREE_ORB_DEG = 15.0


@dataclass(frozen=True)
class DerivedPoint:
    """A midpoint, antiscion or contra-antiscion: ``kind``, ``name`` (``a/b`` for a midpoint,
    the body for antiscia), ``constituents``, ``longitude`` in degrees [0, 360) and
    ``declination`` in degrees (None for a midpoint)."""

    kind: str
    name: str
    constituents: tuple[str, ...]
    longitude: float
    declination: float | None = None


@dataclass(frozen=True)
class TreeHit:
    """A midpoint of two other bodies near a tree's body on the dial: ``orb`` in degrees."""

    constituents: tuple[str, str]
    longitude: float
    orb: float


@dataclass(frozen=True)
class Tree:
    """One body's midpoint tree on a dial of ``modulus`` degrees, hits tightest first."""

    body: str
    longitude: float
    modulus: float
    hits: list[TreeHit] = field(default_factory=list)


def parse_resolution(text: str) -> str:
    """Return ``lower`` or ``higher``; anything else raises UnreadableValue."""
    if text not in RESOLUTIONS:
        raise UnreadableValue(
            f"Unknown resolution {text!r}.", suggesting=lambda param: f"Send {param}=lower or {param}=higher."
        )
    return text


def check_modulus(modulus_deg: float) -> float:
    """Return the dial ``modulus_deg`` when it lies in (0, 360]; raise UnreadableValue otherwise."""
    if not (math.isfinite(modulus_deg) and 0.0 < modulus_deg <= 360.0):
        raise UnreadableValue(
            wording=lambda param: f"{param} must lie in (0, 360]; got {modulus_deg!r}.",
            suggestion="Send a dial such as 360, 90 or 45.",
        )
    return modulus_deg


def check_tree_orb(orb_deg: float) -> float:
    """Return ``orb_deg`` when it lies in [0, 15]; raise UnreadableValue otherwise."""
    if not (math.isfinite(orb_deg) and 0.0 <= orb_deg <= MAX_TREE_ORB_DEG):
        raise UnreadableValue(
            wording=lambda param: f"{param} must lie in [0, 15]; got {orb_deg!r}.",
            suggestion="Send a dial orb of at most 15 degrees.",
        )
    return orb_deg


def midpoint(a_deg: float, b_deg: float, resolution: str = "lower") -> float:
    """Return the midpoint of two longitudes on the shorter arc, in degrees [0, 360).

    Exactly 180° apart, both arcs are equal and the two candidates are opposite each other;
    ``lower`` takes the one with the smaller longitude in [0, 360), ``higher`` the other.
    """
    arc = normalize_deg(b_deg - a_deg)
    if arc == 180.0:
        first, second = normalize_deg(a_deg + 90.0), normalize_deg(a_deg + 270.0)
        low, high = min(first, second), max(first, second)
        return low if resolution == "lower" else high
    if arc < 180.0:
        return normalize_deg(a_deg + arc / 2.0)
    return normalize_deg(b_deg + (360.0 - arc) / 2.0)


def antiscion(longitude_deg: float) -> float:
    """Return the reflection across the 0° Cancer / 0° Capricorn axis: 180° − longitude."""
    return normalize_deg(180.0 - longitude_deg)


def contra_antiscion(longitude_deg: float) -> float:
    """Return the reflection across the 0° Aries / 0° Libra axis: −longitude."""
    return normalize_deg(-longitude_deg)


def derived_points(
    bodies: list[tuple[str, float, float]], *, midpoints: bool = True, antiscia: bool = True, resolution: str = "lower"
) -> list[DerivedPoint]:
    """Return the derived points of ``bodies`` (name, longitude, declination; degrees, in chart
    order): the midpoint of every pair (i < j, in that order), then each body's antiscion
    (keeping its declination) and contra-antiscion (negating it)."""
    points: list[DerivedPoint] = []
    if midpoints:
        for i, (name_a, lon_a, _) in enumerate(bodies):
            for name_b, lon_b, _ in bodies[i + 1 :]:
                points.append(
                    DerivedPoint("midpoint", f"{name_a}/{name_b}", (name_a, name_b), midpoint(lon_a, lon_b, resolution))
                )
    if antiscia:
        for name, longitude, declination in bodies:
            points.append(DerivedPoint("antiscion", name, (name,), antiscion(longitude), declination))
            points.append(DerivedPoint("contra_antiscion", name, (name,), contra_antiscion(longitude), -declination))
    return points


def dial_distance(a_deg: float, b_deg: float, modulus_deg: float) -> float:
    """Return how far apart two longitudes are on a dial of ``modulus_deg`` (degrees, at most
    half the modulus): their difference reduced modulo the dial, folded to the shorter way."""
    reduced = math.fmod(abs(a_deg - b_deg), modulus_deg)
    return min(reduced, modulus_deg - reduced)


def midpoint_trees(
    bodies: list[tuple[str, float]],
    *,
    modulus_deg: float = DEFAULT_MODULUS_DEG,
    orb_deg: float = DEFAULT_TREE_ORB_DEG,
    resolution: str = "lower",
) -> list[Tree]:
    """Return one tree per body (name, longitude; degrees, chart order): every midpoint of two
    other bodies within ``orb_deg`` of it on the dial, tightest first (ties in pair order).
    On the 90° dial that joins the conjunct, square and opposite midpoints; on the 45° dial the
    semi-squares and sesquiquadrates too. A body with no hits still has its tree."""
    pairs = [
        ((name_a, name_b), midpoint(lon_a, lon_b, resolution))
        for i, (name_a, lon_a) in enumerate(bodies)
        for name_b, lon_b in bodies[i + 1 :]
    ]
    trees = []
    for name, longitude in bodies:
        hits = []
        for order, (constituents, point) in enumerate(pairs):
            if name in constituents:
                continue
            orb = dial_distance(longitude, point, modulus_deg)
            if orb <= orb_deg:
                hits.append((orb, order, TreeHit(constituents, point, orb)))
        hits.sort(key=lambda hit: (hit[0], hit[1]))
        trees.append(Tree(name, longitude, modulus_deg, [hit for _, _, hit in hits]))
    return trees
