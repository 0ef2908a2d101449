"""The request model read from the descriptors (shared/runtime/request_model.py).

References: options.proto's FieldRule (flatten and flatten_names, primary, shared, required
and required_with passed to a flattened value, instead_of); common.proto (Moment, Place,
Birth, TwoBirths: datetime/jd, lat/lon/alt, place; "{}_a"); the spec's parameter names
(interface.md: datetime_a, start and start_jd, target_datetime, one tz for every moment).
"""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1.common_pb2 import Birth, Place
from shared.runtime.request_model import bool_parameter, message_spec


def test_a_flattened_values_fields_are_parameters_under_their_own_names():
    fields = message_spec(pb.ComputeNatalChartRequest.DESCRIPTOR).fields
    assert {"datetime", "jd", "lat", "lon", "alt", "place", "system", "aspects", "orb", "dignities"} <= set(fields)
    assert "birth" not in fields and "chart" not in fields
    assert fields["lat"].path == ("birth", "location")
    assert fields["orb"].path == ("chart", "options", "aspect_selection")


def test_a_template_of_flatten_names_renames_each_field():
    fields = message_spec(pb.ComputeSynastryRequest.DESCRIPTOR).fields
    assert {"datetime_a", "jd_a", "lat_a", "datetime_b", "lon_b", "place_b"} <= set(fields)
    assert "datetime" not in fields


def test_a_plain_flatten_name_is_the_primary_fields_and_prefixes_the_others():
    fields = message_spec(search_pb.FindTransitsRequest.DESCRIPTOR).fields
    assert fields["start"].field_name == "datetime" and fields["start"].path == ("start",)
    assert fields["start_jd"].field_name == "jd"
    fields = message_spec(pb.ComputeProgressedChartRequest.DESCRIPTOR).fields
    assert {"target_datetime", "target_jd"} <= set(fields)


def test_a_shared_field_is_one_parameter_held_by_every_value():
    tz = message_spec(search_pb.FindTransitsRequest.DESCRIPTOR).fields["tz"]
    assert set(tz.paths) == {("start",), ("end",), ("moment",)}


def test_a_required_value_makes_its_one_of_and_its_fields_without_a_default_required():
    spec = message_spec(pb.ComputeNatalChartRequest.DESCRIPTOR)
    assert ("datetime", "jd") in spec.required_oneofs.values()
    assert spec.fields["lat"].rule.required and spec.fields["lon"].rule.required
    assert not spec.fields["alt"].rule.required  # it has a default


def test_a_value_required_with_a_flag_makes_its_fields_required_with_it():
    fields = message_spec(pb.ComputePositionsRequest.DESCRIPTOR).fields
    assert fields["lat"].rule.required_with == "topocentric"
    assert not fields["lat"].rule.required


def test_a_field_standing_in_for_a_value_is_named_as_the_alternative_of_its_fields():
    fields = message_spec(pb.ComputeSynastryRequest.DESCRIPTOR).fields
    assert (fields["lat_a"].alternative_name, fields["lon_b"].alternative_name) == ("place_a", "place_b")
    assert fields["lat_a"].alternative == ("births", "birth_a", "place")


def test_a_field_is_read_from_the_message_that_holds_it():
    request = pb.ComputeNatalChartRequest(birth=Birth(location=Place(lat=12.5)))
    field = message_spec(pb.ComputeNatalChartRequest.DESCRIPTOR).fields["lat"]
    assert getattr(field.owner(request), field.field_name) == 12.5


def test_a_bool_parameter_is_read_whether_the_request_or_a_flattened_value_holds_it():
    assert bool_parameter(pb.ComputePositionsRequest(topocentric=True), "topocentric")
    request = pb.ComputeNatalChartRequest()
    request.chart.options.heliocentric = True
    assert bool_parameter(request, "heliocentric")
    assert not bool_parameter(request, "topocentric")
    assert not bool_parameter(request, "system")  # not a bool
    assert not bool_parameter(request, "no_such_parameter")
