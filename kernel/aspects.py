"""Aspect types and the search for aspects, parallels and contraparallels between points."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from kernel.errors import UnreadableValue


@dataclass(frozen=True, slots=True)
class AspectType:
    """One angular aspect type: its exact angle and default orb, both in degrees."""

    name: str
    angle_deg: float
    default_orb_deg: float


# Source: spec/interface.md "Shared parameter values" (names, angles) and
# spec/decisions.md "Aspects" (default orbs). Columns: name, exact angle (deg), default orb (deg).
_ASPECT_TABLE: tuple[tuple[str, float, float], ...] = (
    ("conjunction", 0.0, 8.0),
    ("opposition", 180.0, 8.0),
    ("trine", 120.0, 8.0),
    ("square", 90.0, 7.0),
    ("sextile", 60.0, 6.0),
    ("quincunx", 150.0, 3.0),
    ("semi_sextile", 30.0, 2.0),
    ("semi_square", 45.0, 2.0),
    ("sesquiquadrate", 135.0, 2.0),
    ("quintile", 72.0, 2.0),
    ("bi_quintile", 144.0, 2.0),
    ("septile", 360.0 / 7.0, 1.0),
    ("bi_septile", 720.0 / 7.0, 1.0),
    ("tri_septile", 1080.0 / 7.0, 1.0),
    ("quindecile", 165.0, 2.0),
)
DEFAULT_PARALLEL_ORB = 1.0

# Name -> AspectType, in table order; read-only.
ASPECT_TYPES: Mapping[str, AspectType] = MappingProxyType(
    {name: AspectType(name, angle, orb) for name, angle, orb in _ASPECT_TABLE}
)
ASPECT_NAMES: tuple[str, ...] = tuple(ASPECT_TYPES)

# Default of /v1/aspects and charts; the transit scan uses the Major 5.
MAJOR_SEVEN: tuple[str, ...] = (
    "conjunction",
    "opposition",
    "trine",
    "square",
    "sextile",
    "quincunx",
    "semi_sextile",
)
MAJOR_FIVE: tuple[str, ...] = ("conjunction", "sextile", "square", "trine", "opposition")

# Accepted spellings beyond the canonical names (after lower-casing and hyphen -> underscore):
# every name written without separators (semisextile, biquintile, semisquare, biseptile, ...)
# and sesquisquare for sesquiquadrate.
_ALIASES: Mapping[str, str] = MappingProxyType(
    {name.replace("_", ""): name for name in ASPECT_NAMES}
    | {name: "sesquiquadrate" for name in ("sesquisquare", "sesqui_square", "sesqui_quadrate")}
)
_DECLINATION_NAMES = frozenset({"parallel", "parallels", "contraparallel", "contra_parallel", "contraparallels"})

# Slack on every orb comparison, so an aspect built exactly at the edge of its orb is not lost
# to floating-point rounding of the separation (1e-9 deg is about 4 micro-arcseconds).
ORB_TOLERANCE_DEG = 1e-9


@dataclass(frozen=True)
class Point:
    """A body at one moment: ecliptic longitude (deg), its daily motion (deg/day), declination (deg)."""

    name: str
    longitude_deg: float
    speed_deg_per_day: float | None
    declination_deg: float | None = None


@dataclass(slots=True)
class AspectMatch:
    """One aspect between two points; angles and orbs in degrees.

    ``separation_deg`` is the actual angular distance of the two longitudes (0..180),
    ``exact_angle_deg`` the aspect's angle, ``orb_deg`` = |separation - exact angle|,
    ``max_orb_deg`` the orb that admitted it, ``applying`` whether the orb is shrinking
    (``None`` when not computed or a speed is unknown).
    """

    body_a: str
    body_b: str
    aspect: str
    separation_deg: float
    exact_angle_deg: float
    orb_deg: float
    max_orb_deg: float
    applying: bool | None


@dataclass(slots=True)
class ParallelMatch:
    """One declination parallel or contraparallel; declinations and orbs in degrees.

    ``orb_deg`` is |dA - dB| for a parallel and |dA + dB| for a contraparallel;
    ``max_orb_deg`` is the parallel orb that admitted it.
    """

    body_a: str
    body_b: str
    parallel_type: str
    declination_a_deg: float
    declination_b_deg: float
    orb_deg: float
    max_orb_deg: float


def _valid_names_hint() -> str:
    return (
        "Use aspect names from: "
        + ", ".join(ASPECT_NAMES)
        + " (hyphens or underscores, any case; also semisextile, biquintile)."
    )


def parse_aspect_types(names: Sequence[str]) -> list[str]:
    """Return the canonical aspect type names for ``names``, duplicates dropped, first order kept.

    Accepts any case, hyphens or underscores, and the unseparated spellings (``semisextile``,
    ``biquintile``, ...). Raises :class:`UnreadableValue` for an unknown name and
    for ``parallel``/``contraparallel`` (declination aspects are asked for with ``parallels=true``).
    """
    out: list[str] = []
    for raw in names:
        if not isinstance(raw, str):
            raise UnreadableValue(f"Aspect type {raw!r} is not a name.", suggestion=_valid_names_hint())
        key = raw.strip().lower().replace("-", "_")
        name = key if key in ASPECT_TYPES else _ALIASES.get(key)
        if name is None:
            if key in _DECLINATION_NAMES:
                raise UnreadableValue(
                    f"'{raw}' is not an angular aspect type.",
                    suggestion="Parallels and contraparallels are requested with parallels=true "
                    "(and contraparallel=true/false), not in aspects.",
                )
            shown = f"'{raw}'" if raw.strip() else "an empty name"
            raise UnreadableValue(f"Unknown aspect type {shown}.", suggestion=_valid_names_hint())
        if name not in out:
            out.append(name)
    return out


def canonical_aspect_types(names: Sequence[str]) -> Sequence[str]:
    """Return ``names`` as :func:`parse_aspect_types` returns them: as they are when they are
    so already (each once, canonical: what a request's reader passed on), else parsed.

    >>> canonical_aspect_types(("trine", "square"))
    ('trine', 'square')
    >>> canonical_aspect_types(["Trine", "semi-square", "trine"])
    ['trine', 'semi_square']
    """
    if all(name in ASPECT_TYPES for name in names) and len(set(names)) == len(names):
        return names
    return parse_aspect_types(list(names))


def _check_orb(orb_deg: float) -> float:
    """Return ``orb_deg`` as a float after refusing a negative or non-finite orb (degrees)."""
    try:
        value = float(orb_deg)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or value < 0.0:
        raise UnreadableValue(
            f"The orb must be a finite number of degrees at or above 0; got {orb_deg!r}.",
            suggestion="Send an orb in degrees such as 8 or 1.5.",
        )
    return value


# A plan is 181 buckets, one per whole degree of separation (0..180); bucket k lists, in the
# caller's type order, the (name, angle, max orb) whose admitted window touches [k, k + 1].
_Plan = tuple[tuple[tuple[str, float, float], ...], ...]


@lru_cache(maxsize=256)
def _plan(types: tuple[str, ...], orb_deg: float | None) -> _Plan:
    """Return the per-degree candidate buckets for ``types`` with ``orb_deg`` overriding orbs."""
    rows = []
    for name in canonical_aspect_types(types):
        kind = ASPECT_TYPES[name]
        max_orb = kind.default_orb_deg if orb_deg is None else orb_deg
        rows.append((name, kind.angle_deg, max_orb))
    buckets = []
    for k in range(181):
        buckets.append(
            tuple(
                row
                for row in rows
                if row[1] - row[2] - ORB_TOLERANCE_DEG <= k + 1 and row[1] + row[2] + ORB_TOLERANCE_DEG >= k
            )
        )
    return tuple(buckets)


def _prepare(types: Sequence[str], orb_deg: float | None) -> _Plan:
    if orb_deg is not None:
        orb_deg = _check_orb(orb_deg)
    return _plan(tuple(types), orb_deg)


def _best_aspect(
    name_a: str,
    lon_a: float,
    speed_a: float | None,
    name_b: str,
    lon_b: float,
    speed_b: float | None,
    plan: _Plan,
    with_applying: bool,
) -> AspectMatch | None:
    """Return the admitted aspect with the smallest orb between two longitudes, or None."""
    # Signed difference b - a in (-180, 180]; its magnitude is the separation.
    d = (lon_b - lon_a) % 360.0
    if d > 180.0:
        d -= 360.0
    s = -d if d < 0.0 else d
    best = None
    best_orb = math.inf
    for row in plan[int(s)]:
        diff = s - row[1]
        orb = -diff if diff < 0.0 else diff
        if orb < best_orb and orb <= row[2] + ORB_TOLERANCE_DEG:
            best, best_orb = row, orb
    if best is None:
        return None
    applying = None
    if with_applying and speed_a is not None and speed_b is not None:
        rel = speed_b - speed_a
        # d(separation)/dt: |d| grows with the sign of d; at 0 it can only grow, at 180 only shrink.
        if d == 0.0:
            ds = abs(rel)
        elif d == 180.0:
            ds = -abs(rel)
        elif d > 0.0:
            ds = rel
        else:
            ds = -rel
        diff = s - best[1]
        # The orb |s - angle| shrinks when s moves toward the angle; exact (orb 0) never applies.
        applying = (diff > 0.0 and ds < 0.0) or (diff < 0.0 and ds > 0.0)
    return AspectMatch(name_a, name_b, best[0], s, best[1], best_orb, best[2], applying)


def find_aspects(
    points: Sequence[Point],
    types: Sequence[str],
    *,
    orb_deg: float | None = None,
    with_applying: bool = True,
) -> list[AspectMatch]:
    """Return the aspects among ``points``: at most one per unordered pair, pairs i < j in order.

    Each pair gets the admitted type (orb <= max orb; ``orb_deg`` replaces every type's default)
    with the smallest orb, ties going to the type listed first in ``types``. Degrees throughout;
    ``applying`` is None when ``with_applying`` is False or either speed is None.
    """
    plan = _prepare(types, orb_deg)
    names = [p.name for p in points]
    lons = [p.longitude_deg for p in points]
    speeds = [p.speed_deg_per_day for p in points]
    out: list[AspectMatch] = []
    n = len(points)
    for i in range(n):
        name_a, lon_a, speed_a = names[i], lons[i], speeds[i]
        for j in range(i + 1, n):
            match = _best_aspect(name_a, lon_a, speed_a, names[j], lons[j], speeds[j], plan, with_applying)
            if match is not None:
                out.append(match)
    return out


def find_aspects_between(
    points_a: Sequence[Point],
    points_b: Sequence[Point],
    types: Sequence[str],
    *,
    orb_deg: float | None = None,
    with_applying: bool = True,
) -> list[AspectMatch]:
    """Return the aspects from each point of ``points_a`` to each of ``points_b`` (A-major order).

    Same rules as :func:`find_aspects`; ``body_a`` is always from set A, and a body may meet
    its namesake in the other set (synastry, transits). Degrees throughout.
    """
    plan = _prepare(types, orb_deg)
    others = [(p.name, p.longitude_deg, p.speed_deg_per_day) for p in points_b]
    out: list[AspectMatch] = []
    for a in points_a:
        name_a, lon_a, speed_a = a.name, a.longitude_deg, a.speed_deg_per_day
        for name_b, lon_b, speed_b in others:
            match = _best_aspect(name_a, lon_a, speed_a, name_b, lon_b, speed_b, plan, with_applying)
            if match is not None:
                out.append(match)
    return out


def _parallel(a: Point, b: Point, orb: float, contraparallel: bool) -> ParallelMatch | None:
    """Return the parallel (tried first) or contraparallel of two declinations, or None."""
    da, db = a.declination_deg, b.declination_deg
    if da is None or db is None:
        return None
    diff = abs(da - db)
    if diff <= orb + ORB_TOLERANCE_DEG:
        return ParallelMatch(a.name, b.name, "parallel", da, db, diff, orb)
    if contraparallel:
        total = abs(da + db)
        if total <= orb + ORB_TOLERANCE_DEG:
            return ParallelMatch(a.name, b.name, "contraparallel", da, db, total, orb)
    return None


def find_parallels(
    points: Sequence[Point],
    *,
    orb_deg: float = DEFAULT_PARALLEL_ORB,
    contraparallel: bool = True,
) -> list[ParallelMatch]:
    """Return the parallels and contraparallels among ``points`` (pairs i < j; degrees).

    A parallel when |dA - dB| <= ``orb_deg`` (orb = that difference), tried first; otherwise a
    contraparallel when |dA + dB| <= ``orb_deg`` (orb = |sum|), only if ``contraparallel``.
    Points without a declination are skipped.
    """
    orb = _check_orb(orb_deg)
    out: list[ParallelMatch] = []
    n = len(points)
    for i in range(n):
        a = points[i]
        if a.declination_deg is None:
            continue
        for j in range(i + 1, n):
            match = _parallel(a, points[j], orb, contraparallel)
            if match is not None:
                out.append(match)
    return out


def find_parallels_between(
    points_a: Sequence[Point],
    points_b: Sequence[Point],
    *,
    orb_deg: float = DEFAULT_PARALLEL_ORB,
    contraparallel: bool = True,
) -> list[ParallelMatch]:
    """Return the parallels and contraparallels from each of ``points_a`` to each of ``points_b``.

    Same rules as :func:`find_parallels`; ``body_a`` is always from set A. Degrees throughout.
    """
    orb = _check_orb(orb_deg)
    out: list[ParallelMatch] = []
    for a in points_a:
        if a.declination_deg is None:
            continue
        for b in points_b:
            match = _parallel(a, b, orb, contraparallel)
            if match is not None:
                out.append(match)
    return out
