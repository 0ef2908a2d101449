"""gateway/stored_charts.py: a stored chart read from its body, its place read once into the
parameters requests receive, and chart=<id> put in place of a birth as each request takes it."""

from __future__ import annotations

import asyncio
import re

import pytest

from celestial.v1 import (
    account_service_pb2,
    astrocartography_service_pb2,
    ephemeris_service_pb2,
    options_pb2,
    search_service_pb2,
)
from gateway.endpoints import account_operations, discover_endpoints
from gateway.reference.openapi import build_openapi, proto_comments
from gateway.stored_charts import (
    BIRTH_PARAMETERS,
    CHART_PATH,
    CHARTS_PATH,
    DEFAULT_PAGE,
    NATAL_CHART,
    RELOCATION_PARAMETERS,
    expand_body,
    expand_query,
    read_chart_body,
    resolve,
)
from kernel import civil_time, places
from shared.errors import ChartNotFound, ConflictingParameters, InvalidBody, InvalidParameter, MissingParameter
from shared.runtime.config import load_settings
from shared.runtime.request_model import message_spec
from store.chart_records import (
    DEFAULT_CHARTS_PER_ACCOUNT,
    MAX_NAME_CHARS,
    MAX_PAGE,
    StoredChart,
    is_chart_id,
    new_chart_id,
)

NATAL = ephemeris_service_pb2.ComputeNatalChartRequest
SYNASTRY = ephemeris_service_pb2.ComputeSynastryRequest
RETURNS = search_service_pb2.FindReturnsRequest
MAP = astrocartography_service_pb2.ComputeAstrocartographyRequest


@pytest.fixture(scope="module", autouse=True)
def _gazetteer_and_zones():
    settings = load_settings()
    places.use_gazetteer(settings.places_path)
    civil_time.use_zone_files(settings.tz_path)


class OneChartStore:
    """A store holding one account's charts, as StoredCharts.get_chart reads them."""

    def __init__(self, *charts: StoredChart):
        self.charts = {(c.account_id, c.chart_id): c for c in charts}

    async def get_chart(self, account_id: str, chart_id: str) -> StoredChart | None:
        return self.charts.get((account_id, chart_id))


def a_chart(birth: dict[str, str], settings: dict[str, str] | None = None) -> StoredChart:
    settings = settings or {}
    return StoredChart(new_chart_id(), "acct", "Ada", birth, settings, resolve(birth, settings))


def test_a_body_splits_into_name_birth_and_settings_as_text():
    name, birth, settings = read_chart_body(
        {
            "name": "Ada",
            "jd": 2446260.0,
            "lat": 45,
            "lon": 4.85,
            "system": "whole_sign",
            "parallels": True,
            "bodies": ["sun", "moon"],
        }
    )
    assert name == "Ada"
    assert birth == {"jd": "2446260.0", "lat": "45", "lon": "4.85"}
    assert settings == {"system": "whole_sign", "parallels": "true", "bodies": "sun,moon"}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ([1], InvalidBody),
        ({"name": 3}, InvalidParameter),
        ({"colour": "red"}, InvalidParameter),
        ({"lat": {"x": 1}}, InvalidParameter),
    ],
)
def test_a_body_of_another_shape_is_refused(body, error):
    with pytest.raises(error):
        read_chart_body(body)


def test_a_place_is_read_once_into_coordinates_and_the_zone_of_a_local_datetime():
    resolved = resolve({"datetime": "1985-07-13T14:05:00", "place": "2996944"}, {})
    assert resolved["tz"] == "Europe/Paris" and resolved["datetime"] == "1985-07-13T14:05:00"
    assert abs(float(resolved["lat"]) - 45.75) < 0.05 and abs(float(resolved["lon"]) - 4.85) < 0.05
    assert "place" not in resolved


def test_a_datetime_with_an_offset_needs_no_zone():
    assert "tz" not in resolve({"datetime": "1985-07-13T12:05:00Z", "place": "2996944"}, {})


def test_a_birth_missing_its_place_is_refused_as_the_natal_chart_refuses_it():
    with pytest.raises(MissingParameter):
        resolve({"datetime": "1985-07-13T12:05:00Z"}, {})


def test_chart_stands_in_for_the_birth_and_its_settings_fill_what_the_request_did_not_send():
    chart = a_chart({"datetime": "1985-07-13T14:05:00", "place": "2996944"}, {"system": "whole_sign", "bodies": "all"})
    store = OneChartStore(chart)
    items = asyncio.run(expand_query([("chart", chart.chart_id), ("bodies", "sun")], NATAL, "acct", store))
    named = dict(items)
    assert named["tz"] == "Europe/Paris" and named["system"] == "whole_sign" and named["bodies"] == "sun"
    assert "chart" not in named and "place" not in named


def test_chart_a_and_chart_b_take_their_suffix_and_no_settings():
    one = a_chart({"jd": "2446260.0", "lat": "45", "lon": "4"}, {"system": "koch"})
    two = a_chart({"jd": "2447260.0", "lat": "50", "lon": "5"})
    body = asyncio.run(
        expand_body({"chart_a": one.chart_id, "chart_b": two.chart_id}, SYNASTRY, "acct", OneChartStore(one, two))
    )
    assert body == {
        "jd_a": "2446260.0",
        "lat_a": "45.0",
        "lon_a": "4.0",
        "jd_b": "2447260.0",
        "lat_b": "50.0",
        "lon_b": "5.0",
    }


def test_only_the_parameters_the_request_takes_are_put_in():
    chart = a_chart({"datetime": "1985-07-13T14:05:00", "place": "2996944"})
    named = dict(asyncio.run(expand_query([("chart", chart.chart_id)], MAP, "acct", OneChartStore(chart))))
    assert set(named) == {"datetime", "tz"}  # the map takes no place of its own
    assert {"lat", "lon", "tz", "datetime"} <= set(
        dict(asyncio.run(expand_query([("chart", chart.chart_id)], RETURNS, "acct", OneChartStore(chart))))
    )


def test_a_chart_beside_a_birth_parameter_it_stands_for_conflicts():
    chart = a_chart({"jd": "2446260.0", "lat": "45", "lon": "4"})
    with pytest.raises(ConflictingParameters):
        asyncio.run(expand_query([("chart", chart.chart_id), ("lat", "1")], NATAL, "acct", OneChartStore(chart)))


def test_a_chart_of_another_account_or_of_no_shape_is_not_found():
    chart = a_chart({"jd": "2446260.0", "lat": "45", "lon": "4"})
    for account, chart_id in (("other", chart.chart_id), ("acct", "nonsense")):
        with pytest.raises(ChartNotFound):
            asyncio.run(expand_query([("chart", chart_id)], NATAL, account, OneChartStore(chart)))


def test_a_request_naming_no_chart_is_left_as_it_came():
    items = [("jd", "2446260.0"), ("lat", "45"), ("lon", "4")]
    assert asyncio.run(expand_query(items, NATAL, "acct", OneChartStore())) is items


# --- the stored charts' rules, as account_service.proto declares them ------------------------------


def _rule(message, name: str):
    return message.DESCRIPTOR.fields_by_name[name].GetOptions().Extensions[options_pb2.field]


def _declared(rpc: str):
    return next(e for e in account_operations() if e.method.name == rpc)


def test_the_stored_charts_paths_are_those_their_rpcs_declare():
    assert {_declared("ListStoredCharts").path, _declared("CreateStoredChart").path} == {CHARTS_PATH}
    assert {_declared(rpc).path for rpc in ("GetStoredChart", "UpdateStoredChart", "DeleteStoredChart")} == {CHART_PATH}


def test_a_listings_page_bounds_are_the_stores_and_its_default_within_them():
    limit = _rule(account_service_pb2.ListStoredChartsRequest, "limit")
    assert (limit.min, limit.max) == (1, MAX_PAGE) and 1 <= DEFAULT_PAGE <= MAX_PAGE


def test_a_charts_name_is_as_long_as_the_proto_says_in_a_creation_and_a_change():
    for message in (account_service_pb2.CreateStoredChartRequest, account_service_pb2.UpdateStoredChartRequest):
        assert _rule(message, "name").max_length == MAX_NAME_CHARS
    read_chart_body({"name": "x" * MAX_NAME_CHARS})
    with pytest.raises(InvalidParameter):
        read_chart_body({"name": "x" * (MAX_NAME_CHARS + 1)})


def test_a_charts_body_takes_the_parameters_of_the_request_the_proto_names():
    for message in (account_service_pb2.CreateStoredChartRequest, account_service_pb2.UpdateStoredChartRequest):
        members_of = message.DESCRIPTOR.GetOptions().Extensions[options_pb2.message].members_of
        assert members_of == NATAL_CHART.DESCRIPTOR.full_name


def test_the_chart_id_pattern_of_the_proto_takes_the_ids_the_store_takes_and_no_other():
    pattern = _rule(account_service_pb2.GetStoredChartRequest, "chart_id").pattern
    for text in (new_chart_id(), new_chart_id(), "chart_0123456789abc0123456", "chart_0123456789abc012345678", "wh_x"):
        assert (re.fullmatch(pattern, text) is not None) is is_chart_id(text), text


def test_the_charts_descriptions_say_the_page_and_the_limit_the_gateway_applies():
    comments = {name: " ".join(text.split()) for name, text in proto_comments().items()}
    listing = comments["celestial.v1.AccountService.ListStoredCharts"]
    creation = comments["celestial.v1.AccountService.CreateStoredChart"]
    assert f"{DEFAULT_PAGE} a page by default" in listing
    assert f"up to {DEFAULT_CHARTS_PER_ACCOUNT} charts" in creation


DOCUMENT = build_openapi(discover_endpoints(), version="test")
STORED_BIRTH = account_service_pb2.StoredChartBirth.DESCRIPTOR
STORED_SETTINGS = account_service_pb2.StoredChartSettings.DESCRIPTOR
#: What a value's schema says of it, besides its type: its range and its choices.
VALUE_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum")


def natal_parameters() -> dict[str, dict]:
    """Return /v1/natal-chart's body parameters' schemas in the OpenAPI document, by name."""
    body = DOCUMENT["paths"]["/v1/natal-chart"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return body["properties"]


def stored_parameters() -> dict[str, dict]:
    """Return a stored chart's birth and settings members' schemas in the OpenAPI document, by name."""
    schemas = DOCUMENT["components"]["schemas"]
    return {**schemas["StoredChartBirth"]["properties"], **schemas["StoredChartSettings"]["properties"]}


def test_a_stored_charts_birth_and_settings_are_the_natal_charts_parameters_by_name():
    natal = message_spec(ephemeris_service_pb2.ComputeNatalChartRequest.DESCRIPTOR).fields
    assert tuple(STORED_BIRTH.fields_by_name) == BIRTH_PARAMETERS
    # A relocation is the request's, never the stored chart's (docs/chart-options.md, Relocation).
    assert set(STORED_SETTINGS.fields_by_name) == set(natal) - set(BIRTH_PARAMETERS) - set(RELOCATION_PARAMETERS)
    # Each member is there only when it was sent.
    fields = [*STORED_BIRTH.fields, *STORED_SETTINGS.fields]
    assert all(field.has_presence and not field.is_repeated for field in fields)


def test_a_stored_parameter_has_the_natal_charts_type_a_list_or_a_name_or_id_as_its_text():
    natal = natal_parameters()
    for name, stored in stored_parameters().items():
        # A list (an array or its comma-separated text) and a name or an id are stored as text.
        expected = natal[name].get("type", "string")
        assert stored["type"] == expected, name


def test_a_stored_parameter_has_the_natal_charts_range_and_choices():
    natal = natal_parameters()
    for name, stored in stored_parameters().items():
        value = natal[name] if "type" in natal[name] else {}
        assert {key: stored.get(key) for key in VALUE_KEYWORDS} == {key: value.get(key) for key in VALUE_KEYWORDS}, name


def test_a_stored_choice_is_kept_in_its_canonical_spelling():
    _, _, settings = read_chart_body({"name": "Ada", "rulership": "Modern", "stellium_scope": "HOUSE"})
    assert settings == {"rulership": "modern", "stellium_scope": "house"}
