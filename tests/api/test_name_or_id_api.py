"""A parameter documented as "a name or an id" takes either (issue 49, part 2): the id as a JSON
integer in a body and a batch sub-request, as text in a query string (docs/conventions.md);
the ids 0 and 1 (and true and false), read as booleans, stay refused with the message their
text gets; any other number outside the ids, or not whole, is 400 naming the range."""

from __future__ import annotations

import re

import pytest

from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import proto_comments
from kernel.ayanamshas import NUMBERED_IDS
from shared.runtime.name_or_id import taken_ids
from shared.runtime.request_model import message_spec
from tests.api.test_conventions_api import assert_error

J2000 = 2451545.0
LONDON = {"lat": 51.5, "lon": -0.13}
#: One request of each kind of "name or id" parameter: a flag's sidereal, a Jyotish ayanamsha,
#: /v1/ayanamsha's system (which also takes all).
REQUESTS = [
    ("/v1/positions", {"jd": J2000, "bodies": "sun,moon"}, "sidereal"),
    ("/v1/vedic/chart", {"jd": J2000, **LONDON}, "ayanamsha"),
    ("/v1/ayanamsha", {"jd": J2000}, "system"),
]
RANGE = f"[{NUMBERED_IDS[0]}, {NUMBERED_IDS[1]}]"


def _name_or_id_parameters() -> dict[tuple[str, str], tuple[int, int] | None]:
    """Return, for every string parameter of every endpoint whose proto comment calls it a name
    or an id, or which takes ids, the ids it takes (None when it takes none)."""
    comments = proto_comments()
    found = {}
    for endpoint in discover_endpoints():
        for name, field in message_spec(endpoint.request_cls.DESCRIPTOR).fields.items():
            comment = comments.get(field.descriptor.full_name, "")
            if re.search(r"\bname or id\b|\bid \d+-\d+", comment) or taken_ids(field.rule):
                found[(endpoint.path, name)] = taken_ids(field.rule)
    return found


def test_every_parameter_documented_as_a_name_or_an_id_takes_the_id():
    parameters = _name_or_id_parameters()
    assert {param for _, param in parameters} == {"sidereal", "ayanamsha", "system"}
    assert len(parameters) > 20  # every sidereal flag, the Jyotish ayanamshas, /v1/ayanamsha
    assert {ids for ids in parameters.values()} == {NUMBERED_IDS}


@pytest.mark.parametrize(("path", "params", "param"), REQUESTS)
@pytest.mark.parametrize("given", [3, 3.0])
def test_an_id_as_a_json_number_answers_as_its_text_and_its_name(api, path, params, param, given):
    as_number = api.post(path, json={**params, param: given})
    assert as_number.status_code == 200, as_number.text
    as_text = api.post(path, json={**params, param: "3"}).json()
    by_name = api.get(path, params={**params, param: "raman"}).json()
    assert as_number.json()["data"] == as_text["data"] == by_name["data"]


@pytest.mark.parametrize(("path", "params", "param"), REQUESTS)
def test_an_id_as_a_json_number_in_a_batch_answers_as_its_text(api, path, params, param):
    batch = {"requests": [{"endpoint": path, "params": {**params, param: value}} for value in (3, "3")]}
    number, text = api.post("/v1/batch", json=batch).json()["data"]["results"]
    assert number["status"] == text["status"] == 200, number
    assert number["data"] == text["data"]


@pytest.mark.parametrize(("path", "params", "param"), REQUESTS)
@pytest.mark.parametrize(("number", "text"), [(0, "0"), (1, "1"), (True, "true"), (False, "false")])
def test_the_ids_that_read_as_booleans_are_refused_as_json_numbers_with_their_texts_message(
    api, path, params, param, number, text
):
    as_number = assert_error(api.post(path, json={**params, param: number}), 400, "invalid_parameter", param)
    as_text = assert_error(api.get(path, params={**params, param: text}), 400, "invalid_parameter", param)
    assert (as_number["message"], as_number["suggestion"]) == (as_text["message"], as_text["suggestion"])
    assert "reads as a boolean" in as_number["message"] and "lahiri" in as_number["suggestion"]


@pytest.mark.parametrize(("path", "params", "param"), REQUESTS)
@pytest.mark.parametrize("number", [NUMBERED_IDS[1] + 1, -3, 2.5, 1e300])
def test_a_json_number_outside_the_ids_or_not_whole_is_400_naming_the_range(api, path, params, param, number):
    error = assert_error(api.post(path, json={**params, param: number}), 400, "invalid_parameter", param)
    assert RANGE in error["message"] and repr(number) in error["message"]
    batch = {"requests": [{"endpoint": path, "params": {**params, param: number}}]}
    (result,) = api.post("/v1/batch", json=batch).json()["data"]["results"]
    assert result["status"] == 400 and RANGE in result["errors"][0]["message"]


@pytest.mark.parametrize("value", [[3], {"id": 3}])
def test_an_array_or_object_for_a_name_or_id_is_the_wrong_type_naming_both(api, value):
    error = assert_error(
        api.post("/v1/positions", json={"jd": J2000, "sidereal": value}), 400, "invalid_parameter", "sidereal"
    )
    assert "wrong JSON type" in error["message"] and RANGE in error["message"]


def test_an_id_in_a_query_string_is_its_text(api):
    by_id = api.get("/v1/vedic/chart", params={"jd": J2000, **LONDON, "ayanamsha": "3"}).json()
    by_name = api.get("/v1/vedic/chart", params={"jd": J2000, **LONDON, "ayanamsha": "raman"}).json()
    assert by_id["data"] == by_name["data"]
