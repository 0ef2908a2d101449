"""Ayanamsha table: ids 0-46 agree with Swiss Ephemeris, and names or ids parse."""

from __future__ import annotations

import pytest

from kernel import engine
from kernel.ayanamshas import AYANAMSHA_NAMES, AYANAMSHAS, Ayanamsha, parse_ayanamsha
from kernel.errors import UnreadableValue

# Our names that differ from the Swiss Ephemeris C constant (SE_SIDM_<NAME>) they stand for.
RENAMED_CONSTANTS = {
    "galcent_rgbrand": "SIDM_GALCENT_RGILBRAND",
    "krishnamurti_senthilathiban": "SIDM_KRISHNAMURTI_VP291",
}


def test_table_holds_ids_0_to_46_once_each_with_unique_names():
    assert [a.id for a in AYANAMSHAS] == list(range(47))
    assert len(set(AYANAMSHA_NAMES)) == 47


@pytest.mark.parametrize("ayanamsha", AYANAMSHAS, ids=lambda a: a.name)
def test_each_id_matches_the_swisseph_constant_of_the_same_name(ayanamsha):
    constants = engine.sidereal_mode_constants()
    constant = RENAMED_CONSTANTS.get(ayanamsha.name, "SIDM_" + ayanamsha.name.upper())
    assert constants[constant] == ayanamsha.id


def test_every_id_has_a_swiss_ephemeris_name_and_47_is_past_the_end():
    for ayanamsha in AYANAMSHAS:
        assert engine.ayanamsha_engine_name(ayanamsha.id)
    assert engine.ayanamsha_engine_name(47) == ""


def test_engine_names_spot_check():
    assert engine.ayanamsha_engine_name(0) == "Fagan/Bradley"
    assert engine.ayanamsha_engine_name(1) == "Lahiri"
    assert engine.ayanamsha_engine_name(27) == "True Citra"


@pytest.mark.parametrize("text", ["lahiri", "LAHIRI", " Lahiri "])
def test_lahiri_parses_by_name_in_any_case(text):
    assert parse_ayanamsha(text) == Ayanamsha(1, "lahiri")


@pytest.mark.parametrize("text", ["3", 3])
def test_an_id_from_2_to_46_parses_as_a_string_or_an_int(text):
    assert parse_ayanamsha(text) == Ayanamsha(3, "raman")


@pytest.mark.parametrize("text", ["0", "1", 0, 1, "true", "FALSE"])
def test_an_id_that_reads_as_a_boolean_is_refused_suggesting_the_name(text):
    with pytest.raises(UnreadableValue) as caught:
        parse_ayanamsha(text)
    assert "fagan_bradley" in caught.value.suggestion and "lahiri" in caught.value.suggestion


def test_hyphenated_name_reads_as_underscore():
    assert parse_ayanamsha("fagan-bradley").id == 0


@pytest.mark.parametrize("text", ["", "47", "-1", "03", "２", "lahiri2", "1.0", "foo", True, None])
def test_unknown_ayanamsha_is_invalid_parameter_listing_the_names(text):
    with pytest.raises(UnreadableValue) as caught:
        parse_ayanamsha(text)
    assert "fagan_bradley" in caught.value.message and "lahiri_icrc" in caught.value.message
