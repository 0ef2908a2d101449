"""Transit scans against a brute-force scan of our own (interface.md, Transit scan result):
the distance to each aspect sampled every 10 minutes (every minute for the Moon), windows and
exacts found by sign changes and placed by linear interpolation between samples."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from kernel import engine
from kernel.aspects import ASPECT_TYPES
from kernel.bodies import engine_number
from kernel.deadline import Deadline
from kernel.positions import CalcFlags, compute_positions
from kernel.timescale import Moment
from kernel.transits import sampled_bodies, scan, scan_transits

NEVER = Deadline.never()
MAJOR_FIVE = ["conjunction", "sextile", "square", "trine", "opposition"]
# The brute force, linearly interpolated, places a crossing to well under a second for the
# planets (their distance is nearly straight over 10 minutes) and the Moon (1 minute); the
# issue's bound is a minute.
AGREEMENT_S = 60.0
SECONDS_PER_DAY = 86400.0


def sign_changes(times, values) -> list[float]:
    """Return when ``values`` (degrees, sampled at ``times``) changes sign, each interpolated
    linearly between its two samples; a jump of 180 degrees or more is the wrap, not a crossing."""
    found = []
    for i in np.flatnonzero((np.signbit(values[:-1]) != np.signbit(values[1:])) & (np.abs(np.diff(values)) < 180.0)):
        a, b = values[i], values[i + 1]
        found.append(times[i] + (times[i + 1] - times[i]) * a / (a - b))
    return found


def brute_force(
    moving: str, target_longitude: float, aspect: str, orb: float, start: float, end: float, step_days: float
):
    """Return [(enter, leave, [exacts])] by sampling, each crossing interpolated between samples."""
    times = np.arange(start, end, step_days)
    times = np.append(times, end)
    number = engine_number(moving)
    longitudes = np.array([engine.calc_body(float(t), number, 0).values[0] for t in times])
    angle = ASPECT_TYPES[aspect].angle_deg
    windows = []
    for signed in [angle] if angle in (0.0, 180.0) else [angle, -angle]:
        distance = (longitudes - target_longitude - signed + 180.0) % 360.0 - 180.0
        edges = sorted(sign_changes(times, distance - orb) + sign_changes(times, distance + orb))
        exacts = sign_changes(times, distance)
        opened = start if abs(distance[0]) <= orb else None
        spans = []
        for edge in edges:
            if opened is None:
                opened = edge
            else:
                spans.append((opened, edge))
                opened = None
        if opened is not None:
            spans.append((opened, end))
        windows += [(a, b, sorted(x for x in exacts if a <= x <= b)) for a, b in spans]
    return sorted(windows)


GENERATOR = random.Random(1124)
CASES = [
    (GENERATOR.uniform(2415020.0, 2469807.0), GENERATOR.uniform(2440000.0, 2462000.0), body, span, step)
    for body, span, step in [
        ("sun", 60.0, 10 / 1440),
        ("mercury", 90.0, 10 / 1440),
        ("mars", 120.0, 10 / 1440),
        ("jupiter", 200.0, 60 / 1440),
        ("moon", 6.0, 1 / 1440),
    ]
    for _ in range(2)
]


@pytest.mark.parametrize(
    ("natal_jd", "start", "body", "span", "step"), CASES, ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)]
)
def test_scans_find_exactly_the_brute_force_windows_and_exacts_within_a_minute(natal_jd, start, body, span, step):
    natal = compute_positions(Moment.from_jd_ut1(natal_jd), ["sun", "moon", "venus", "saturn"], CalcFlags()).records
    targets = [(r.body, r.longitude) for r in natal]
    events = scan(start, start + span, [body], targets, MAJOR_FIVE, 3.0, NEVER)
    for target, longitude in targets:  # the natal point of the moving body's own name included
        for aspect in MAJOR_FIVE:
            ours = sorted((e.enter, e.leave, e.exacts) for e in events if e.target == target and e.aspect == aspect)
            reference = brute_force(body, longitude, aspect, 3.0, start, start + span, step)
            assert len(ours) == len(reference), (target, aspect, "no missed and no spurious window")
            for (enter, leave, exacts), (b_enter, b_leave, b_exacts) in zip(ours, reference):
                assert (
                    abs(enter - b_enter) * SECONDS_PER_DAY < AGREEMENT_S
                    and abs(leave - b_leave) * SECONDS_PER_DAY < AGREEMENT_S
                )
                assert len(exacts) == len(b_exacts)
                assert all(abs(a - b) * SECONDS_PER_DAY < AGREEMENT_S for a, b in zip(exacts, b_exacts))


def test_a_retrograde_loop_inside_the_orb_is_one_window_with_three_exacts():
    # Jupiter's 2023-2024 loop: stationary retrograde 4 Sep 2023 at 15°34' Taurus, direct 31 Dec
    # 2023 at 5°34' Taurus. A natal point at 10° Taurus is passed three times; with orb 6 the
    # whole loop stays in orb.
    start, end = (Moment.from_iso(t).jd_ut1 for t in ("2023-05-01T00:00:00Z", "2024-06-01T00:00:00Z"))
    events = scan(start, end, ["jupiter"], [("point", 40.0)], ["conjunction"], 6.0, NEVER)
    (event,) = events
    assert len(event.exacts) == 3 and event.enter < event.exacts[0] < event.exacts[1] < event.exacts[2] < event.leave


def test_a_window_that_never_perfects_has_no_exacts():
    # The same loop against 16.5° Taurus: Jupiter turns at 15°34' Taurus, within orb 2 but short of exact.
    start, end = (Moment.from_iso(t).jd_ut1 for t in ("2023-07-01T00:00:00Z", "2023-12-01T00:00:00Z"))
    (event,) = scan(start, end, ["jupiter"], [("point", 46.5)], ["conjunction"], 2.0, NEVER)
    assert event.exacts == [] and not event.clamped_start and not event.clamped_end


def test_windows_cut_by_the_range_are_clamped_and_events_are_ordered():
    start = Moment.from_iso("2024-03-20T00:00:00Z").jd_ut1
    events = scan(
        start, start + 40.0, ["sun", "mercury"], [("a", 0.0), ("b", 30.0), ("c", 40.0)], MAJOR_FIVE, 5.0, NEVER
    )
    assert (
        events[0].clamped_start and events[0].enter == start
    )  # the Sun is at 0° Aries on 20 March: in orb from the start
    keys = [(e.enter, ["sun", "mercury"].index(e.moving), "abc".index(e.target)) for e in events]
    assert keys == sorted(keys)
    assert any(
        e.clamped_end and e.leave == start + 40.0 and e.target == "c" for e in events
    )  # the Sun near 39.5° at the end


def test_mutual_pairs_are_scanned_once_each():
    start = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1
    bodies = ["sun", "mercury", "venus", "mars"]
    events = scan(start, start + 120.0, bodies, [(b, None) for b in bodies], MAJOR_FIVE, 2.0, NEVER)
    pairs = {(e.moving, e.target) for e in events}
    assert pairs and all(bodies.index(a) < bodies.index(b) for a, b in pairs)


def test_a_moving_body_meets_the_natal_point_of_its_own_name():
    # The Sun back on the natal Sun's longitude: the solar return is a conjunction window.
    natal_sun = compute_positions(Moment.from_iso("1990-06-15T14:30:00Z"), ["sun"], CalcFlags()).records[0].longitude
    start = Moment.from_iso("2024-06-01T00:00:00Z").jd_ut1
    (event,) = [e for e in scan(start, start + 30.0, ["sun"], [("sun", natal_sun)], ["conjunction"], 1.0, NEVER)]
    assert len(event.exacts) == 1 and abs(event.exacts[0] - Moment.from_iso("2024-06-15T00:00:00Z").jd_ut1) < 1.0


# The rule: 1 ms before and after an exact contact the distance to the aspect has opposite signs.
ONE_MS_DAYS = 1.0 / 86_400_000.0


def distance_to_aspect(number: int, target_deg: float, angle_deg: float, jd: float) -> float:
    """Return how far (degrees, signed) body ``number`` is at ``jd`` from ``angle_deg`` to
    ``target_deg``, on the nearer side of the circle (an aspect other than 0 or 180 has two)."""
    offset = engine.calc_body(jd, number, 0).values[0] - target_deg
    return min(((offset - signed + 180.0) % 360.0 - 180.0 for signed in (angle_deg, -angle_deg)), key=abs)


@pytest.mark.parametrize(("moving", "days"), [("sun", 120.0), ("moon", 30.0), ("mercury", 120.0)])
def test_every_transit_exact_is_refined_to_1_ms(moving, days):
    start = Moment.from_iso("2024-03-01T00:00:00Z").jd_ut1
    target = 17.25
    events = scan(start, start + days, [moving], [("point", target)], MAJOR_FIVE, 3.0, NEVER)
    number = engine_number(moving)
    exacts = [(event.aspect, t) for event in events for t in event.exacts]
    assert exacts
    for aspect, t in exacts:
        distance = functools.partial(distance_to_aspect, number, target, ASPECT_TYPES[aspect].angle_deg)
        assert distance(t - ONE_MS_DAYS) * distance(t + ONE_MS_DAYS) < 0.0, (moving, aspect)


# The Moon policy (interface.md, /v1/transits `moon`), applied by the kernel's scan_transits.
POINTS = [("sun", 321.7), ("moon", 95.2), ("mars", 217.4)]
JAN_1_2020 = 2458849.5


def test_moon_exclude_neither_scans_nor_keeps_the_moon():
    found = scan_transits(JAN_1_2020, JAN_1_2020 + 30, ["moon", "sun"], POINTS, MAJOR_FIVE, 3.0, "exclude", NEVER)
    assert found.moving == ["sun"] and all(e.moving == "sun" for e in found.events) and found.notes == []


def test_moon_returns_only_on_a_long_range_keeps_only_the_lunar_return_and_says_what_it_dropped():
    found = scan_transits(JAN_1_2020, JAN_1_2020 + 60, ["moon", "sun"], POINTS, MAJOR_FIVE, 3.0, "returns_only", NEVER)
    moon_events = [e for e in found.events if e.moving == "moon"]
    assert moon_events and {(e.aspect, e.target) for e in moon_events} == {("conjunction", "moon")}
    assert len(moon_events) == 2  # the Moon returns every 27.3 days
    assert found.moving == ["moon", "sun"] and "dropped: the Moon's conjunction, sextile" in found.notes[0]


def test_moon_returns_only_on_a_short_range_scans_the_moon_fully():
    short = scan_transits(JAN_1_2020, JAN_1_2020 + 13, ["moon"], POINTS, MAJOR_FIVE, 3.0, "returns_only", NEVER)
    included = scan_transits(JAN_1_2020, JAN_1_2020 + 13, ["moon"], POINTS, MAJOR_FIVE, 3.0, "include", NEVER)
    assert short.events == included.events and short.notes == [] and len({e.target for e in short.events}) == 3


def test_events_are_ordered_by_enter_then_moving_body_then_target_as_given():
    found = scan_transits(JAN_1_2020, JAN_1_2020 + 120, ["mars", "sun"], POINTS, MAJOR_FIVE, 3.0, "include", NEVER)
    moving_rank, target_rank = {"mars": 0, "sun": 1}, {name: i for i, (name, _) in enumerate(POINTS)}
    keys = [(e.enter, moving_rank[e.moving], target_rank[e.target]) for e in found.events]
    assert keys == sorted(keys) and len(keys) > 3


def test_bodies_on_one_grid_are_sampled_date_by_date_to_the_engines_own_values():
    # Jupiter and Saturn share one grid (one step), Mars has its own: each body's samples are
    # its own calls at its grid's times, bit for bit, however the dates are read.
    shared, own = np.linspace(2460000.0, 2460366.0, 47), np.linspace(2460000.0, 2460366.0, 93)
    bodies = sampled_bodies({"jupiter": shared, "mars": own, "saturn": shared}, NEVER)
    assert list(bodies) == ["jupiter", "mars", "saturn"]
    for name, times in (("jupiter", shared), ("mars", own), ("saturn", shared)):
        at = engine.longitude_and_speed(engine_number(name), engine.FLG_SPEED)
        expected = np.array([at(float(t)) for t in times])
        assert bodies[name].longitudes.tolist() == expected[:, 0].tolist()
        assert bodies[name].speeds.tolist() == expected[:, 1].tolist()
