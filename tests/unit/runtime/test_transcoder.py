"""Flattened message fields ((field).flatten): parameters under their own names, held in the nested message."""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from shared.errors import ConflictingParameters, InvalidParameter, MissingParameter
from shared.runtime.request_model import message_spec
from shared.runtime.transcoder import request_from_json, request_from_query
from shared.runtime.validation import validate

NATAL = "/v1/natal-chart"
CHART_OPTIONS = {"system", "aspects", "orb", "applying", "parallel_orb", "lots", "sidereal", "heliocentric"}


def test_the_spec_lists_flattened_fields_by_their_own_names_with_their_path():
    fields = message_spec(pb.ComputeNatalChartRequest.DESCRIPTOR).fields
    assert CHART_OPTIONS <= set(fields)
    assert not {"chart", "options", "aspect_selection"} & set(fields)
    assert fields["house_position_mode"].path == ("chart",)
    assert fields["system"].path == ("chart", "options")
    assert fields["aspects"].path == ("chart", "options", "aspect_selection")
    assert fields["lat"].path == ("birth", "location")


def test_a_query_string_sets_the_nested_field():
    message = request_from_query(
        pb.ComputeNatalChartRequest, [("jd", "2451545"), ("system", "koch"), ("aspects", "trine,square")], NATAL
    )
    assert message.chart.options.system == "koch"
    assert list(message.chart.options.aspect_selection.aspects) == ["trine", "square"]


def test_a_json_body_sets_the_nested_field():
    body = {"jd": 2451545.0, "orb": 4, "heliocentric": True, "aspects": ["trine"]}
    message = request_from_json(pb.ComputeNatalChartRequest, body, NATAL)
    assert message.chart.options.aspect_selection.orb == 4.0
    assert message.chart.options.heliocentric is True
    assert list(message.chart.options.aspect_selection.aspects) == ["trine"]


@pytest.mark.parametrize(
    "name", ["chart", "options", "aspect_selection", "options.system", "chart.options.system", "sytem"]
)
def test_an_unknown_parameter_is_still_refused(name):
    with pytest.raises(InvalidParameter) as caught:
        request_from_query(pb.ComputeNatalChartRequest, [("jd", "2451545"), (name, "koch")], NATAL)
    assert caught.value.param == name


def test_defaults_of_flattened_fields_are_filled():
    message = validate(
        pb.ComputeNatalChartRequest(birth=Birth(moment=Moment(jd=2451545.0), location=Place(lat=10, lon=20)))
    )
    assert message.chart.options.system == "placidus"
    assert list(message.chart.options.aspect_selection.aspects)[:2] == ["conjunction", "opposition"]
    assert message.chart.options.parallel_orb == 1.0
    assert message.chart.options.applying is True
    assert not message.chart.options.aspect_selection.HasField("orb")


def test_a_range_error_on_a_flattened_field_names_the_flat_parameter():
    message = request_from_query(
        pb.ComputeNatalChartRequest, [("jd", "2451545"), ("lat", "1"), ("lon", "2"), ("orb", "45")], NATAL
    )
    with pytest.raises(InvalidParameter) as caught:
        validate(message)
    assert caught.value.param == "orb"


def test_a_vocabulary_error_on_a_flattened_field_names_the_flat_parameter():
    message = pb.ComputeNatalChartRequest(birth=Birth(moment=Moment(jd=2451545.0), location=Place(lat=1, lon=2)))
    message.chart.options.system = "no-such-system"
    with pytest.raises(InvalidParameter) as caught:
        validate(message)
    assert caught.value.param == "system"


def test_the_rules_of_the_request_itself_still_apply_beside_flattened_ones():
    with pytest.raises(MissingParameter) as caught:
        validate(pb.ComputeNatalChartRequest(birth=Birth(moment=Moment(jd=2451545.0), location=Place(lon=2))))
    assert caught.value.param == "lat"


def test_the_openapi_document_names_flattened_parameters_as_its_own():
    paths = build_openapi(discover_endpoints(), version="x")["paths"]
    for path in (NATAL, "/v1/synastry"):
        names = {parameter["name"] for parameter in paths[path]["get"]["parameters"]}
        assert CHART_OPTIONS <= names
        # "chart" is a stored chart's id (/v1/charts), never the flattened ChartRequestOptions.
        assert not names & {"options", "aspect_selection"}
        assert all(
            p["schema"]["pattern"].startswith("^chart_")
            for p in paths[path]["get"]["parameters"]
            if p["name"].startswith("chart")
        )
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
        assert CHART_OPTIONS <= set(body)
    orb = next(p for p in paths[NATAL]["get"]["parameters"] if p["name"] == "orb")
    assert orb["schema"]["exclusiveMinimum"] == 0 and orb["schema"]["maximum"] == 30


#: A moment's zone and fold: one parameter for every moment of a request (tz), one per birth
#: of a two-person request (tz_a, tz_b).
ZONE = {"tz": "tz", "fold": "fold"}


@pytest.mark.parametrize(
    "message, value, names",
    [
        (
            pb.ComputeSynastryRequest,
            ("births", "birth_a", "moment"),
            {"datetime": "datetime_a", "jd": "jd_a", "tz": "tz_a", "fold": "fold_a"},
        ),
        (
            pb.ComputeSynastryRequest,
            ("births", "birth_b", "location"),
            {"lat": "lat_b", "lon": "lon_b", "alt": "alt_b"},
        ),
        (pb.ComputeNatalChartRequest, ("birth", "moment"), {"datetime": "datetime", "jd": "jd", **ZONE}),
        (search_pb.FindTransitsRequest, ("start",), {"datetime": "start", "jd": "start_jd", **ZONE}),
        (search_pb.FindTransitsRequest, ("end",), {"datetime": "end", "jd": "end_jd", **ZONE}),
        (
            search_pb.FindReturnsRequest,
            ("search_start",),
            {"datetime": "search_start", "jd": "search_start_jd", **ZONE},
        ),
        (pb.ComputeProgressedChartRequest, ("target",), {"datetime": "target_datetime", "jd": "target_jd", **ZONE}),
    ],
)
def test_flatten_names_give_a_value_the_parameter_names_of_the_interface(message, value, names):
    fields = message_spec(message.DESCRIPTOR).fields
    assert {f.field_name: name for name, f in fields.items() if value in f.paths} == names


def test_a_shared_field_is_one_parameter_written_into_every_value_that_holds_it():
    from shared.runtime.transcoder import request_from_query

    request = request_from_query(search_pb.FindTransitsRequest, [("tz", "Europe/Paris"), ("fold", "1")], "/v1/transits")
    assert [(m.tz, m.fold) for m in (request.moment, request.start, request.end)] == [("Europe/Paris", 1)] * 3
    assert not any(m.WhichOneof("value") for m in (request.moment, request.start, request.end))


def test_a_required_value_requires_one_of_its_one_of_under_the_interfaces_names():
    with pytest.raises(MissingParameter) as caught:
        validate(search_pb.FindTransitsRequest(start=Moment(jd=2451545.0)))
    assert caught.value.param == "end"
    assert "end or end_jd" in str(caught.value)


def test_two_members_of_one_value_are_conflicting_parameters():
    with pytest.raises(ConflictingParameters) as caught:
        request_from_query(
            search_pb.FindTransitsRequest, [("start", "2024-01-01"), ("start_jd", "2451545")], "/v1/transits"
        )
    assert caught.value.code == "conflicting_parameters"
    assert caught.value.param == "start_jd"


def test_members_of_two_values_do_not_conflict():
    message = request_from_query(
        search_pb.FindTransitsRequest, [("start", "2024-01-01"), ("end_jd", "2460676.5")], "/v1/transits"
    )
    assert message.start.datetime == "2024-01-01" and message.end.jd == 2460676.5


def test_a_value_a_rule_reads_is_parsed_once_by_the_gateways_validation(monkeypatch):
    from kernel import timescale

    parsed: list[str] = []
    original = timescale.Moment.from_iso.__func__

    def counting(cls, text):
        parsed.append(text)
        return original(cls, text)

    monkeypatch.setattr(timescale.Moment, "from_iso", classmethod(counting))
    params = [("start", "2024-01-01"), ("end", "2024-02-01"), ("datetime", "1990-06-15T14:30:00Z")]
    validate(request_from_query(search_pb.FindTransitsRequest, params, "/v1/transits"))
    assert sorted(parsed) == sorted(text for _, text in params)  # each once: start and end by the range rule
