"""Aspect patterns (interface.md, GET/POST /v1/patterns rules 1-3), from made-up longitudes.

The aspects are detected by kernel/aspects.py (tested on its own); each expected
pattern is read off the longitudes by hand.
"""

from __future__ import annotations

import pytest

from kernel.aspects import MAJOR_SEVEN, Point, find_aspects
from kernel.errors import MissingValue, UnreadableValue
from kernel.patterns import PATTERN_TYPES, find_patterns, missing_aspect_warnings, parse_pattern_types


def patterns_of(longitudes: dict[str, float], types=PATTERN_TYPES, aspect_types=MAJOR_SEVEN, **options):
    bodies = list(longitudes)
    aspects = find_aspects([Point(b, lon, None) for b, lon in longitudes.items()], aspect_types, with_applying=False)
    return find_patterns(bodies, aspects, types, longitudes=longitudes, **options), aspects


def summary(patterns):
    return [(p.pattern, p.bodies, p.focal) for p in patterns]


def test_a_t_square_is_an_opposition_and_two_squares_to_the_apex_last():
    found, _ = patterns_of({"sun": 0.0, "moon": 92.0, "mars": 181.0}, types=("t_square",))
    assert summary(found) == [("t_square", ("sun", "mars", "moon"), "moon")]
    assert [a.aspect for a in found[0].aspects] == ["square", "opposition", "square"]  # in the aspect list's order
    assert found[0].tightness == pytest.approx(2.0)  # moon-sun square is 2 degrees off, the widest


def test_a_grand_trine_is_three_mutual_trines():
    found, _ = patterns_of({"sun": 0.0, "moon": 121.0, "mars": 238.0}, types=("grand_trine",))
    assert summary(found) == [("grand_trine", ("sun", "moon", "mars"), None)]
    assert found[0].tightness == pytest.approx(3.0)  # moon-mars 117


def test_a_kite_also_reports_its_grand_trine():
    found, _ = patterns_of({"sun": 0.0, "moon": 120.0, "mars": 240.0, "venus": 180.0}, types=("grand_trine", "kite"))
    assert summary(found) == [
        ("grand_trine", ("sun", "moon", "mars"), None),
        ("kite", ("sun", "moon", "mars", "venus"), "venus"),
    ]
    assert {a.aspect for a in found[1].aspects} == {"trine", "opposition", "sextile"} and len(found[1].aspects) == 6


def test_a_grand_cross_also_reports_its_four_t_squares():
    found, _ = patterns_of({"sun": 0.0, "moon": 90.0, "mars": 180.0, "venus": 270.0}, types=("grand_cross", "t_square"))
    assert summary(found)[0] == ("grand_cross", ("sun", "moon", "mars", "venus"), None)
    t_squares = [p for p in found if p.pattern == "t_square"]
    assert sorted(p.focal for p in t_squares) == ["mars", "moon", "sun", "venus"]


def test_a_yod_is_a_sextile_and_two_quincunxes_to_the_apex_last():
    found, _ = patterns_of({"sun": 0.0, "moon": 60.0, "mars": 210.0}, types=("yod",))
    assert summary(found) == [("yod", ("sun", "moon", "mars"), "mars")]


def test_a_mystic_rectangle_is_two_oppositions_whose_sides_alternate_trine_and_sextile():
    found, _ = patterns_of({"sun": 0.0, "moon": 60.0, "mars": 180.0, "venus": 240.0}, types=("mystic_rectangle",))
    assert summary(found) == [("mystic_rectangle", ("sun", "moon", "mars", "venus"), None)]
    assert sorted(a.aspect for a in found[0].aspects) == [
        "opposition",
        "opposition",
        "sextile",
        "sextile",
        "trine",
        "trine",
    ]


def test_types_come_in_filter_order_then_body_order_each_body_set_once():
    longitudes = {"sun": 0.0, "moon": 90.0, "mars": 180.0, "venus": 270.0}
    found, _ = patterns_of(longitudes, types=("t_square", "grand_cross"))
    assert [p.pattern for p in found] == ["t_square"] * 4 + ["grand_cross"]
    assert [p.bodies for p in found[:4]] == [
        ("sun", "mars", "moon"),
        ("sun", "mars", "venus"),
        ("moon", "venus", "sun"),
        ("moon", "venus", "mars"),
    ]


def test_a_pattern_needing_an_excluded_aspect_type_is_not_found_and_the_missing_type_is_named():
    found, _ = patterns_of(
        {"sun": 0.0, "moon": 60.0, "mars": 210.0}, types=("yod",), aspect_types=("conjunction", "sextile")
    )
    assert found == []
    warnings = missing_aspect_warnings(("yod", "grand_trine"), ("conjunction", "sextile", "trine"))
    assert len(warnings) == 1 and "quincunx" in warnings[0] and "yod" in warnings[0]
    assert missing_aspect_warnings(("stellium",), ("trine",), "conjunction")[0].count("conjunction") >= 1
    assert missing_aspect_warnings(("stellium",), ("trine",), "sign") == []


def test_a_stellium_by_sign_is_stellium_min_bodies_in_one_sign_with_their_span():
    longitudes = {"sun": 2.0, "moon": 28.0, "mercury": 15.0, "venus": 40.0}
    found, _ = patterns_of(longitudes, types=("stellium",))
    assert summary(found) == [("stellium", ("sun", "moon", "mercury"), None)]
    assert found[0].tightness == pytest.approx(26.0)
    assert patterns_of(longitudes, types=("stellium",), stellium_min=4)[0] == []


def test_a_stellium_by_house_uses_the_houses_and_needs_them():
    longitudes = {"sun": 2.0, "moon": 28.0, "mercury": 35.0}
    found, _ = patterns_of(
        longitudes, types=("stellium",), stellium_scope="house", houses={"sun": 1, "moon": 1, "mercury": 1}
    )
    assert summary(found) == [("stellium", ("sun", "moon", "mercury"), None)]
    with pytest.raises(MissingValue):
        patterns_of(longitudes, types=("stellium",), stellium_scope="house")


def test_a_stellium_by_conjunction_chain_joins_bodies_linked_by_conjunctions():
    # sun-moon 7 apart, moon-mars 7 apart: one chain of three although sun-mars are 14 apart.
    longitudes = {"sun": 355.0, "moon": 2.0, "mars": 9.0, "venus": 100.0}
    found, _ = patterns_of(longitudes, types=("stellium",), stellium_scope="conjunction")
    assert summary(found) == [("stellium", ("sun", "moon", "mars"), None)]
    assert found[0].tightness == pytest.approx(14.0)  # across 0 degrees
    assert [a.aspect for a in found[0].aspects] == ["conjunction", "conjunction"]


def test_unknown_pattern_type_is_invalid_parameter():
    assert parse_pattern_types(["yod", "kite", "yod"]) == ("yod", "kite")
    with pytest.raises(UnreadableValue):
        parse_pattern_types(["boomerang"])
