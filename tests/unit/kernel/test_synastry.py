"""Synastry (interface.md, /v1/synastry): body_a from chart A; swapping the births mirrors everything."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kernel.chart import ChartSettings, cast_chart
from kernel.houses import parse_house_system
from kernel.positions import Observer
from kernel.synastry import inter_chart
from kernel.timescale import Moment

BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn")
SETTINGS = ChartSettings(bodies=BODIES, system=parse_house_system("placidus"), parallel_orb_deg=1.5)
A = cast_chart(Moment.from_iso("1984-02-11T09:20:00Z"), Observer(48.85, 2.35), SETTINGS)
B = cast_chart(Moment.from_iso("1986-10-30T22:05:00Z"), Observer(-23.55, -46.63), SETTINGS)


def test_body_a_is_always_from_chart_a_and_the_separation_is_of_those_two_bodies():
    links = inter_chart(A, B, SETTINGS)
    assert links.aspects, "these two charts have inter-aspects"
    lon_a = {p.body: p.longitude for p in A.positions}
    lon_b = {p.body: p.longitude for p in B.positions}
    for aspect in links.aspects:
        separation = abs(lon_a[aspect.body_a] - lon_b[aspect.body_b]) % 360
        assert min(separation, 360 - separation) == pytest.approx(aspect.separation_deg, abs=1e-9)


def test_a_body_meets_its_namesake_in_the_other_chart():
    pairs = {(a.body_a, a.body_b) for a in inter_chart(A, B, SETTINGS).aspects}
    lon_a = {p.body: p.longitude for p in A.positions}
    lon_b = {p.body: p.longitude for p in B.positions}
    for body in BODIES:
        separation = abs(lon_a[body] - lon_b[body]) % 360
        if min(separation, 360 - separation) < 5:  # within every Major-7 conjunction orb
            assert (body, body) in pairs


def test_swapping_the_births_mirrors_every_inter_aspect_and_inter_parallel():
    forward, backward = inter_chart(A, B, SETTINGS), inter_chart(B, A, SETTINGS)
    assert {(a.body_a, a.body_b, a.aspect, round(a.orb_deg, 9), a.applying) for a in forward.aspects} == {
        (a.body_b, a.body_a, a.aspect, round(a.orb_deg, 9), a.applying) for a in backward.aspects
    }
    assert {(p.body_a, p.body_b, p.parallel_type, round(p.orb_deg, 9)) for p in forward.parallels} == {
        (p.body_b, p.body_a, p.parallel_type, round(p.orb_deg, 9)) for p in backward.parallels
    }
    assert forward.parallels, "these two charts have inter-parallels"


def test_no_parallels_when_not_asked_for():
    assert inter_chart(A, B, replace(SETTINGS, parallels=False)).parallels == []
