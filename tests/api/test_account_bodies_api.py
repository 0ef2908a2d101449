"""The account operations' JSON bodies held to their schemas (issue 49; gateway/account_bodies.py),
rule by rule, on the gateway in process: a body the document's schema refuses is refused with
400 and costs nothing, and the schema's ``minLength`` and the refusal of empty text agree. With
them, ``alt`` beside a town is range-checked as beside ``lat`` and ``lon``, and a time lord's
``at`` before birth is listed among the refusals beyond the schema."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from gateway.account_bodies import own_members, refuses_empty_text
from gateway.account_resources import takes_body
from gateway.endpoints import account_operations, discover_endpoints
from gateway.reference.openapi import build_openapi
from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance

DOCUMENT = build_openapi(discover_endpoints(), version="test")
LYON = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}
SKY = {"url": "https://example.com/hook", "events": ["lunation"]}
BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}


@pytest.fixture()
def account(stack: AppStack) -> tuple[str, str]:
    return stack.new_key()


def body_schema(path: str, method: str) -> Draft202012Validator:
    schema = DOCUMENT["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": DOCUMENT["components"]})


def refused_free(stack: AppStack, account, method: str, path: str, schema_path: str, body, param: str | None):
    """Assert that ``body``, which the schema of ``schema_path`` refuses, is 400 naming
    ``param`` and costs nothing; return the error."""
    name, key = account
    assert not body_schema(schema_path, method.lower()).is_valid(body)
    before = balance(stack, name)
    with stack.client(key) as client:
        response = client.request(method, path, json=body)
    error = assert_error(response, 400, response.json()["errors"][0]["code"], param)
    assert balance(stack, name) == before
    return error


def a_webhook(stack: AppStack, key: str) -> str:
    with stack.client(key) as client:
        response = client.post("/v1/webhooks", json=SKY)
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def test_an_empty_chart_name_is_refused(stack, account):
    error = refused_free(stack, account, "POST", "/v1/charts", "/v1/charts", {"name": "", **LYON}, "name")
    assert error["code"] == "invalid_parameter"


def test_a_webhooks_null_chart_is_refused(stack, account):
    error = refused_free(stack, account, "POST", "/v1/webhooks", "/v1/webhooks", {**SKY, "chart": None}, "chart")
    assert error["code"] == "invalid_parameter"


def test_a_stored_chart_member_of_the_wrong_json_type_is_refused(stack, account):
    body = {"name": "Ada", **LYON, "dignities": 0}
    error = refused_free(stack, account, "POST", "/v1/charts", "/v1/charts", body, "dignities")
    assert error["code"] == "invalid_parameter" and "wrong JSON type" in error["message"]


def test_a_webhooks_events_sent_as_text_rather_than_an_array_is_refused(stack, account):
    body = {**SKY, "events": "lunation"}
    assert refused_free(stack, account, "POST", "/v1/webhooks", "/v1/webhooks", body, "events")


@pytest.mark.parametrize("action", ["rotate-secret", "test"])
@pytest.mark.parametrize(("body", "param"), [({"state": "paused"}, "state"), (None, None)], ids=["a member", "null"])
def test_a_post_taking_no_body_refuses_any_member_and_a_json_null(stack, account, action, body, param):
    webhook = a_webhook(stack, account[1])
    path = f"/v1/webhooks/{webhook}/{action}"
    name, key = account
    before = balance(stack, name)
    with stack.client(key) as client:
        response = client.post(path, content=b"null" if body is None else None, json=body)
    error = assert_error(response, 400, "invalid_body" if body is None else "invalid_parameter", param)
    assert error and balance(stack, name) == before
    assert not body_schema(f"/v1/webhooks/{{webhook_id}}/{action}", "post").is_valid(body)


def test_a_post_taking_no_body_takes_none_or_an_empty_object(stack, account):
    key = account[1]
    webhook = a_webhook(stack, key)
    with stack.client(key) as client:
        assert client.post(f"/v1/webhooks/{webhook}/rotate-secret").status_code == 200
        assert client.post(f"/v1/webhooks/{webhook}/rotate-secret", json={}).status_code == 200


def test_the_schemas_min_length_and_the_refusal_of_empty_text_agree():
    checked = 0
    for endpoint in account_operations():
        if not takes_body(endpoint):
            continue
        method = endpoint.http.gateway.method.lower()
        properties = DOCUMENT["paths"][endpoint.path][method]["requestBody"]["content"]["application/json"]["schema"]
        for name, field in own_members(endpoint).items():
            member = properties["properties"][name]
            if field.repeated or "minLength" not in member and "pattern" not in member and "enum" not in member:
                continue
            assert (member.get("minLength") == 1) == refuses_empty_text(field), (endpoint.path, name)
            checked += 1
    assert checked >= 2


def natal_chart(api, method: str, params: dict):
    return api.get("/v1/natal-chart", params=params) if method == "GET" else api.post("/v1/natal-chart", json=params)


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_alt_beside_a_town_is_range_checked_as_beside_lat_and_lon(api, method):
    for birth in (LYON, BIRTH):
        response = natal_chart(api, method, {**birth, "alt": 20001})
        assert "[-500, 20000]" in assert_error(response, 400, "invalid_parameter", "alt")["message"]
    assert natal_chart(api, method, {**LYON, "alt": 20000}).status_code == 200


def test_a_stored_charts_alt_beside_its_town_is_range_checked(stack, account):
    refused = refused_free(
        stack, account, "POST", "/v1/charts", "/v1/charts", {"name": "Ada", **LYON, "alt": -501}, "alt"
    )
    assert refused["code"] == "invalid_parameter"


def test_an_at_before_birth_is_listed_among_the_refusals_beyond_the_schema(api):
    body = {**BIRTH, "at": "1980-01-01T00:00:00Z"}
    assert body_schema("/v1/firdaria", "post").is_valid(body)
    assert_error(api.post("/v1/firdaria", json=body), 400, "before_birth", "at")
    assert "before_birth" in DOCUMENT["x-refused-beyond-the-schema"]


def test_a_post_taking_no_body_refuses_one_over_1_mib_as_its_document_says(stack, account):
    key = account[1]
    webhook = a_webhook(stack, key)
    path = f"/v1/webhooks/{webhook}/test"
    assert "413" in DOCUMENT["paths"]["/v1/webhooks/{webhook_id}/test"]["post"]["responses"]
    with stack.client(key) as client:
        response = client.post(
            path, content=b"{" + b" " * (1024 * 1024) + b"}", headers={"content-type": "application/json"}
        )
    assert_error(response, 413, "payload_too_large")
