"""Parameter text to the types of protobuf fields (shared/runtime/parameter_text.py).

References: RFC 8259 section 6 (JSON's number grammar: no '+', no leading zeros, no bare
'.', no inf/nan, no hexadecimal, ASCII digits); the protobuf integer widths (int32:
-2^31 to 2^31-1); the fields' declared ranges and defaults (common.proto: stellium_min 2-10,
the aspect orb (0, 30]; ephemeris_service.proto: bodies default planets, speed default true).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import options_pb2
from celestial.v1 import search_service_pb2 as search_pb
from shared.errors import InvalidParameter
from shared.runtime.parameter_text import check_range, declared_default, parse_scalar
from shared.runtime.request_model import message_spec

NATAL = message_spec(pb.ComputeNatalChartRequest.DESCRIPTOR).fields
ORB, STELLIUM_MIN, DIGNITIES, SYSTEM = NATAL["orb"], NATAL["stellium_min"], NATAL["dignities"], NATAL["system"]


def refused(spec, text: str) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        parse_scalar(spec, text)
    assert caught.value.param == spec.name
    return caught.value


@pytest.mark.parametrize(
    ("text", "value"), [("true", True), ("TRUE", True), ("1", True), ("False", False), ("0", False)]
)
def test_a_boolean_is_true_false_or_1_0_in_any_case(text, value):
    assert parse_scalar(DIGNITIES, text) is value


@pytest.mark.parametrize("text", ["yes", " true", "2", ""])
def test_anything_else_is_not_a_boolean(text):
    refused(DIGNITIES, text)


@pytest.mark.parametrize(("text", "value"), [("2.5", 2.5), ("-0", 0.0), ("1e1", 10.0), ("0.25E+1", 2.5)])
def test_a_number_is_read_as_json_writes_it(text, value):
    assert parse_scalar(ORB, text) == value


@pytest.mark.parametrize("text", ["+1", "01", ".5", "5.", "inf", "nan", "0x10", "1_0", "\u0663", " 1", "1e400"])
def test_a_number_json_does_not_write_or_not_finite_is_refused(text):
    refused(ORB, text)


@pytest.mark.parametrize(("text", "value"), [("4", 4), ("4.0", 4), ("4e0", 4)])
def test_an_integer_is_a_json_number_with_a_whole_value(text, value):
    assert parse_scalar(STELLIUM_MIN, text) == value


def test_a_fraction_is_not_an_integer():
    refused(STELLIUM_MIN, "4.5")


def test_an_integer_its_type_cannot_hold_names_the_fields_own_range_when_it_has_one():
    assert "[2, 10]" in str(refused(STELLIUM_MIN, "2147483648"))


def test_an_integer_its_type_cannot_hold_names_the_types_range_otherwise():
    unranged = type(STELLIUM_MIN)(STELLIUM_MIN.name, STELLIUM_MIN.descriptor, options_pb2.FieldRule(), None)
    assert parse_scalar(unranged, "2147483647") == 2**31 - 1
    assert "-2147483648 to 2147483647" in str(refused(unranged, "2147483648"))


def test_a_string_is_kept_as_sent():
    assert parse_scalar(SYSTEM, " Koch ") == " Koch "


def test_an_exclusive_bound_is_refused_and_an_inclusive_one_accepted():
    check_range(ORB, 30.0)
    with pytest.raises(InvalidParameter) as caught:
        check_range(ORB, 0.0)
    assert (caught.value.param, "(0, 30]" in str(caught.value)) == ("orb", True)


def test_a_value_just_over_a_bound_is_shown_as_sent():
    with pytest.raises(InvalidParameter) as caught:
        check_range(ORB, 30.0001)
    assert "30.0001" in str(caught.value)


def test_a_declared_default_is_parsed_to_the_fields_type():
    assert declared_default(pb.ComputePositionsRequest.DESCRIPTOR, "bodies") == ["planets"]
    assert declared_default(pb.ComputePositionsRequest.DESCRIPTOR, "speed") is True
    assert declared_default(search_pb.FindTransitsRequest.DESCRIPTOR, "orb") == 1.0
    assert declared_default(search_pb.FindTransitsRequest.DESCRIPTOR, "moving")[-1] == "pluto"
