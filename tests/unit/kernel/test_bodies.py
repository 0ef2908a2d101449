"""The body table: names, alias, groups, order, duplicates, the heliocentric rules, each
use's eligible bodies and each body's ephemeris span."""

from __future__ import annotations

import pytest

from kernel import engine
from kernel.bodies import (
    ALL,
    ASTEROIDS,
    BODY_TABLE,
    HELIACAL,
    INGRESSES,
    MOVING,
    PLANETS,
    RETURNS,
    TABLE,
    canonical_body,
    check_span,
    eligible,
    engine_number,
    is_asteroid,
    resolve_bodies,
    resolve_body,
)
from kernel.errors import BodyNotEligible, BodyNotFound, OutOfRange


def test_planets_group_is_sun_through_pluto_plus_mean_node():
    assert resolve_bodies(["planets"]) == [
        "sun",
        "moon",
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
        "mean_node",
    ]


def test_asteroids_group_is_the_six_main_asteroids():
    assert resolve_bodies(["asteroids"]) == ["chiron", "pholus", "ceres", "pallas", "juno", "vesta"]


def test_all_group_is_planets_true_node_asteroids_and_apogees_in_that_order():
    assert resolve_bodies(["all"]) == list(PLANETS) + ["true_node"] + list(ASTEROIDS) + ["mean_apogee", "osc_apogee"]
    assert len(ALL) == 20


def test_names_and_groups_mix_in_the_order_given_and_duplicates_collapse():
    assert resolve_bodies(["chiron", "planets", "sun", "chiron"]) == ["chiron"] + list(PLANETS)
    assert resolve_bodies(["moon", "sun", "moon"]) == ["moon", "sun"]


def test_input_is_case_insensitive_and_output_lowercase():
    assert resolve_bodies(["SUN", " Moon ", "Mean_Node"]) == ["sun", "moon", "mean_node"]
    assert resolve_bodies(["PLANETS"])[0] == "sun"


def test_lilith_is_answered_under_the_name_asked_for():
    assert resolve_bodies(["Lilith"]) == ["lilith"]
    assert canonical_body("lilith") == "mean_apogee"


def test_lilith_and_mean_apogee_are_one_body_and_collapse_to_the_first_spelling():
    assert resolve_bodies(["lilith", "all"]).count("mean_apogee") == 0
    assert resolve_bodies(["all", "lilith"]).count("lilith") == 0


def test_unknown_body_is_body_not_found_naming_it_and_listing_valid_names():
    with pytest.raises(BodyNotFound) as caught:
        resolve_bodies(["sun", "vulcan"])
    error = caught.value
    assert "vulcan" in error.message
    assert "mercury" in error.message and "planets" in error.message


def test_near_miss_gets_a_did_you_mean_suggestion():
    with pytest.raises(BodyNotFound) as caught:
        resolve_bodies(["mercurry"])
    assert "mercury" in caught.value.suggestion


def test_earth_in_geocentric_mode_is_not_eligible_and_suggests_heliocentric():
    with pytest.raises(BodyNotEligible) as caught:
        resolve_bodies(["earth"])
    assert "heliocentric=true" in caught.value.suggestion


def test_heliocentric_sun_is_refused_suggesting_earth():
    with pytest.raises(BodyNotEligible) as caught:
        resolve_bodies(["sun"], heliocentric=True)
    assert "earth" in caught.value.suggestion


@pytest.mark.parametrize("name", ["mean_node", "true_node", "mean_apogee", "osc_apogee", "lilith"])
def test_heliocentric_nodes_and_apogees_are_refused(name):
    with pytest.raises(BodyNotEligible):
        resolve_bodies([name], heliocentric=True)


def test_heliocentric_groups_put_earth_for_sun_and_drop_nodes_and_apogees():
    assert resolve_bodies(["planets"], heliocentric=True) == [
        "earth",
        "moon",
        "mercury",
        "venus",
        "mars",
        "jupiter",
        "saturn",
        "uranus",
        "neptune",
        "pluto",
    ]
    helio_all = resolve_bodies(["all"], heliocentric=True)
    assert "earth" in helio_all and "sun" not in helio_all
    assert not {"mean_node", "true_node", "mean_apogee", "osc_apogee"} & set(helio_all)
    assert resolve_bodies(["earth", "planets"], heliocentric=True).count("earth") == 1


def test_asteroid_membership():
    assert is_asteroid("ceres") and not is_asteroid("moon") and not is_asteroid("lilith")


def test_empty_list_gives_empty_list():
    assert resolve_bodies([]) == []


# --- the one body table ------------------------------------------------------------------


def test_the_body_tables_engine_numbers_are_swiss_ephemeris_body_numbers():
    # swisseph's own constants (swephexp.h SE_SUN ... SE_VESTA); the table names mean_apogee
    # and osc_apogee what swisseph calls MEAN_APOG and OSCU_APOG.
    constants = engine.body_number_constants()
    spelled = {"mean_apogee": "mean_apog", "osc_apogee": "oscu_apog"}
    assert {row.name: row.engine_number for row in BODY_TABLE} == {
        row.name: constants[spelled.get(row.name, row.name)] for row in BODY_TABLE
    }


def test_each_use_lists_the_bodies_the_spec_names_for_it():
    planets = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")
    # interface.md, /v1/returns "Supported bodies".
    assert eligible(RETURNS) == planets + (
        "mean_node",
        "true_node",
        "chiron",
        "pholus",
        "ceres",
        "pallas",
        "juno",
        "vesta",
    )
    # decisions.md: a heliocentric return takes earth for the sun and no node.
    assert eligible(RETURNS, heliocentric=True) == planets[1:] + (
        "chiron",
        "pholus",
        "ceres",
        "pallas",
        "juno",
        "vesta",
        "earth",
    )
    # interface.md, /v1/transits `moving`.
    assert eligible(MOVING) == planets + ("mean_node", "true_node", "chiron", "ceres", "pallas", "juno", "vesta")
    # interface.md, /v1/ingresses and /v1/heliacal.
    assert eligible(INGRESSES) == planets
    assert eligible(HELIACAL) == planets[2:]


@pytest.mark.parametrize("name", ["chiron", "pholus", "ceres", "pallas", "juno", "vesta"])
def test_an_asteroid_is_computed_from_the_files_over_its_span_and_out_of_range_outside_it(name):
    first, last = TABLE[name].span_jd_ut1
    for jd in (first, last):
        assert not engine.calc_body(jd, engine_number(name), 0).used_fallback  # the files cover both ends
    with pytest.raises(engine.EngineError):
        engine.calc_body(first - 30.0, engine_number(name), 0)  # and a month before the start they do not
    check_span(name, first, last)
    with pytest.raises(OutOfRange) as caught:
        check_span(name, first - 1.0)
    assert name in caught.value.message and "1200-01-09" in caught.value.message
    assert caught.value.about == "moment" and caught.value.param is None


@pytest.mark.parametrize(
    ("name", "kind"), [("aldebaran", "fixed star"), ("Regulus", "fixed star"), ("433", "numbered asteroid")]
)
def test_fixed_stars_and_numbered_asteroids_are_known_bodies_not_eligible(name, kind):
    for refuse in (lambda: resolve_bodies([name]), lambda: resolve_body(name, RETURNS)):
        with pytest.raises(BodyNotEligible) as caught:
            refuse()
        assert kind in caught.value.message
    assert (
        "chiron" in caught.value.suggestion and "mean_apogee" not in caught.value.suggestion
    )  # the bodies a return can use


@pytest.mark.parametrize(
    ("name", "use", "heliocentric", "hint"),
    [
        ("lilith", RETURNS, False, "pholus"),
        ("pholus", MOVING, False, "vesta"),
        ("chiron", INGRESSES, False, "pluto"),
        ("sun", HELIACAL, False, "mercury"),
        ("sun", RETURNS, True, "earth"),
        ("mean_node", RETURNS, True, "heliocentric"),
        ("earth", RETURNS, False, "heliocentric=true"),
    ],
)
def test_a_known_body_a_use_cannot_take_is_body_not_eligible_suggesting_the_eligible(name, use, heliocentric, hint):
    with pytest.raises(BodyNotEligible) as caught:
        resolve_body(name, use, heliocentric=heliocentric)
    assert hint in caught.value.suggestion


def test_earth_is_a_return_body_in_heliocentric_mode():
    assert resolve_body("Earth", RETURNS, heliocentric=True) == "earth"
