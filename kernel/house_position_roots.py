"""Cusp lines without a closed form: on each latitude row, the geographic longitude where a
body's house value equals the cusp value, found numerically.

The house value is, in zodiacal mode, the body's place among the cusps of the chart cast
there: k plus the fraction of the arc from cusp k to cusp k + 1 its longitude has covered
(Swiss Ephemeris's own "simplified" house position), so an integer value puts the body's
longitude exactly on that cusp and the integer part is the relocated chart's zodiacal house.
In mundane mode it is Swiss Ephemeris's house_pos of the body with its true latitude, the
chart's mundane ``house_position``. Swiss Ephemeris's house_pos is not used in zodiacal
mode because for some systems it contradicts the system's own cusps (azimuthal by half a
turn, letter S at the end of house 12).

On a row the ARMC is Greenwich apparent sidereal time plus the east longitude, so a row is
one turn of ARMC. As the sky turns a point moves with the diurnal motion through the houses
in falling order (1 rising, 12, 11, 10 culminating, ... 4 at the lower meridian), so its house
position falls through every value once per turn; at high latitude it can turn back and
cross a value three times. Each row is sampled every GRID_STEP_DEG of ARMC, each sign change
of (house position - cusp) is refined by regula falsi (Illinois), and a bracket that closes
on a jump of the house position rather than on a root is dropped (but see MAX_JUMP_HOUSE);
where Swiss Ephemeris cannot place the point on part of a row, the edges of that stretch
are searched too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernel import engine

# ARMC sampling of a row. The house position falls by 12 houses per turn, a house per 30° on
# average; 10° brackets every crossing that is not one of a close pair (a pair inside one
# step has no sign change between samples and is missed with its twin, leaving the third).
GRID_STEP_DEG = 10.0
# Refinement stops when |house position - cusp| is below this (houses; 1e-10 house is
# 3e-9° of house arc) or the bracket is narrower than BRACKET_TOLERANCE_DEG of ARMC.
ROOT_TOLERANCE_HOUSE = 1e-10
BRACKET_TOLERANCE_DEG = 1e-9
MAX_ITERATIONS = 60
# A refined bracket whose best value is farther than this from the cusp closed on a jump of
# the house position (a system's discontinuity), not on a root.
ACCEPT_TOLERANCE_HOUSE = 1e-6
# In mundane mode a jump across the cusp smaller than this is where the body passes the cusp:
# Swiss Ephemeris's Koch position of a body off the ecliptic jumps by a fraction of a house at
# the meridian (its eastern and western formulas meet only for the MC's declination). A larger
# jump is a system turning over (azimuthal's half turn), and in zodiacal mode a jump is a cusp
# leaping at high latitude: no crossing.
MAX_JUMP_HOUSE = 0.5

GAUQUELIN_LETTER = "G"


@dataclass(frozen=True)
class Crossing:
    """An ARMC (degrees) where the house position equals the cusp; ``falling`` when it passes
    the cusp with the diurnal motion (house position decreasing as ARMC grows)."""

    armc_deg: float
    falling: bool


def as_house_value(position: np.ndarray | float, letter: str) -> np.ndarray:
    """Return house positions in [1, 13) counted like houses (1 rising, 10 culminating, 7
    setting, 4 at the lower meridian). Gauquelin's 36 sectors run the other way from the
    rising point (10 culminating, 19 setting, 28 at the lower meridian): sector position ``g``
    is house value 13 - (g - 1) / 3, modulo 12."""
    value = np.asarray(position, dtype=float)
    if letter == GAUQUELIN_LETTER:
        return (12.0 - (value - 1.0) / 3.0) % 12.0 + 1.0
    return value


def _wrap(houses: np.ndarray) -> np.ndarray:
    """A difference of house values, wrapped into [-6, 6) houses."""
    return (houses + 6.0) % 12.0 - 6.0


def position_among_cusps(longitude_deg: float, cusps_deg: np.ndarray) -> np.ndarray:
    """Return the position of ecliptic longitude ``longitude_deg`` among each row of cusps
    (shape (rows, n), degrees; NaN rows stay NaN): k + (longitude - cusp k) / (cusp k+1 -
    cusp k), arcs taken in the direction the cusps run (against the zodiac for Gauquelin's
    sectors), in [1, n + 1). Swiss Ephemeris's house_pos does the same for the systems whose
    positions it calls simplified (swehouse.c, swe_house_pos, default case)."""
    first = cusps_deg[:, :1]
    count = cusps_deg.shape[1]
    direct = ((cusps_deg[:, count // 2 - 1 : count // 2] - first + 180.0) % 360.0 - 180.0) > 0.0
    offsets = np.where(direct, cusps_deg - first, first - cusps_deg) % 360.0
    arc = np.where(direct, longitude_deg - first, first - longitude_deg) % 360.0
    ends = np.concatenate([offsets[:, 1:], np.full_like(first, 360.0)], axis=1)
    k = np.argmax(arc < ends, axis=1)
    rows = np.arange(len(k))
    start, stop = offsets[rows, k], ends[rows, k]
    size = stop - start
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = np.where(size > 0.0, (arc[:, 0] - start) / size, 0.0)
    return np.where(np.isfinite(first[:, 0]), k + 1.0 + fraction, np.nan)


def _house_offsets(
    letter: str,
    cusp: float,
    armcs_deg: np.ndarray,
    latitudes_deg: np.ndarray,
    obliquity_deg: float,
    body_longitude_deg: float,
    body_latitude_deg: float | None,
    sun_declination_deg: float | None,
) -> np.ndarray:
    """Return house value minus ``cusp``, wrapped into [-6, 6) houses, at each pair of ARMC
    and latitude; NaN where the system gives none. ``body_latitude_deg`` None is zodiacal
    mode (the point's place among the cusps), a number mundane mode (house_pos)."""
    armcs, latitudes = armcs_deg.tolist(), latitudes_deg.tolist()
    if body_latitude_deg is None:
        width = 36 if letter == GAUQUELIN_LETTER else 12
        cusps = engine.cusps_at(armcs, latitudes, obliquity_deg, letter, sun_declination_deg)
        table = np.array([c if c is not None else (np.nan,) * width for c in cusps], dtype=float).reshape(-1, width)
        positions = position_among_cusps(body_longitude_deg, table)
    else:
        positions = np.array(
            engine.house_positions(
                armcs, latitudes, obliquity_deg, letter, body_longitude_deg, body_latitude_deg, sun_declination_deg
            )
        )
    return _wrap(as_house_value(positions, letter) - cusp)


def cusp_line_crossings(
    letter: str,
    cusp: float,
    latitudes_deg: np.ndarray,
    obliquity_deg: float,
    body_longitude_deg: float,
    body_latitude_deg: float | None,
    sun_declination_deg: float | None = None,
) -> list[list[Crossing]]:
    """Return, for each latitude row, every ARMC where the point's house value in system
    ``letter`` is ``cusp`` (in [1, 13), see :func:`as_house_value`), in ARMC order. The point
    is given by its tropical ecliptic longitude and latitude of date; ``body_latitude_deg``
    None is zodiacal mode, a number mundane mode. All rows are sampled and refined together."""

    def offsets(armcs: np.ndarray, latitudes: np.ndarray) -> np.ndarray:
        return _house_offsets(
            letter, cusp, armcs, latitudes, obliquity_deg, body_longitude_deg, body_latitude_deg, sun_declination_deg
        )

    grid = np.arange(0.0, 360.0, GRID_STEP_DEG)
    rows, columns = len(latitudes_deg), len(grid)
    start = offsets(np.tile(grid, rows), np.repeat(latitudes_deg, columns)).reshape(rows, columns)
    # The change to the next sample, unwrapped: a step of more than 6 houses is the wrap.
    change = _wrap(np.roll(start, -1, axis=1) - start)
    end = start + change
    row, column = np.nonzero(np.isfinite(start) & np.isfinite(end) & ((start > 0.0) != (end > 0.0)))
    a = grid[column]
    max_jump = 0.0 if body_latitude_deg is None else MAX_JUMP_HOUSE
    found = _refine(offsets, a, a + GRID_STEP_DEG, start[row, column], end[row, column], latitudes_deg[row], max_jump)
    out: list[list[Crossing]] = [[] for _ in range(rows)]
    for i, armc, falling in zip(row.tolist(), found.tolist(), (change[row, column] < 0.0).tolist()):
        if np.isfinite(armc):
            out[i].append(Crossing(armc % 360.0, falling))
    # A house position can reach the cusp exactly where Swiss Ephemeris stops placing the point
    # (Koch's mundane positions 10 and 4 lie on the edge of the stretch it calls invalid): a
    # sample step from a placed to an unplaced point is searched for that edge.
    following = np.roll(start, -1, axis=1)
    row, column = np.nonzero(np.isfinite(start) != np.isfinite(following))
    if row.size:
        a = grid[column]
        edges, values = _edge(offsets, a, a + GRID_STEP_DEG, np.isfinite(start[row, column]), latitudes_deg[row])
        left_placed = np.isfinite(start[row, column])
        falls = np.where(left_placed, start[row, column] > 0.0, following[row, column] < 0.0)
        for i, armc, value, falling in zip(row.tolist(), edges.tolist(), values.tolist(), falls.tolist()):
            if abs(value) < ACCEPT_TOLERANCE_HOUSE:
                out[i].append(Crossing(armc % 360.0, falling))
        for crossings in out:
            crossings.sort(key=lambda c: c.armc_deg)
    return out


def _edge(
    offsets, a: np.ndarray, b: np.ndarray, left_placed: np.ndarray, latitudes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return, for each step [a, b] from a placed to an unplaced point (or back), the last
    placed ARMC before the edge (bisection to BRACKET_TOLERANCE_DEG) and its offset."""
    placed, unplaced = np.where(left_placed, a, b), np.where(left_placed, b, a)
    value = offsets(placed, latitudes)
    while np.any(np.abs(unplaced - placed) >= BRACKET_TOLERANCE_DEG):
        middle = 0.5 * (placed + unplaced)
        at_middle = offsets(middle, latitudes)
        inside = np.isfinite(at_middle)
        placed, value = np.where(inside, middle, placed), np.where(inside, at_middle, value)
        unplaced = np.where(inside, unplaced, middle)
    return placed, value


def _refine(
    offsets, a: np.ndarray, b: np.ndarray, fa: np.ndarray, fb: np.ndarray, latitudes: np.ndarray, max_jump: float
) -> np.ndarray:
    """Return the ARMC in each bracket [a, b] where the offset is 0 (Illinois regula falsi,
    all brackets at once), or where it jumps across 0 by less than ``max_jump`` houses; NaN
    where the bracket closes on a larger jump. A bracket that turns out to hold a stretch of
    unplaced points is searched for a root at that stretch's edges."""
    a, b, fa, fb = a.copy(), b.copy(), fa.copy(), fb.copy()
    true_a, true_b = fa.copy(), fb.copy()  # fa and fb are scaled down by the Illinois step
    take_a = np.abs(fa) <= np.abs(fb)
    best, best_value = np.where(take_a, a, b), np.where(take_a, fa, fb)
    side = np.zeros(len(a))
    gap = np.full(len(a), np.nan)
    for _ in range(MAX_ITERATIONS):
        searching = np.isnan(gap) & (np.abs(best_value) >= ROOT_TOLERANCE_HOUSE) & (b - a >= BRACKET_TOLERANCE_DEG)
        active = np.flatnonzero(searching)
        if active.size == 0:
            break
        ca, cb, cfa, cfb = a[active], b[active], fa[active], fb[active]
        with np.errstate(invalid="ignore", divide="ignore"):
            x = (ca * cfb - cb * cfa) / (cfb - cfa)
        x = np.where((ca < x) & (x < cb), x, 0.5 * (ca + cb))
        fx = offsets(x, latitudes[active])
        unplaced = ~np.isfinite(fx)
        gap[active[unplaced]] = x[unplaced]
        active, x, fx = active[~unplaced], x[~unplaced], fx[~unplaced]
        ca, cb, cfa, cfb = ca[~unplaced], cb[~unplaced], cfa[~unplaced], cfb[~unplaced]
        better = np.abs(fx) < np.abs(best_value[active])
        best[active] = np.where(better, x, best[active])
        best_value[active] = np.where(better, fx, best_value[active])
        same_as_b = (fx > 0.0) == (cfb > 0.0)
        # Illinois: halve the value kept at the end that stayed put twice running.
        fa[active] = np.where(same_as_b & (side[active] == -1), 0.5 * cfa, np.where(same_as_b, cfa, fx))
        true_a[active] = np.where(same_as_b, true_a[active], fx)
        true_b[active] = np.where(same_as_b, fx, true_b[active])
        a[active] = np.where(same_as_b, ca, x)
        fb[active] = np.where(~same_as_b & (side[active] == 1), 0.5 * cfb, np.where(same_as_b, fx, cfb))
        b[active] = np.where(same_as_b, x, cb)
        side[active] = np.where(same_as_b, -1.0, 1.0)
    jumped = (
        (np.abs(best_value) >= ACCEPT_TOLERANCE_HOUSE)
        & (b - a < BRACKET_TOLERANCE_DEG)
        & (np.abs(true_b - true_a) < max_jump)
    )
    best_value = np.where(jumped, 0.0, best_value)
    best = np.where(jumped, 0.5 * (a + b), best)
    holed = np.flatnonzero(np.isfinite(gap))
    if holed.size:
        for placed_end, left_placed in ((a[holed], True), (b[holed], False)):
            lower, upper = (placed_end, gap[holed]) if left_placed else (gap[holed], placed_end)
            edge, value = _edge(offsets, lower, upper, np.full(holed.size, left_placed), latitudes[holed])
            closer = np.abs(value) < np.abs(best_value[holed])
            best[holed] = np.where(closer, edge, best[holed])
            best_value[holed] = np.where(closer, value, best_value[holed])
    return np.where(np.abs(best_value) < ACCEPT_TOLERANCE_HOUSE, best, np.nan)


def cusp_line_armcs(
    letter: str,
    cusp: float,
    latitudes_deg: np.ndarray,
    obliquity_deg: float,
    body_longitude_deg: float,
    body_latitude_deg: float | None,
    *,
    sun_declination_deg: float | None = None,
    skip: np.ndarray | None = None,
) -> np.ndarray:
    """Return, for each latitude row, the ARMC (degrees) at which the point's house value in
    system ``letter`` is ``cusp`` (``body_latitude_deg`` None: zodiacal, see
    :func:`cusp_line_crossings`); NaN where there is none or the row is in ``skip``.

    Where a row has several crossings the line keeps one passed with the diurnal motion (a
    point entering the house the way every point does), and of those the one nearest the
    line's point on the nearest row toward the equator, so that a line is followed outward
    from low latitudes, where it has a single crossing; with no such point, the first.
    """
    rows = len(latitudes_deg)
    solved = np.flatnonzero(~skip) if skip is not None else np.arange(rows)
    candidates: list[list[Crossing]] = [[] for _ in range(rows)]
    for i, found in zip(
        solved.tolist(),
        cusp_line_crossings(
            letter,
            cusp,
            latitudes_deg[solved],
            obliquity_deg,
            body_longitude_deg,
            body_latitude_deg,
            sun_declination_deg,
        ),
    ):
        candidates[i] = found
    chosen = np.full(rows, np.nan)
    for i in np.argsort(np.abs(latitudes_deg), kind="stable").tolist():
        if not candidates[i]:
            continue
        preferred = [c.armc_deg for c in candidates[i] if c.falling] or [c.armc_deg for c in candidates[i]]
        reference = _toward_equator(chosen, latitudes_deg, i)
        if reference is None:
            chosen[i] = preferred[0]
        else:
            chosen[i] = min(preferred, key=lambda armc: abs((armc - reference + 180.0) % 360.0 - 180.0))
    return chosen


def _toward_equator(chosen: np.ndarray, latitudes_deg: np.ndarray, i: int) -> float | None:
    """Return the line's ARMC on the nearest chosen row between row ``i`` and the equator."""
    step = 1 if latitudes_deg[i] < 0.0 else -1
    j = i + step
    while 0 <= j < len(chosen) and abs(latitudes_deg[j]) <= abs(latitudes_deg[i]):
        if np.isfinite(chosen[j]):
            return float(chosen[j])
        j += step
    return None
