"""kernel/search.py: the generic root search over time (roots close together, the refinement
to a Julian Day's last bit, wrapping angles, several targets on one grid, stopping early),
against functions whose roots are known by hand and against bisection."""

from __future__ import annotations

import math

import pytest

from kernel.crossings import crossings, longitude_offset
from kernel.deadline import Deadline
from kernel.search import find_offset_roots, find_roots, refine_root
from kernel.timescale import Moment

NEVER = Deadline.never()


def test_two_roots_closer_than_a_step_around_a_turning_point_are_both_found():
    # f(t) = (t - 5)^2 - 1e-4: two roots 0.02 days apart, inside one 2-day step.
    found = find_roots(lambda t: ((t - 5.0) ** 2 - 1e-4, 2.0 * (t - 5.0)), 0.0, 10.0, 2.0, NEVER)
    assert [round(r.jd, 6) for r in found] == [4.99, 5.01]
    assert [r.rising for r in found] == [False, True]


def test_a_newton_step_finer_than_a_julian_days_resolution_ends_the_refinement():
    # Near 2024 a Julian Day's last bit is 2^-31 day (40 us): the step after a near-exact
    # guess rounds back onto the guess, an end of the bracket, and must end the search there
    # rather than bisect the bracket on (it took 27 more calls and landed up to 1 ms off).
    # The curve's root lies between two Julian Days a double can hold, as an ephemeris' does.
    near, calls = 2460389.6291234, []
    root = near - 3e-11 / 0.9856

    def curve(t: float) -> tuple[float, float]:  # a longitude's distance, speeding up
        calls.append(t)
        days = t - near
        return days * (0.9856 + 0.01 * days) + 3e-11, 0.9856 + 0.02 * days

    (a, fa), (b, fb) = ((t, curve(t)[0]) for t in (near - 0.7, near + 0.3))
    calls.clear()
    found = refine_root(curve, a, b, fa, fb)
    assert abs(found - root) <= 2.0**-31
    assert len(calls) <= 3


# A converged Newton step is at most 1 ms and the engine's speed is accurate to a few per cent,
# so a refined crossing lies within a tenth of that of the crossing bisected to the last bit;
# 0.25 ms leaves room, and a search that bisected on from a rounded step missed it by up to 1 ms.
REFINED_WITHIN_DAYS = 0.25 / 86_400_000.0


@pytest.mark.parametrize(
    ("body", "target"), [("sun", 0.0), ("moon", 123.5), ("mercury", 27.0), ("jupiter", 45.0), ("true_node", 10.0)]
)
def test_a_refined_crossing_lies_within_a_quarter_millisecond_of_the_bisected_one(body, target):
    offset = longitude_offset(body, target)
    for crossing in crossings(body, target, Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1, 3, NEVER):
        low, high = crossing.jd - 1e-6, crossing.jd + 1e-6
        rising = offset(low)[0] < 0.0
        while (middle := 0.5 * (low + high)) not in (low, high):
            if (offset(middle)[0] < 0.0) == rising:
                low = middle
            else:
                high = middle
        assert abs(crossing.jd - middle) <= REFINED_WITHIN_DAYS, (body, crossing)


def test_a_wrapping_angle_is_not_a_root():
    # An angle offset rising 40° a day: zero at t = 0.25, then a wrap from +170 to -190 at
    # t = 4.5 that is no root; the next zero would be at t = 9.25, past the end.
    found = find_roots(lambda t: ((40.0 * t + 180.0) % 360.0 - 180.0 - 10.0, 40.0), 0.0, 8.0, 1.0, NEVER)
    assert [round(r.jd, 6) for r in found] == [0.25] and found[0].rising


def test_roots_of_several_targets_on_one_grid_are_the_instants_each_search_alone_finds():
    start = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1
    targets = [
        0.0,
        20.0,
        25.0,
        200.0,
    ]  # 20° and 25° Aries lie in the retrograde loop of April 2024: three crossings each
    mercury = longitude_offset("mercury", 0.0)

    def longitude(jd):
        offset, speed = mercury(jd)
        return offset % 360.0, speed

    shared = find_offset_roots(
        longitude,
        [(lambda v, t=t: (v - t + 180.0) % 360.0 - 180.0, longitude_offset("mercury", t)) for t in targets],
        start,
        start + 400.0,
        2.0,
        NEVER,
    )
    alone = [find_roots(longitude_offset("mercury", t), start, start + 400.0, 2.0, NEVER) for t in targets]
    assert shared == alone and sum(map(len, alone)) >= 8


def test_a_search_told_it_has_enough_stops_at_that_step_with_the_same_roots():
    samples: list[float] = []

    def sine(t: float) -> tuple[float, float]:  # roots at every whole multiple of pi
        samples.append(t)
        return math.sin(t), math.cos(t)

    (every,) = find_offset_roots(sine, [(lambda value: value, sine)], 1.0, 30.0, 0.5, NEVER)
    whole = len(samples)
    samples.clear()
    (first_two,) = find_offset_roots(
        sine, [(lambda value: value, sine)], 1.0, 30.0, 0.5, NEVER, lambda roots: len(roots[0]) >= 2
    )
    assert first_two == every[:2] and [round(r.jd, 9) for r in first_two] == [round(math.pi, 9), round(2 * math.pi, 9)]
    assert len(samples) < whole / 3
