"""The search over time every scan builds on, on Skyfield's model (``find_discrete``): sample a
function of time on a grid whose step suits it, bracket what changes between samples, then
refine each bracket.

The functions searched here come with their rate of change (a longitude and its speed), so
each grid step is first cut at the function's turning points (a planet's station, where its
speed changes sign): between two turning points a function is monotonic, has at most one
root, and a root is never missed however close two roots lie.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kernel.deadline import Deadline

#: A function of time (UT1 Julian Day) returning (value, rate of change per day).
RatedFunction = Callable[[float], tuple[float, float]]

# Every crossing is refined to 1 ms (decisions.md), so that two searches for one crossing from
# different starts (a return, a solar profection year) give the same instant.
TIME_TOLERANCE_DAYS = 1.0 / 86_400_000.0
# A turning point (a station) only cuts a step into monotonic pieces: 1e-6 day (0.09 s) is
# ample, and bisection to it costs fewer engine calls.
TURNING_POINT_TOLERANCE_DAYS = 1e-6
# A step across which the value jumps by more than this is a wrap of an angle (a longitude
# passing 0°, a signed difference passing ±180°), not a root.
WRAP_JUMP = 180.0
_MAX_ITERATIONS = 100


@dataclass(frozen=True)
class Root:
    """A root at ``jd`` (UT1) where the value rises through zero (``rising``) or falls through it."""

    jd: float
    rising: bool


def bisect_sign_change(
    f: Callable[[float], float], a: float, b: float, fa: float, tolerance_days: float = TURNING_POINT_TOLERANCE_DAYS
) -> float:
    """Return where ``f`` changes sign in [a, b] (f(a) = fa), to ``tolerance_days``."""
    for _ in range(_MAX_ITERATIONS):
        if b - a <= tolerance_days:
            break
        middle = 0.5 * (a + b)
        fm = f(middle)
        if (fm < 0.0) == (fa < 0.0):
            a, fa = middle, fm
        else:
            b = middle
    return 0.5 * (a + b)


def refine_root(f: RatedFunction, a: float, b: float, fa: float, fb: float) -> float:
    """Return the root of a monotonic ``f`` bracketed by [a, b] (values fa, fb of opposite
    signs): Newton steps with the exact rate from the linearly interpolated start, kept inside
    the shrinking bracket (bisection when a step would leave it)."""
    t = a + (b - a) * fa / (fa - fb)
    for _ in range(_MAX_ITERATIONS):
        value, rate = f(t)
        if value == 0.0:
            return t
        if (value < 0.0) == (fa < 0.0):
            a, fa = t, value
        else:
            b = t
        following = t - value / rate if rate else 0.5 * (a + b)
        if abs(following - t) <= TIME_TOLERANCE_DAYS:
            # Converged; tested before the bracket, since a step finer than a Julian Day's
            # resolution (2^-31 day, 40 us, near the year 2000) rounds back onto t, which is
            # an end of the bracket: bisecting on from there cost some twenty more calls and
            # gave a root up to 1 ms off instead of within one resolution step.
            return min(max(following, a), b)
        if not a < following < b:
            following = 0.5 * (a + b)
        if abs(following - t) <= TIME_TOLERANCE_DAYS or b - a <= TIME_TOLERANCE_DAYS:
            return following
        t = following
    return t


def find_roots(f: RatedFunction, start_jd: float, end_jd: float, step_days: float, deadline: Deadline) -> list[Root]:
    """Return the roots of ``f`` in [start_jd, end_jd), in time order.

    ``step_days`` must be shorter than the time ``f`` takes to change by WRAP_JUMP, so that
    a wrap of an angle is told from a root. Each step is cut at the turning points of ``f``
    (its rate changing sign), found by bisection on the rate.
    """
    (roots,) = find_offset_roots(f, [(_same, f)], start_jd, end_jd, step_days, deadline)
    return roots


def _same(value: float) -> float:
    return value


def find_offset_roots(
    sample: RatedFunction,
    offsets: Sequence[tuple[Callable[[float], float], RatedFunction]],
    start_jd: float,
    end_jd: float,
    step_days: float,
    deadline: Deadline,
    enough: Callable[[list[list[Root]]], bool] | None = None,
) -> list[list[Root]]:
    """Return, for each (offset, f) of ``offsets``, the roots of f in [start_jd, end_jd) in
    time order, all found on one grid of ``sample``: f(t)'s value is offset(sample(t)'s value),
    its rate sample(t)'s rate (a longitude, and its distance from each of several targets).

    The grid, the turning points and each root's bracket are those :func:`find_roots` gives f
    alone, so each root is the very instant it finds; the samples and turning points are
    computed once for every offset. With ``enough``, the search stops after the first step at
    whose end ``enough(roots so far)`` is true: the roots found by then are all earlier than
    any it leaves unfound, and each the same instant.
    """
    roots: list[list[Root]] = [[] for _ in offsets]
    functions = [f for _, f in offsets]

    def values(sampled: float) -> list[float]:
        return [offset(sampled) for offset, _ in offsets]

    t0 = start_jd
    s0, r0 = sample(t0)
    # Each cut's offsets are computed once: a step's end is the next step's start.
    v0 = values(s0)
    while t0 < end_jd:
        deadline.check()
        t1 = min(t0 + step_days, end_jd)
        s1, r1 = sample(t1)
        v1 = values(s1)
        cuts = [(t0, v0), (t1, v1)]
        if (r0 < 0.0) != (r1 < 0.0):
            turn = bisect_sign_change(lambda t: sample(t)[1], t0, t1, r0)
            cuts.insert(1, (turn, values(sample(turn)[0])))
        for (a, values_a), (b, values_b) in zip(cuts, cuts[1:]):
            for found, f, va, vb in zip(roots, functions, values_a, values_b):
                if (va < 0.0) != (vb < 0.0) and abs(vb - va) <= WRAP_JUMP:
                    found.append(Root(refine_root(f, a, b, va, vb), vb > va))
        if enough is not None and enough(roots):
            break
        t0, r0, v0 = t1, r1, v1
    return [[root for root in found if root.jd < end_jd] for found in roots]
