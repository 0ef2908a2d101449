"""Midpoints, antiscia and trees (interface.md, GET/POST /v1/midpoints rules 1, 2 and 4), by hand."""

from __future__ import annotations

import pytest

from kernel.errors import UnreadableValue
from kernel.midpoints import (
    antiscion,
    check_modulus,
    check_tree_orb,
    contra_antiscion,
    derived_points,
    dial_distance,
    midpoint,
    midpoint_trees,
    parse_resolution,
)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [(10.0, 50.0, 30.0), (350.0, 30.0, 10.0), (30.0, 350.0, 10.0), (100.0, 260.0, 180.0), (200.0, 10.0, 285.0)],
)
def test_a_midpoint_is_on_the_shorter_arc(a, b, expected):
    assert midpoint(a, b) == pytest.approx(expected)


@pytest.mark.parametrize(("a", "b"), [(10.0, 190.0), (190.0, 10.0)])
def test_exactly_180_apart_resolution_picks_the_lower_or_higher_candidate(a, b):
    # Candidates 100 and 280 either way round.
    assert midpoint(a, b, "lower") == 100.0
    assert midpoint(a, b, "higher") == 280.0


def test_an_antiscion_reflects_across_cancer_capricorn_and_keeps_the_declination():
    assert antiscion(10.0) == 170.0 and antiscion(100.0) == 80.0 and antiscion(200.0) == 340.0
    points = derived_points([("mars", 10.0, 4.5)], midpoints=False)
    assert [(p.kind, p.longitude, p.declination) for p in points] == [
        ("antiscion", 170.0, 4.5),
        ("contra_antiscion", 350.0, -4.5),
    ]


def test_a_contra_antiscion_reflects_across_aries_libra():
    assert contra_antiscion(10.0) == 350.0 and contra_antiscion(0.0) == 0.0 and contra_antiscion(200.0) == 160.0


def test_derived_points_list_every_pair_s_midpoint_then_each_body_s_antiscia():
    points = derived_points([("sun", 10.0, 1.0), ("moon", 50.0, -2.0), ("mars", 350.0, 3.0)])
    assert [p.name for p in points if p.kind == "midpoint"] == ["sun/moon", "sun/mars", "moon/mars"]
    assert [p.longitude for p in points if p.kind == "midpoint"] == pytest.approx([30.0, 0.0, 20.0])
    assert all(p.declination is None for p in points if p.kind == "midpoint")
    assert [(p.kind, p.name) for p in points[3:]] == [
        ("antiscion", "sun"),
        ("contra_antiscion", "sun"),
        ("antiscion", "moon"),
        ("contra_antiscion", "moon"),
        ("antiscion", "mars"),
        ("contra_antiscion", "mars"),
    ]


@pytest.mark.parametrize(
    ("a", "b", "modulus", "distance"),
    [
        (10.0, 100.0, 90.0, 0.0),
        (10.0, 190.0, 90.0, 0.0),
        (10.0, 55.0, 45.0, 0.0),
        (10.0, 100.0, 360.0, 90.0),
        (0.0, 29.0, 30.0, 1.0),
        (5.0, 50.0, 22.5, 0.0),
    ],
)
def test_dial_distance_reduces_by_the_modulus_and_folds(a, b, modulus, distance):
    assert dial_distance(a, b, modulus) == pytest.approx(distance, abs=1e-9)


def test_on_the_90_dial_a_tree_joins_conjunct_square_and_opposite_midpoints():
    # sun/moon midpoint 30; venus/jupiter midpoint 120 (square), mars/saturn 210 (opposite).
    bodies = [
        ("sun", 0.0),
        ("moon", 60.0),
        ("venus", 100.0),
        ("jupiter", 140.0),
        ("mars", 180.0),
        ("saturn", 240.0),
        ("pluto", 30.5),
    ]
    tree = next(t for t in midpoint_trees(bodies, modulus_deg=90.0, orb_deg=1.0) if t.body == "pluto")
    found = {hit.constituents for hit in tree.hits}
    assert {("sun", "moon"), ("venus", "jupiter"), ("mars", "saturn")} <= found
    assert all("pluto" not in hit.constituents for hit in tree.hits)
    assert [hit.orb for hit in tree.hits] == sorted(hit.orb for hit in tree.hits)


def test_on_the_45_dial_semi_squares_join_and_on_the_360_dial_only_conjunctions():
    bodies = [("sun", 0.0), ("moon", 90.0), ("pluto", 90.0)]  # sun/moon midpoint 45, sun/pluto 45
    pluto = next(t for t in midpoint_trees(bodies, modulus_deg=45.0, orb_deg=0.5) if t.body == "pluto")
    assert [hit.constituents for hit in pluto.hits] == [("sun", "moon")]  # 90 - 45: a semi-square
    assert next(t for t in midpoint_trees(bodies, modulus_deg=360.0, orb_deg=0.5) if t.body == "pluto").hits == []


def test_hits_are_sorted_tightest_first_and_a_body_without_hits_still_has_a_tree():
    bodies = [("sun", 0.0), ("moon", 21.0), ("venus", 10.0), ("mars", 11.2), ("saturn", 300.0)]
    trees = {t.body: t for t in midpoint_trees(bodies, modulus_deg=360.0, orb_deg=1.5)}
    venus = trees["venus"]  # sun/moon 10.5 (orb 0.5), sun/mars 5.6 no, moon/mars 16.1 no
    assert [(h.constituents, round(h.orb, 9)) for h in venus.hits] == [(("sun", "moon"), 0.5)]
    mars = trees["mars"]  # sun/moon 10.5 (0.7), sun/venus 5 no
    assert [(h.constituents, round(h.orb, 9)) for h in mars.hits] == [(("sun", "moon"), 0.7)]
    assert trees["saturn"].hits == [] and trees["saturn"].modulus == 360.0


@pytest.mark.parametrize("modulus", [0.0, -5.0, 360.5, float("nan")])
def test_a_modulus_outside_0_to_360_is_invalid_parameter(modulus):
    with pytest.raises(UnreadableValue):
        check_modulus(modulus)
    assert check_modulus(360.0) == 360.0 and check_modulus(22.5) == 22.5


@pytest.mark.parametrize("orb", [-0.1, 15.01, float("inf")])
def test_a_tree_orb_outside_0_to_15_is_invalid_parameter(orb):
    with pytest.raises(UnreadableValue):
        check_tree_orb(orb)
    assert check_tree_orb(0.0) == 0.0 and check_tree_orb(15.0) == 15.0


def test_an_unknown_resolution_is_invalid_parameter():
    with pytest.raises(UnreadableValue):
        parse_resolution("nearest")
    assert parse_resolution("higher") == "higher"
