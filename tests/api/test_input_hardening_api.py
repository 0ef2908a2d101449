"""What a hostile client may send and how it is refused (issue 10): integer widths, the number
and date grammars, ayanamsha ids that read as booleans, repeated JSON members, the time span."""

from __future__ import annotations

import json

import pytest

from tests.api.test_conventions_api import assert_error

J2000 = 2451545.0
POSITIONS = "/v1/positions"
LONDON = {"lat": 51.5, "lon": -0.13}


# --- Integers the protobuf field cannot hold ------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "params", "param", "range_text"),
    [
        (
            "GET",
            "/v1/patterns",
            {"jd": J2000, "stellium_min": "-2603455986", "stellium_scope": "sign"},
            "stellium_min",
            "[2, 10]",
        ),
        (
            "POST",
            "/v1/natal-chart",
            {"jd": J2000, "stellium_min": 1125899906842623, "lat": 0, "lon": 0},
            "stellium_min",
            "[2, 10]",
        ),
        (
            "POST",
            "/v1/ingresses",
            {"jd": J2000, "body": "sun", "sign": "aries", "count": -72057594037927935},
            "count",
            "[1, 10]",
        ),
        (
            "POST",
            "/v1/ingresses",
            {"jd": J2000, "body": "sun", "sign": "aries", "count": 18446744073709551616},
            "count",
            "[1, 10]",
        ),
        ("POST", "/v1/ingresses", {"jd": J2000, "body": "sun", "sign": "aries", "count": 1e300}, "count", "[1, 10]"),
        ("GET", "/v1/ingresses", {"jd": J2000, "body": "sun", "sign": "aries", "count": "1e20"}, "count", "[1, 10]"),
    ],
    ids=[
        "query-int32-low",
        "body-int32-high",
        "body-int64",
        "body-beyond-uint64",
        "body-float-1e300",
        "query-exponent",
    ],
)
def test_integer_outside_its_field_range_is_invalid_parameter_naming_it_and_the_range(
    api, method, path, params, param, range_text
):
    response = api.get(path, params=params) if method == "GET" else api.post(path, json=params)
    error = assert_error(response, 400, "invalid_parameter", param)
    assert range_text in error["message"]


def test_integer_outside_its_field_range_in_a_batch_sub_request_fails_only_that_sub_request(api):
    body = {
        "requests": [
            {"endpoint": "/v1/natal-chart", "params": {"jd": J2000, "stellium_min": -2603455986, "lat": 0, "lon": 0}},
            {"endpoint": POSITIONS, "params": {"jd": J2000, "bodies": "sun"}},
        ]
    }
    response = api.post("/v1/batch", json=body)
    assert response.status_code == 200, response.text
    failed, succeeded = response.json()["data"]["results"]
    assert failed["status"] == 400
    assert failed["errors"][0]["code"] == "invalid_parameter"
    assert failed["errors"][0]["param"] == "stellium_min"
    assert succeeded["status"] == 200


# --- Ayanamsha ids that read as booleans ------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "1", "true", "false"])
def test_sidereal_that_reads_as_a_boolean_is_refused_suggesting_the_ayanamsha_name(api, value):
    error = assert_error(
        api.get(POSITIONS, params={"jd": J2000, "sidereal": value}), 400, "invalid_parameter", "sidereal"
    )
    assert "fagan_bradley" in error["suggestion"] and "lahiri" in error["suggestion"]


@pytest.mark.parametrize("value", [0, 1])
def test_sidereal_as_a_json_number_0_or_1_is_refused(api, value):
    assert_error(api.post(POSITIONS, json={"jd": J2000, "sidereal": value}), 400, "invalid_parameter", "sidereal")


def test_sidereal_by_name_equals_sidereal_by_its_id_from_2(api):
    by_name = api.get(POSITIONS, params={"jd": J2000, "sidereal": "deluce"})
    by_id = api.get(POSITIONS, params={"jd": J2000, "sidereal": "2"})
    assert by_name.status_code == 200 and by_name.json()["data"] == by_id.json()["data"]


def test_openapi_says_that_sidereal_ids_0_and_1_are_refused(stack):
    with stack.client() as client:
        document = client.get("/v1/openapi.json").json()
    parameters = {p["name"]: p for p in document["paths"][POSITIONS]["get"]["parameters"]}
    description = parameters["sidereal"]["schema"]["description"]
    assert "0 and 1" in description and "fagan_bradley" in description and "lahiri" in description


# --- Numbers as JSON writes them, dates with ASCII digits -----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "2_451_545",
        "２４５１５４５",
        "+2451545",
        " 2451545",
        "2451545 ",
        "0x10",
        "inf",
        "-Infinity",
        "nan",
        "1e400",
        "2451545.",
        ".5",
        "02451545",
        "2451545,0",
        "1E5_0",
        "٢٤٥١٥٤٥",
    ],
)
def test_query_number_outside_the_json_number_grammar_is_invalid_parameter(api, text):
    assert_error(api.get(POSITIONS, params={"jd": text}), 400, "invalid_parameter", "jd")


@pytest.mark.parametrize("text", ["2451545", "2451545.0", "2.451545e6", "2.451545E+6", "245154500e-2"])
def test_query_number_in_the_json_number_grammar_is_accepted(api, text):
    response = api.get(POSITIONS, params={"jd": text, "bodies": "sun"})
    assert response.status_code == 200, response.text
    assert response.json()["data"][0]["longitude"] == pytest.approx(280.3689, abs=1e-3)


@pytest.mark.parametrize("text", ["1.5", "3.0e0x", "+3", "３", " 3"])
def test_query_integer_that_is_not_a_whole_json_number_is_invalid_parameter(api, text):
    params = {"jd": J2000, "stellium_min": text}
    assert_error(api.get("/v1/patterns", params=params), 400, "invalid_parameter", "stellium_min")


@pytest.mark.parametrize("text", ["True", "yes", "on", " true", "true ", "2", "1.0", "t"])
def test_query_boolean_other_than_true_false_1_0_is_invalid_parameter(api, text):
    if text == "True":
        assert api.get(POSITIONS, params={"jd": J2000, "speed": text}).status_code == 200  # any case is allowed
        return
    assert_error(api.get(POSITIONS, params={"jd": J2000, "speed": text}), 400, "invalid_parameter", "speed")


@pytest.mark.parametrize(
    "text",
    [
        "２０２４-03-20T12:00:00Z",
        "2024-０3-20T12:00:00Z",
        "2024-03-20T１2:00:00Z",
        " 2024-03-20T12:00:00Z",
        "2024-03-20T12:00:00Z\n",
    ],
)
def test_datetime_with_other_than_ascii_digits_or_with_whitespace_is_invalid_datetime(api, text):
    assert_error(api.get(POSITIONS, params={"datetime": text}), 400, "invalid_datetime", "datetime")


def test_body_string_for_a_number_is_read_with_the_query_string_grammar(api):
    # decisions.md: "In a body, values may be native JSON ... or the query-string form".
    native = api.post("/v1/houses", json={"jd": J2000, **LONDON})
    as_text = api.post("/v1/houses", json={"jd": str(J2000), "lat": "51.5", "lon": "-0.13"})
    assert as_text.status_code == 200 and as_text.json()["data"] == native.json()["data"]
    for bad in ("1_2", "１２", "+12", "12 ", "0x10", "NaN", "1e400"):
        assert_error(api.post("/v1/houses", json={"jd": J2000, "lat": bad, "lon": 0}), 400, "invalid_parameter", "lat")


@pytest.mark.parametrize("value", [True, [1], {"v": 1}])
def test_body_value_of_the_wrong_json_type_for_a_number_is_invalid_parameter(api, value):
    assert_error(api.post(POSITIONS, json={"jd": value}), 400, "invalid_parameter", "jd")


def _string_parameters():
    """Yield (path, parameter, repeated) for every string parameter of every endpoint (a name
    or an id excepted: the document gives it as a string or an integer, test_name_or_id_api.py)."""
    from google.protobuf.descriptor import FieldDescriptor

    from gateway.endpoints import discover_endpoints
    from shared.runtime.name_or_id import taken_ids
    from shared.runtime.request_model import message_spec

    for endpoint in discover_endpoints():
        for name, field in message_spec(endpoint.request_cls.DESCRIPTOR).fields.items():
            if field.descriptor.type == FieldDescriptor.TYPE_STRING and not taken_ids(field.rule):
                yield endpoint.path, name, field.repeated


def test_body_number_where_the_schema_says_string_is_invalid_parameter_on_every_endpoint(stack):
    # Issue 36: POST /v1/places {"q": 3.4e16} searched for the town "3.4e+16". The OpenAPI
    # document says string; a JSON number there is the wrong type, as a string is for a number.
    parameters = list(_string_parameters())
    assert len(parameters) > 50
    with stack.client(stack.new_key(rate_per_minute=10_000)[1]) as client:
        for path, param, repeated in parameters:
            value = [3.4e16] if repeated else 3.4e16
            error = assert_error(client.post(path, json={param: value}), 400, "invalid_parameter", param)
            assert "wrong JSON type (number)" in error["message"] and "string" in error["suggestion"], (path, param)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"q": 5}, "q"),
        ({"q": True}, "q"),
        ({"q": ["paris"]}, "q"),
        ({"q": {"name": "paris"}}, "q"),
    ],
)
def test_body_value_of_the_wrong_json_type_for_a_string_is_invalid_parameter(api, body, param):
    assert_error(api.post("/v1/places", json=body), 400, "invalid_parameter", param)


def test_body_list_item_of_the_wrong_json_type_is_invalid_parameter(api):
    assert_error(api.post(POSITIONS, json={"jd": J2000, "bodies": ["sun", 5]}), 400, "invalid_parameter", "bodies")
    assert_error(api.post(POSITIONS, json={"jd": J2000, "bodies": [True]}), 400, "invalid_parameter", "bodies")
    target = {"jd": J2000, "targets": [{"body": 5, "angles": ["mc"]}]}
    assert_error(api.post("/v1/astrocartography", json=target), 400, "invalid_parameter", "targets[0].body")
    target = {"jd": J2000, "targets": [{"body": "sun", "cusps": [True]}]}
    assert_error(api.post("/v1/astrocartography", json=target), 400, "invalid_parameter", "targets[0].cusps")


def test_body_number_where_the_schema_says_string_is_invalid_parameter_in_a_batch_sub_request(api):
    body = {
        "requests": [
            {"endpoint": "/v1/places", "params": {"q": 3.4e16}},
            {"endpoint": "/v1/places", "params": {"q": "paris"}},
        ]
    }
    failed, succeeded = api.post("/v1/batch", json=body).json()["data"]["results"]
    assert failed["status"] == 400 and (failed["errors"][0]["code"], failed["errors"][0]["param"]) == (
        "invalid_parameter",
        "q",
    )
    assert succeeded["status"] == 200


def test_body_number_beyond_a_double_is_invalid_body(api):
    # orjson, like RFC 8259's interoperability note, refuses what a double cannot hold.
    response = api.post(POSITIONS, content=b'{"jd": 1e400}', headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_body")


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity"])
def test_body_with_a_non_json_number_literal_is_invalid_body(api, text):
    response = api.post(POSITIONS, content=f'{{"jd": {text}}}'.encode(), headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_body")


# --- A JSON object naming a member twice -----------------------------------------------------


def post_text(api, path: str, text: str):
    return api.post(path, content=text.encode(), headers={"Content-Type": "application/json"})


def test_json_body_member_given_twice_is_invalid_parameter_naming_it(api):
    response = post_text(api, POSITIONS, '{"datetime": "2024-03-20T12:00:00Z", "datetime": "2025-03-20T12:00:00Z"}')
    assert_error(response, 400, "invalid_parameter", "datetime")


def test_json_member_given_twice_at_any_depth_is_named_by_its_path(api):
    text = '{"jd": 2451545, "targets": [{"body": "sun", "angles": ["mc"], "body": "moon"}]}'
    assert_error(post_text(api, "/v1/astrocartography", text), 400, "invalid_parameter", "targets[0].body")


def test_json_text_in_a_query_parameter_with_a_member_given_twice_is_invalid_parameter(api):
    targets = '[{"body": "sun", "body": "moon", "angles": ["mc"]}]'
    response = api.get("/v1/astrocartography", params={"jd": J2000, "targets": targets})
    assert_error(response, 400, "invalid_parameter", "targets[0].body")


def test_batch_member_given_twice_in_a_sub_request_is_invalid_parameter_naming_its_path(api):
    text = (
        '{"requests": [{"endpoint": "/v1/positions", "params": '
        '{"datetime": "2024-03-20T12:00:00Z", "datetime": "2025-03-20T12:00:00Z"}}]}'
    )
    assert_error(post_text(api, "/v1/batch", text), 400, "invalid_parameter", "requests[0].params.datetime")


def test_batch_member_given_twice_at_the_top_is_invalid_parameter(api):
    one = '{"endpoint": "/v1/positions", "params": {"jd": 2451545}}'
    assert_error(
        post_text(api, "/v1/batch", f'{{"requests": [{one}], "requests": [{one}]}}'),
        400,
        "invalid_parameter",
        "requests",
    )


def test_json_string_holding_a_quote_and_colon_is_not_a_repeated_member(api):
    # The cheap pre-check counts '"' ':' pairs; an escaped quote in a string must not be
    # mistaken for a repeat.
    body = json.dumps({"jd": J2000, "bodies": 'sun", "x": 1'})
    response = post_text(api, POSITIONS, body)
    assert_error(response, 400, "body_not_found", "bodies")


def test_distinct_members_with_the_same_name_in_different_objects_are_accepted(api):
    text = '{"jd": 2451545, "targets": [{"body": "sun", "angles": ["mc"]}, {"body": "moon", "angles": ["mc"]}]}'
    assert post_text(api, "/v1/astrocartography", text).status_code == 200


# --- The supported time span -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"jd": "625000.4"}, "jd"),
        ({"jd": "2816787.6"}, "jd"),
        ({"datetime": "-3001-02-02T23:59:59Z"}, "datetime"),
        ({"datetime": "3000-01-01T00:00:01Z"}, "datetime"),
    ],
)
def test_moment_outside_the_span_names_its_real_first_and_last_dates(api, params, param):
    error = assert_error(api.get(POSITIONS, params={**params, "bodies": "sun"}), 400, "invalid_parameter", param)
    assert "-3001-02-03T00:00:00Z" in error["message"] and "3000-01-01T00:00:00Z" in error["message"]
    assert "3002 BCE" in error["message"]


@pytest.mark.parametrize("moment", ["-3001-02-03T00:00:00Z", "3000-01-01T00:00:00Z"])
def test_first_and_last_moment_of_the_span_are_accepted(api, moment):
    response = api.get(POSITIONS, params={"datetime": moment, "bodies": "sun"})
    assert response.status_code == 200, response.text


def test_openapi_states_the_real_time_span(stack):
    with stack.client() as client:
        document = client.get("/v1/openapi.json").json()
    assert "-3001-02-03T00:00:00Z (3002 BCE) to 3000-01-01T00:00:00Z" in document["info"]["description"]
    parameters = {p["name"]: p for p in document["paths"][POSITIONS]["get"]["parameters"]}
    assert "3000-01-01T00:00:00Z" in parameters["datetime"]["schema"]["description"]
