"""Body registry: names, alias, groups, order, duplicates and the heliocentric rules."""

from __future__ import annotations

import pytest

from shared.kernel.bodies import ALL, ASTEROIDS, PLANETS, canonical_body, is_asteroid, resolve_bodies
from shared.kernel.errors import BodyNotEligible, BodyNotFound


def test_planets_group_is_sun_through_pluto_plus_mean_node():
    assert resolve_bodies(["planets"]) == [
        "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto", "mean_node",
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
        resolve_bodies(["sun", "vulcan"], param="bodies")
    error = caught.value
    assert "vulcan" in error.message
    assert "mercury" in error.message and "planets" in error.message
    assert error.param == "bodies"


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
    assert caught.value.param == "bodies"


@pytest.mark.parametrize("name", ["mean_node", "true_node", "mean_apogee", "osc_apogee", "lilith"])
def test_heliocentric_nodes_and_apogees_are_refused(name):
    with pytest.raises(BodyNotEligible):
        resolve_bodies([name], heliocentric=True)


def test_heliocentric_groups_put_earth_for_sun_and_drop_nodes_and_apogees():
    assert resolve_bodies(["planets"], heliocentric=True) == [
        "earth", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    ]
    helio_all = resolve_bodies(["all"], heliocentric=True)
    assert "earth" in helio_all and "sun" not in helio_all
    assert not {"mean_node", "true_node", "mean_apogee", "osc_apogee"} & set(helio_all)
    assert resolve_bodies(["earth", "planets"], heliocentric=True).count("earth") == 1


def test_asteroid_membership():
    assert is_asteroid("ceres") and not is_asteroid("moon") and not is_asteroid("lilith")


def test_empty_list_gives_empty_list():
    assert resolve_bodies([]) == []
