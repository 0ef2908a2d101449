"""The rules of a request read from the proto options (shared/runtime/validation.py).

References: options.proto's FieldRule (required, required_with, sent_with, excludes,
has_min/min/max and their exclusivity, choices, vocabulary, default and default_by_reader,
max_items, instead_of) and OneofRule.required, as the request messages use them
(common.proto, ephemeris_service.proto, search_service.proto, astrocartography_service.proto);
decisions.md (vocabularies and choices are case-insensitive).
"""

from __future__ import annotations

import pytest

from celestial.v1 import astrocartography_service_pb2 as astro_pb
from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1.common_pb2 import AspectSelection, Birth, Location, Moment, Place
from kernel.errors import BodyNotFound
from kernel.places import find_towns
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter
from shared.runtime.positions_query import PositionsQuery
from shared.runtime.validation import validate

AT = Moment(jd=2451545.0)
BIRTH = Birth(moment=AT, location=Place(lat=51.5, lon=-0.1))


def refused(error, message, param):
    with pytest.raises(error) as caught:
        validate(message)
    assert caught.value.param == param


def test_absent_fields_take_their_declared_defaults():
    request = validate(pb.ComputePositionsRequest(moment=AT)).message
    assert (list(request.bodies), request.speed, request.equatorial) == (["planets"], True, False)


def test_defaults_of_flattened_values_are_filled_in_them():
    request = validate(pb.ComputeNatalChartRequest(birth=BIRTH)).message
    assert (request.chart.options.system, request.chart.options.stellium_min, request.birth.location.alt) == (
        "placidus",
        3,
        0.0,
    )
    assert list(request.chart.options.aspect_selection.aspects)[:2] == ["conjunction", "opposition"]


def test_a_default_left_to_the_reader_stays_absent():
    request = validate(pb.ComputeNatalChartRequest(birth=BIRTH)).message
    assert not request.chart.HasField("resolution") and not request.chart.options.HasField("midpoints")


def test_a_value_sent_is_not_replaced_by_the_default():
    assert validate(pb.ComputePositionsRequest(moment=AT, speed=False)).message.speed is False


def test_a_required_one_of_sent_neither_way_is_missing_its_first_member():
    refused(MissingParameter, pb.ComputePositionsRequest(), "datetime")
    refused(MissingParameter, pb.ComputeSynastryRequest(births={"birth_a": BIRTH}), "datetime_b")


def test_a_required_field_absent_is_missing():
    refused(MissingParameter, pb.ComputeAyanamshaRequest(moment=AT), "system")
    refused(MissingParameter, pb.ComputeNatalChartRequest(birth=Birth(moment=AT)), "lat")


def test_a_field_required_with_a_flag_is_missing_when_the_flag_is_true():
    refused(MissingParameter, pb.ComputePositionsRequest(moment=AT, topocentric=True), "lat")
    assert validate(pb.ComputePositionsRequest(moment=AT, topocentric=False))


def test_one_of_two_fields_sent_together_is_missing_the_other():
    refused(MissingParameter, pb.FindPatternsRequest(moment=AT, location=Location(lat=10.0)), "lon")
    refused(MissingParameter, pb.ComputePositionsRequest(moment=AT, place=Place(lat=1.0)), "lon")
    refused(MissingParameter, pb.ComputePositionsRequest(moment=AT, place=Place(lon=1.0)), "lat")


def test_a_flag_that_excludes_another_is_refused_naming_itself():
    refused(
        InvalidParameter,
        pb.ComputePositionsRequest(moment=AT, topocentric=True, heliocentric=True, place=Place(lat=0.0, lon=0.0)),
        "topocentric",
    )


def test_a_town_and_the_coordinates_it_stands_for_are_conflicting_naming_the_town():
    paris = str(find_towns("Paris", limit=1)[0].id)
    request = pb.ComputeNatalChartRequest(birth=Birth(moment=AT, location=Place(lat=1.0, lon=2.0), place=paris))
    refused(ConflictingParameters, request, "place")
    birth = validate(pb.ComputeNatalChartRequest(birth=Birth(moment=AT, place=paris))).message.birth
    assert not birth.location.HasField("lat")


@pytest.mark.parametrize(("orb", "accepted"), [(0.0, False), (0.001, True), (30.0, True), (30.5, False)])
def test_a_number_outside_its_range_is_invalid(orb, accepted):
    request = pb.ComputeVoidOfCourseRequest(moment=AT, aspect_selection=AspectSelection(orb=orb))
    if accepted:
        assert validate(request)
    else:
        refused(InvalidParameter, request, "orb")


def test_a_choice_in_any_case_is_written_back_in_its_canonical_spelling():
    request = validate(
        search_pb.FindTransitsRequest(start=AT, end=Moment(jd=2451546.0), targets="MUTUAL", moon="Exclude")
    ).message
    assert (request.targets, request.moon) == ("mutual", "exclude")


def test_a_value_outside_the_choices_is_invalid():
    refused(
        InvalidParameter,
        search_pb.FindTransitsRequest(start=AT, end=Moment(jd=2451546.0), targets="sideways"),
        "targets",
    )


def test_a_value_outside_its_vocabulary_gets_the_vocabularys_error():
    refused(BodyNotFound, pb.ComputePositionsRequest(moment=AT, bodies=["vulcan"]), "bodies")
    refused(
        InvalidParameter, pb.ComputeNatalChartRequest(birth=BIRTH, chart={"options": {"system": "zodiacal"}}), "system"
    )


def test_an_empty_string_without_choices_or_vocabulary_is_invalid():
    refused(InvalidParameter, pb.ComputeStarsRequest(moment=AT, star=""), "star")


def test_more_items_than_allowed_are_invalid():
    targets = [astro_pb.AstroTarget(body="sun", angles=["mc"])] * 21
    refused(InvalidParameter, astro_pb.ComputeAstrocartographyRequest(moment=AT, targets=targets), "targets")


def test_the_rules_of_an_items_fields_apply_to_each_item():
    target = astro_pb.AstroTarget(body="sun", cusps=[13.0])
    refused(InvalidParameter, astro_pb.ComputeAstrocartographyRequest(moment=AT, targets=[target]), "cusps")


def test_the_readers_query_is_kept_on_the_reading():
    reading = validate(pb.ComputePositionsRequest(moment=AT, bodies=["moon"]))
    assert isinstance(reading.query, PositionsQuery) and reading.query.bodies == ("moon",)


def test_the_readers_rule_refuses_after_the_field_rules():
    refused(InvalidParameter, pb.ComputeVoidOfCourseRequest(moment=AT, bodies=["sun"]), "bodies")
