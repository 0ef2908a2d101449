"""One row per vocabulary (shared/runtime/vocabularies.py), read by validation, the OpenAPI
document and the readers."""

from __future__ import annotations

from celestial.v1 import options_pb2
from shared.runtime.vocabularies import VOCABULARIES


def test_every_vocabulary_of_the_contract_has_its_one_row():
    declared = {value.number for value in options_pb2.Vocabulary.DESCRIPTOR.values if value.number}
    assert set(VOCABULARIES) == declared
    assert all(row.enum == enum for enum, row in VOCABULARIES.items())


def test_the_reference_notes_are_the_rows_notes():
    from gateway.endpoints import discover_endpoints
    from gateway.reference.openapi import build_openapi

    document = str(build_openapi(discover_endpoints(), version="test"))
    for row in VOCABULARIES.values():
        if row.note:
            assert row.note in document


# Moved from the kernel's tests (issue 35, part 3): the kernel's parsers name no parameter;
# the vocabulary check that calls them names the parameter it read.

import pytest  # noqa: E402

from shared.errors import InvalidParameter  # noqa: E402


def _refusal(vocabulary: int, values: list, param: str) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        VOCABULARIES[vocabulary].check(values, param, None)
    return caught.value


# From tests/unit/kernel/test_houses.py::test_unknown_system_is_invalid_parameter_listing_the_systems.
@pytest.mark.parametrize("text", ["p", "k", "w", "", "placid", "Z", None])
def test_unknown_system_is_invalid_parameter_on_its_parameter(text):
    assert _refusal(options_pb2.VOCABULARY_HOUSE_SYSTEM, [text], "system").param == "system"


# From tests/unit/kernel/test_ayanamshas.py (the boolean-looking ids and the unknown names).
@pytest.mark.parametrize("text", ["0", "1", 0, 1, "true", "FALSE", "", "47", "foo", True, None])
def test_unknown_ayanamsha_is_invalid_parameter_on_its_parameter(text):
    assert _refusal(options_pb2.VOCABULARY_AYANAMSHA, [text], "sidereal").param == "sidereal"


def test_a_boolean_looking_ayanamsha_is_worded_with_its_parameter():
    refused = _refusal(options_pb2.VOCABULARY_AYANAMSHA, ["1"], "system")
    assert refused.message.startswith("system='1' reads as a boolean; system takes an ayanamsha name")
    assert refused.suggestion.startswith("Send system=fagan_bradley (id 0) or system=lahiri (id 1)")


# From tests/unit/kernel/test_aspects.py: the unknown name, the given parameter, parallel.
@pytest.mark.parametrize(
    ("values", "param"),
    [
        (["trine", "novile"], "aspects"),
        (["bogus"], "transit_aspects"),
        (["parallel"], "aspects"),
        (["contra-parallel"], "aspects"),
    ],
)
def test_an_unknown_aspect_type_is_refused_on_the_given_parameter(values, param):
    refused = _refusal(options_pb2.VOCABULARY_ASPECTS, values, param)
    assert refused.param == param and refused.as_dict()["code"] == "invalid_parameter"


# From tests/unit/kernel/test_civil_time.py::test_an_unknown_zone_suggests_the_closest_names.
def test_an_unknown_zone_is_refused_on_the_given_parameter():
    refused = _refusal(options_pb2.VOCABULARY_TIME_ZONE, ["America/NewYork"], "tz_a")
    assert (
        refused.param == "tz_a" and refused.message == "tz_a='America/NewYork' is not a time zone of the tz database."
    )
    assert "America/New_York" in refused.suggestion


def test_an_unknown_place_is_refused_on_the_given_parameter():
    refused = _refusal(options_pb2.VOCABULARY_PLACE, ["999999999"], "place_b")
    assert refused.param == "place_b" and refused.message == "place_b='999999999' is no place id of the gazetteer."
