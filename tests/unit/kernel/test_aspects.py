"""Aspect types and the aspect, parallel and contraparallel search: orbs, wrap, applying, spellings."""

from __future__ import annotations

import pytest

from kernel.aspects import (
    ASPECT_NAMES,
    ASPECT_TYPES,
    DEFAULT_PARALLEL_ORB,
    MAJOR_FIVE,
    MAJOR_SEVEN,
    Point,
    find_aspects,
    find_aspects_between,
    find_parallels,
    find_parallels_between,
    parse_aspect_types,
)
from kernel.errors import UnreadableValue

# The decision table, restated here so a change to the data is a visible test change.
EXPECTED = {
    "conjunction": (0.0, 8.0),
    "opposition": (180.0, 8.0),
    "trine": (120.0, 8.0),
    "square": (90.0, 7.0),
    "sextile": (60.0, 6.0),
    "quincunx": (150.0, 3.0),
    "semi_sextile": (30.0, 2.0),
    "semi_square": (45.0, 2.0),
    "sesquiquadrate": (135.0, 2.0),
    "quintile": (72.0, 2.0),
    "bi_quintile": (144.0, 2.0),
    "septile": (360.0 / 7.0, 1.0),
    "bi_septile": (720.0 / 7.0, 1.0),
    "tri_septile": (1080.0 / 7.0, 1.0),
    "quindecile": (165.0, 2.0),
}
BASE = 10.0
JUST_BEYOND = 1e-6


def pair(lon_a: float, lon_b: float, speed_a: float | None = 0.0, speed_b: float | None = 0.0) -> list[Point]:
    return [Point("a", lon_a, speed_a), Point("b", lon_b, speed_b)]


def only(points: list[Point], types, **kw):
    found = find_aspects(points, list(types), **kw)
    assert len(found) <= 1
    return found[0] if found else None


# --- the table -------------------------------------------------------------------------------


def test_table_holds_the_fifteen_angular_types_with_decided_angles_and_orbs():
    assert {n: (t.angle_deg, t.default_orb_deg) for n, t in ASPECT_TYPES.items()} == EXPECTED
    assert ASPECT_NAMES == tuple(EXPECTED)
    assert DEFAULT_PARALLEL_ORB == 1.0


def test_major_seven_and_major_five_lists():
    assert MAJOR_SEVEN == (
        "conjunction",
        "opposition",
        "trine",
        "square",
        "sextile",
        "quincunx",
        "semi_sextile",
    )
    assert MAJOR_FIVE == ("conjunction", "sextile", "square", "trine", "opposition")


# --- detection at the exact angle and at the edge of the default orb ------------------------


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_type_is_detected_at_its_exact_angle(name):
    angle, orb = EXPECTED[name]
    m = only(pair(BASE, BASE + angle), [name])
    assert m is not None and m.aspect == name
    assert m.orb_deg == pytest.approx(0.0, abs=1e-9)
    assert m.exact_angle_deg == angle
    assert m.separation_deg == pytest.approx(angle, abs=1e-9)
    assert m.max_orb_deg == orb


@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("side", [+1.0, -1.0])
def test_each_type_is_admitted_at_its_default_orb(name, side):
    angle, orb = EXPECTED[name]
    m = only(pair(BASE, BASE + angle + side * orb), [name])
    assert m is not None and m.aspect == name
    assert m.orb_deg == pytest.approx(orb, abs=1e-9)


@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("side", [+1.0, -1.0])
def test_each_type_is_refused_just_beyond_its_default_orb(name, side):
    angle, orb = EXPECTED[name]
    assert only(pair(BASE, BASE + angle + side * (orb + JUST_BEYOND)), [name]) is None


# --- orb override ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(EXPECTED))
def test_orb_override_applies_to_every_type(name):
    angle, _ = EXPECTED[name]
    override = 0.5
    admitted = only(pair(BASE, BASE + angle + override), [name], orb_deg=override)
    assert admitted is not None and admitted.max_orb_deg == override
    assert only(pair(BASE, BASE + angle + override + JUST_BEYOND), [name], orb_deg=override) is None


def test_orb_override_widens_a_narrow_type():
    # A septile 3 deg off is outside its default 1 deg orb, inside an override of 4.
    assert only(pair(0.0, 360.0 / 7.0 + 3.0), ["septile"]) is None
    m = only(pair(0.0, 360.0 / 7.0 + 3.0), ["septile"], orb_deg=4.0)
    assert m is not None and m.orb_deg == pytest.approx(3.0) and m.max_orb_deg == 4.0


def test_negative_or_non_finite_orb_is_refused_on_orb():
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(UnreadableValue):
            find_aspects(pair(0.0, 1.0), ["conjunction"], orb_deg=bad)


# --- one aspect per pair: the smallest orb wins ----------------------------------------------


def test_smallest_orb_wins_when_two_types_admit_a_pair():
    # 50 deg: semi_square (45) is 5 off, sextile (60) is 10 off; both admitted with orb 12.
    m = only(pair(0.0, 50.0), ["sextile", "semi_square"], orb_deg=12.0)
    assert m.aspect == "semi_square" and m.orb_deg == pytest.approx(5.0)


def test_smallest_orb_wins_between_defaults():
    # 56.5 deg: sextile admits at 3.5 (orb 6); the septile (51.43, orb 1) does not; semi_square neither.
    m = only(pair(0.0, 56.5), list(EXPECTED))
    assert m.aspect == "sextile"
    # 52 deg: septile 0.57 off beats sextile 8 off (not admitted anyway).
    assert only(pair(0.0, 52.0), list(EXPECTED)).aspect == "septile"


def test_equal_orbs_go_to_the_type_listed_first():
    # 37.5 deg is exactly 7.5 from both semi_sextile (30) and semi_square (45).
    assert only(pair(0.0, 37.5), ["semi_square", "semi_sextile"], orb_deg=10.0).aspect == "semi_square"
    assert only(pair(0.0, 37.5), ["semi_sextile", "semi_square"], orb_deg=10.0).aspect == "semi_sextile"


def test_every_unordered_pair_is_visited_once_in_point_order():
    points = [Point("sun", 0.0, 1.0), Point("moon", 90.0, 13.0), Point("mars", 180.0, 0.5)]
    found = find_aspects(points, list(MAJOR_SEVEN))
    assert [(m.body_a, m.body_b, m.aspect) for m in found] == [
        ("sun", "moon", "square"),
        ("sun", "mars", "opposition"),
        ("moon", "mars", "square"),
    ]


def test_no_aspect_when_no_type_admits_the_pair():
    assert find_aspects(pair(0.0, 20.0), list(MAJOR_SEVEN)) == []


def test_types_given_in_any_spelling_are_accepted():
    assert only(pair(0.0, 30.0), ["Semi-Sextile"]).aspect == "semi_sextile"


# --- separation across 0/360 -----------------------------------------------------------------


def test_359_and_1_are_two_degrees_apart():
    m = only(pair(359.0, 1.0), ["conjunction"])
    assert m.separation_deg == pytest.approx(2.0) and m.orb_deg == pytest.approx(2.0)
    m = only(pair(1.0, 359.0), ["conjunction"])
    assert m.separation_deg == pytest.approx(2.0)


def test_separation_is_folded_into_0_to_180():
    m = only(pair(10.0, 10.0 + 240.0), ["trine"])  # 240 one way is 120 the other
    assert m.separation_deg == pytest.approx(120.0) and m.orb_deg == pytest.approx(0.0, abs=1e-9)
    m = only(pair(350.0, 170.0 + 3.0), ["opposition"])  # 183 apart one way, 177 the other
    assert m.separation_deg == pytest.approx(177.0) and m.orb_deg == pytest.approx(3.0)


def test_longitudes_outside_0_360_are_wrapped():
    m = only(pair(-1.0, 721.0), ["conjunction"])
    assert m.separation_deg == pytest.approx(2.0)


# --- applying / separating (hand-derived) ----------------------------------------------------


def applying(lon_a, speed_a, lon_b, speed_b, types=("conjunction",), **kw):
    m = only(pair(lon_a, lon_b, speed_a, speed_b), types, **kw)
    assert m is not None
    return m.applying


def test_faster_body_behind_is_applying():
    # Moon at 10 (13/day) behind the Sun at 15 (1/day): the gap of 5 shrinks by 12 a day.
    assert applying(10.0, 13.0, 15.0, 1.0) is True


def test_faster_body_ahead_is_separating():
    # Moon at 20 ahead of the Sun at 15: the gap grows.
    assert applying(20.0, 13.0, 15.0, 1.0) is False


def test_applying_does_not_depend_on_which_body_is_a():
    assert applying(15.0, 1.0, 10.0, 13.0) is True
    assert applying(15.0, 1.0, 20.0, 13.0) is False


def test_retrograde_body_moving_back_toward_the_other_is_applying():
    # Mercury at 15 retrograde (-1/day), Sun at 10 direct (+1/day): they close 2 deg a day.
    assert applying(15.0, -1.0, 10.0, 1.0) is True


def test_retrograde_body_moving_away_is_separating():
    # Mercury at 5 retrograde, Sun at 10 direct: gap grows 2 deg a day.
    assert applying(5.0, -1.0, 10.0, 1.0) is False


def test_slower_body_overtaken_by_retrograde_is_applying():
    # Both retrograde; a at 12 moves back faster (-2) toward b at 10 (-0.5).
    assert applying(12.0, -2.0, 10.0, -0.5) is True


def test_applying_across_the_wrap_forward():
    # a at 359 (1/day) behind b at 1 (0.5/day): a closes on b across 0.
    assert applying(359.0, 1.0, 1.0, 0.5) is True


def test_separating_across_the_wrap_forward():
    # a at 1 (1/day) ahead of b at 359 (0.5/day): a pulls away across 0.
    assert applying(1.0, 1.0, 359.0, 0.5) is False


def test_applying_across_the_wrap_backward():
    # a at 1 retrograde (-1/day) moves back toward b at 359 (stationary).
    assert applying(1.0, -1.0, 359.0, 0.0) is True
    # a at 359 retrograde moves away from b at 1.
    assert applying(359.0, -1.0, 1.0, 0.0) is False


def test_opposition_short_of_exact():
    # a at 0, b at 175: separation 175, 5 short of 180.
    # a direct: a -> 1, separation 174: further from 180 -> separating.
    assert applying(0.0, 1.0, 175.0, 0.0, types=("opposition",)) is False
    # a retrograde: a -> 359, separation 176: closer to 180 -> applying.
    assert applying(0.0, -1.0, 175.0, 0.0, types=("opposition",)) is True


def test_opposition_measured_the_other_way_round():
    # a at 0, b at 185: separation 175 measured through 360.
    # b direct: b -> 186, separation 174 -> separating; b retrograde: b -> 184, 176 -> applying.
    assert applying(0.0, 0.0, 185.0, 1.0, types=("opposition",)) is False
    assert applying(0.0, 0.0, 185.0, -1.0, types=("opposition",)) is True


def test_opposition_past_exact():
    # a at 0, b at 183 (177 apart through 360), b direct: b -> 184, separation 176 -> separating.
    assert applying(0.0, 0.0, 183.0, 1.0, types=("opposition",)) is False
    # a at 0, b at 177 moving +1 -> 178: closer to 180 -> applying.
    assert applying(0.0, 0.0, 177.0, 1.0, types=("opposition",)) is True


def test_square_past_exact_and_short_of_exact():
    # 95 apart, b moving away -> separation 96 -> separating; b moving back -> 94 -> applying.
    assert applying(0.0, 0.0, 95.0, 1.0, types=("square",)) is False
    assert applying(0.0, 0.0, 95.0, -1.0, types=("square",)) is True
    # 85 apart, b moving forward -> 86 -> applying.
    assert applying(0.0, 0.0, 85.0, 1.0, types=("square",)) is True


def test_exact_aspect_is_separating():
    assert applying(10.0, 13.0, 10.0, 1.0) is False
    assert applying(0.0, 1.0, 90.0, 0.0, types=("square",)) is False


def test_exact_aspect_with_equal_speeds_is_not_applying():
    # The orb stays 0: it is not shrinking.
    assert applying(10.0, 1.0, 10.0, 1.0) is False


def test_equal_speeds_never_apply():
    assert applying(10.0, 1.0, 13.0, 1.0) is False


def test_coincident_bodies_grow_apart_toward_a_wider_angle():
    # Same longitude, different speeds: the separation can only grow from 0, toward 30.
    assert applying(10.0, 1.0, 10.0, 2.0, types=("semi_sextile",), orb_deg=40.0) is True


def test_opposed_bodies_close_toward_a_narrower_angle():
    # Exactly 180 apart, different speeds: the separation can only shrink, toward 150.
    assert applying(0.0, 0.0, 180.0, 1.0, types=("quincunx",), orb_deg=40.0) is True
    assert applying(0.0, 0.0, 180.0, -1.0, types=("quincunx",), orb_deg=40.0) is True


def test_applying_is_none_when_disabled():
    assert applying(10.0, 13.0, 15.0, 1.0, with_applying=False) is None


def test_applying_is_none_when_a_speed_is_unknown():
    assert applying(10.0, None, 15.0, 1.0) is None
    assert applying(10.0, 13.0, 15.0, None) is None


# --- cross sets ------------------------------------------------------------------------------


def test_between_sets_body_a_is_always_from_set_a():
    natal = [Point("sun", 0.0, 1.0), Point("moon", 120.0, 13.0)]
    transit = [Point("sun", 90.0, 1.0), Point("mars", 2.0, 0.5)]
    found = find_aspects_between(natal, transit, list(MAJOR_FIVE))
    assert [(m.body_a, m.body_b, m.aspect) for m in found] == [
        ("sun", "sun", "square"),
        ("sun", "mars", "conjunction"),
        ("moon", "mars", "trine"),
    ]
    # Natal sun at 0, transit mars at 2 moving +0.5 while natal sun moves +1: closing.
    assert found[1].applying is True


# --- spellings -------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["semi-sextile", "semi_sextile", "semisextile", "Semi-Sextile", "SEMISEXTILE"])
def test_semi_sextile_spellings(spelling):
    assert parse_aspect_types([spelling]) == ["semi_sextile"]


@pytest.mark.parametrize("spelling", ["Bi-Quintile", "biquintile", "bi_quintile"])
def test_bi_quintile_spellings(spelling):
    assert parse_aspect_types([spelling]) == ["bi_quintile"]


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("semisquare", "semi_square"),
        ("biseptile", "bi_septile"),
        ("triseptile", "tri_septile"),
        ("sesquisquare", "sesquiquadrate"),
        ("Sesqui-Quadrate", "sesquiquadrate"),
        (" Trine ", "trine"),
    ],
)
def test_obvious_variant_spellings(spelling, name):
    assert parse_aspect_types([spelling]) == [name]


def test_every_canonical_name_parses_to_itself():
    assert parse_aspect_types(list(ASPECT_NAMES)) == list(ASPECT_NAMES)


def test_duplicates_collapse_keeping_first_order():
    assert parse_aspect_types(["square", "Trine", "semisextile", "trine", "semi-sextile", "square"]) == [
        "square",
        "trine",
        "semi_sextile",
    ]


def test_unknown_name_is_refused_naming_it_and_the_valid_names():
    with pytest.raises(UnreadableValue) as err:
        parse_aspect_types(["trine", "novile"])
    assert "novile" in err.value.message
    for name in ASPECT_NAMES:
        assert name in err.value.suggestion


def test_unknown_name_error_carries_the_given_param():
    with pytest.raises(UnreadableValue) as err:
        parse_aspect_types(["bogus"])
    assert err.value.as_dict()["code"] == "invalid_parameter"


@pytest.mark.parametrize("name", ["parallel", "Parallel", "contraparallel", "contra-parallel"])
def test_parallel_is_not_an_angular_type(name):
    with pytest.raises(UnreadableValue) as err:
        parse_aspect_types([name])
    assert "parallels=true" in err.value.suggestion


def test_empty_name_is_refused():
    with pytest.raises(UnreadableValue) as err:
        parse_aspect_types(["trine", ""])
    assert "empty" in err.value.message


def test_find_aspects_refuses_an_unknown_type():
    with pytest.raises(UnreadableValue):
        find_aspects(pair(0.0, 1.0), ["conjunction", "novile"])


# --- parallels -------------------------------------------------------------------------------


def decl(name: str, d: float | None) -> Point:
    return Point(name, 0.0, 0.0, d)


def test_parallel_within_orb_has_the_difference_as_orb():
    (m,) = find_parallels([decl("sun", 20.0), decl("venus", 20.75)])
    assert m.parallel_type == "parallel"
    assert (m.body_a, m.body_b) == ("sun", "venus")
    assert m.declination_a_deg == 20.0 and m.declination_b_deg == 20.75
    assert m.orb_deg == pytest.approx(0.75) and m.max_orb_deg == 1.0


def test_contraparallel_within_orb_has_the_sum_as_orb():
    (m,) = find_parallels([decl("sun", 20.0), decl("mars", -20.4)])
    assert m.parallel_type == "contraparallel"
    assert m.orb_deg == pytest.approx(0.4)


def test_parallel_is_tried_first():
    # Near the equator both hold: 0.3 and -0.2 differ by 0.5 and sum to 0.1.
    (m,) = find_parallels([decl("a", 0.3), decl("b", -0.2)])
    assert m.parallel_type == "parallel" and m.orb_deg == pytest.approx(0.5)


def test_contraparallel_disabled_leaves_only_parallels():
    points = [decl("sun", 20.0), decl("mars", -20.4), decl("venus", 20.5)]
    assert [m.parallel_type for m in find_parallels(points)] == [
        "contraparallel",
        "parallel",
        "contraparallel",
    ]
    found = find_parallels(points, contraparallel=False)
    assert [(m.body_a, m.body_b, m.parallel_type) for m in found] == [("sun", "venus", "parallel")]


def test_parallel_orb_edge_and_override():
    assert len(find_parallels([decl("a", 10.0), decl("b", 11.0)])) == 1
    assert find_parallels([decl("a", 10.0), decl("b", 11.0 + JUST_BEYOND)]) == []
    (m,) = find_parallels([decl("a", 10.0), decl("b", 12.5)], orb_deg=3.0)
    assert m.orb_deg == pytest.approx(2.5) and m.max_orb_deg == 3.0


def test_points_without_declination_are_skipped():
    assert find_parallels([decl("a", None), decl("b", 1.0), decl("c", None)]) == []


def test_bad_parallel_orb_is_refused_on_parallel_orb():
    with pytest.raises(UnreadableValue):
        find_parallels([decl("a", 1.0)], orb_deg=-0.5)


def test_parallels_between_sets_body_a_is_from_set_a():
    found = find_parallels_between([decl("sun", 5.0)], [decl("sun", 5.5), decl("moon", -5.2)])
    assert [(m.body_a, m.body_b, m.parallel_type) for m in found] == [
        ("sun", "sun", "parallel"),
        ("sun", "moon", "contraparallel"),
    ]
