"""Directed and progressed contacts to the natal points as windows (kernel/directed_contacts.py).

The reference is a brute-force scan: the progressed (or directed) longitude evaluated every hour
of the year from our own positions, each sign change of its distance to the aspect bisected to
a second. Every exact the windows give is within a minute of one the scan finds, and none is
missed: a window's instants are found in progressed time, where a minute of life is 0.16 s.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel.aspects import ASPECT_TYPES
from kernel.deadline import Deadline
from kernel.directed_contacts import date_of_life, direction_windows, progressed_jd, progression_windows
from kernel.natal_points import natal_points
from kernel.positions import CalcFlags, Observer, compute_positions
from kernel.timescale import Moment

NEVER = Deadline.never()
BIRTH = Moment.from_iso("1984-02-11T09:20:00Z")
PARIS = Observer(48.85, 2.35)
MAJOR = ("conjunction", "sextile", "square", "trine", "opposition")
START, END = Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1, Moment.from_iso("2025-01-01T00:00:00Z").jd_ut1
HOUR = 1.0 / 24.0
MINUTE = 1.0 / 1440.0
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")


@pytest.fixture(scope="module")
def points() -> list[tuple[str, float]]:
    longitudes = natal_points(BIRTH, PARIS, PLANETS).longitudes
    return [(name, longitudes[name]) for name in (*PLANETS, "ascendant", "midheaven")]


def progressed_longitude(body: str, jd: float) -> float:
    """The progressed longitude of ``body`` at the date ``jd``: its longitude at the progressed moment."""
    moment = Moment.from_jd_ut1(progressed_jd(BIRTH.jd_ut1, jd))
    return compute_positions(moment, [body], CalcFlags()).records[0].longitude


def hourly(longitude_at) -> tuple[np.ndarray, np.ndarray]:
    """The dates of the year every hour, and ``longitude_at`` each."""
    times = np.arange(START, END + HOUR, HOUR)
    return times, np.array([longitude_at(t) for t in times])


def brute_force_exacts(longitude_at, samples, target_deg: float, aspect: str) -> list[float]:
    """Every date in [START, END) where ``longitude_at(jd)`` makes ``aspect`` to ``target_deg``:
    the hourly ``samples`` of it, each sign change of the distance to the aspect bisected to a second."""
    angles = {ASPECT_TYPES[aspect].angle_deg, -ASPECT_TYPES[aspect].angle_deg}
    times, values = samples
    found = []
    for angle in angles:
        distance = (values - target_deg - angle + 180.0) % 360.0 - 180.0
        for i in np.nonzero((np.sign(distance[:-1]) != np.sign(distance[1:])) & (abs(distance[:-1]) < 10))[0]:
            low, high = times[i], times[i + 1]
            while high - low > 1.0 / 86400.0:
                middle = (low + high) / 2
                d = (longitude_at(middle) - target_deg - angle + 180.0) % 360.0 - 180.0
                low, high = (middle, high) if np.sign(d) == np.sign(distance[i]) else (low, middle)
            if START <= low < END:
                found.append(low)
    return sorted(found)


def exacts_of(windows, moving: str, target: str, aspect: str) -> list[float]:
    return sorted(
        jd
        for w in windows
        if (w.moving, w.target, w.aspect) == (moving, target, aspect)
        for jd in w.exacts
        if START <= jd < END
    )


def assert_same_instants(found: list[float], reference: list[float]) -> None:
    assert len(found) == len(reference), (found, reference)
    for jd, expected in zip(found, reference, strict=True):
        assert abs(jd - expected) < MINUTE


def test_a_date_stands_for_a_progressed_day_for_each_year_and_back():
    thirty_years = BIRTH.jd_ut1 + 30 * 365.2422
    assert progressed_jd(BIRTH.jd_ut1, thirty_years) == pytest.approx(BIRTH.jd_ut1 + 30, abs=1e-9)
    assert date_of_life(BIRTH.jd_ut1, BIRTH.jd_ut1 + 30) == pytest.approx(thirty_years, abs=1e-6)


@pytest.mark.parametrize("body", ["moon", "mercury", "sun"])
def test_progressed_exacts_are_those_of_a_brute_force_scan_within_a_minute(points, body):
    windows = progression_windows(BIRTH.jd_ut1, START, END, [body], points, MAJOR, 1.0, NEVER)
    samples = hourly(lambda jd: progressed_longitude(body, jd))
    found = 0
    for target, longitude in points:
        for aspect in MAJOR:
            reference = brute_force_exacts(lambda jd: progressed_longitude(body, jd), samples, longitude, aspect)
            assert_same_instants(exacts_of(windows, body, target, aspect), reference)
            found += len(reference)
    assert found or body != "moon"


def test_directed_exacts_are_those_of_a_brute_force_scan_within_a_minute(points):
    natal = dict(points)
    windows = direction_windows(BIRTH.jd_ut1, natal["sun"], START, END, points, MAJOR, 1.0, NEVER)
    assert windows

    def arc(jd: float) -> float:
        return progressed_longitude("sun", jd) - natal["sun"]

    times, arcs = hourly(arc)
    found = 0
    for directed, _ in points:
        samples = (times, arcs + natal[directed])
        for target, longitude in points:
            if target == directed:
                continue
            for aspect in MAJOR:
                reference = brute_force_exacts(lambda jd, p=directed: natal[p] + arc(jd), samples, longitude, aspect)
                assert_same_instants(exacts_of(windows, directed, target, aspect), reference)
                found += len(reference)
    assert found


def test_a_window_enters_and_leaves_at_the_orb(points):
    natal = dict(points)
    windows = progression_windows(BIRTH.jd_ut1, START, END, ["moon"], points, MAJOR, 1.0, NEVER)
    assert windows
    for w in windows:
        for jd, clamped in ((w.enter, w.clamped_start), (w.leave, w.clamped_end)):
            if clamped:
                continue
            distance = abs((progressed_longitude("moon", jd) - natal[w.target] + 180.0) % 360.0 - 180.0)
            assert abs(distance - ASPECT_TYPES[w.aspect].angle_deg) == pytest.approx(1.0, abs=1e-6)


def test_a_point_is_never_directed_to_itself(points):
    windows = direction_windows(BIRTH.jd_ut1, dict(points)["sun"], START, END, points, MAJOR, 1.0, NEVER)
    assert all(w.moving != w.target for w in windows)


def test_nothing_is_directed_or_progressed_before_birth(points):
    before = BIRTH.jd_ut1 - 400.0
    sun = dict(points)["sun"]
    assert direction_windows(BIRTH.jd_ut1, sun, before, BIRTH.jd_ut1, points, MAJOR, 1.0, NEVER) == []
    assert progression_windows(BIRTH.jd_ut1, before, BIRTH.jd_ut1, ["moon"], points, MAJOR, 1.0, NEVER) == []
