"""shared/runtime/stored_chart_parameters.py: what a stored chart gives a request naming it,
as texts the request takes (the gateway's chart= and the webhook worker's forecast)."""

from __future__ import annotations

from celestial.v1 import ephemeris_service_pb2, search_service_pb2
from shared.runtime.stored_chart_parameters import stand_in, stored_chart_names

NATAL = ephemeris_service_pb2.ComputeNatalChartRequest
SYNASTRY = ephemeris_service_pb2.ComputeSynastryRequest
FORECAST = search_service_pb2.FindForecastRequest
PARAMETERS = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}


def test_the_requests_that_take_a_birth_name_their_chart_parameters():
    assert stored_chart_names(NATAL) == ("chart",)
    assert stored_chart_names(SYNASTRY) == ("chart_a", "chart_b")
    assert stored_chart_names(ephemeris_service_pb2.ComputePositionsRequest) == ()


def test_the_local_datetime_and_its_zone_travel_as_stored_for_the_service_to_resolve():
    assert stand_in(PARAMETERS, {}, FORECAST) == PARAMETERS


def test_a_stored_setting_is_a_default_the_request_takes_only_when_it_did_not_send_its_own():
    settings = {"system": "koch"}
    assert stand_in(PARAMETERS, settings, NATAL)["system"] == "koch"
    assert "system" not in stand_in(PARAMETERS, settings, NATAL, given={"system"})


def test_a_stored_setting_the_request_does_not_take_is_left_out():
    assert "no_such_setting" not in stand_in(PARAMETERS, {"no_such_setting": "1"}, FORECAST)


def test_the_second_chart_of_a_pair_gives_its_parameters_suffixed_and_no_settings():
    given = stand_in(PARAMETERS, {"system": "koch"}, SYNASTRY, "chart_b")
    assert given == {f"{key}_b": value for key, value in PARAMETERS.items()}
