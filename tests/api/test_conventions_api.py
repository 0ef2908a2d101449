"""The interface's general conventions: auth, credits, parameters, envelope."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from shared.errors import QUOTA_EXCEEDED_TYPE
from shared.runtime.config import load_settings
from tests.api.in_process_pool import InProcessPool, in_process_pools

J2000 = 2451545.0
POSITIONS = "/v1/positions"
#: The RFC 9457 members a limit's refusal may carry beside the error body.
PROBLEM_MEMBERS = {"type", "title", "status", "detail", "violated-policies"}


def assert_error(response: httpx.Response, status: int, code: str, param: str | None = None) -> dict:
    """Assert the spec's error body and return its first error."""
    assert response.status_code == status, response.text
    body = response.json()
    # A limit's refusal carries RFC 9457 problem details beside the body (gateway/problem_details.py).
    beside = set(body) - {"errors", "meta"}
    assert {"errors", "meta"} <= set(body) and beside <= PROBLEM_MEMBERS, beside
    assert not beside or (body["type"] == QUOTA_EXCEEDED_TYPE and body["status"] == status)
    error = body["errors"][0]
    assert error["code"] == code
    assert error["message"] and error["suggestion"]
    assert body["meta"]["request_id"] == response.headers["x-request-id"]
    if param is not None:
        assert error.get("param") == param
    return error


def balance(stack, account: str) -> int:
    return json.loads(stack.admin("account", "show", account, "--json").stdout)["balance"]


# --- Authentication ---------------------------------------------------------------------


def test_bearer_key_is_accepted(stack, key):
    with stack.client() as c:
        r = c.get(POSITIONS, params={"jd": J2000}, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text


def test_x_api_key_header_is_accepted(stack, key):
    with stack.client() as c:
        r = c.get(POSITIONS, params={"jd": J2000}, headers={"X-API-Key": key})
    assert r.status_code == 200, r.text


def test_authorization_takes_precedence_over_x_api_key(stack, key):
    with stack.client() as c:
        good_bearer = c.get(
            POSITIONS,
            params={"jd": J2000},
            headers={"Authorization": f"Bearer {key}", "X-API-Key": "svc_live_" + "x" * 43},
        )
        bad_bearer = c.get(
            POSITIONS, params={"jd": J2000}, headers={"Authorization": "Bearer svc_live_" + "x" * 43, "X-API-Key": key}
        )
    assert good_bearer.status_code == 200
    assert_error(bad_bearer, 401, "invalid_api_key")


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"X-API-Key": "not-a-key"},
        {"Authorization": "Bearer svc_live_short"},
        {"Authorization": "Bearer svc_live_" + "A" * 43},
    ],
    ids=["missing", "empty-bearer", "basic-scheme", "malformed", "short", "unknown"],
)
def test_missing_malformed_or_unknown_key_is_401_invalid_api_key(stack, headers):
    with stack.client() as c:
        r = c.get(POSITIONS, params={"jd": J2000}, headers=headers)
    assert_error(r, 401, "invalid_api_key")


def test_revoked_key_is_401_invalid_api_key(stack):
    name, key = stack.new_key()
    key_id = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)[0]["key_id"]
    stack.admin("key", "revoke", key_id)
    with stack.client(key) as c:
        assert_error(c.get(POSITIONS, params={"jd": J2000}), 401, "invalid_api_key")


def test_expired_key_is_401_invalid_api_key(stack):
    name = f"expiring-{time.time_ns()}"
    stack.admin("account", "create", name, "--credits", "10")
    expires = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
    key = stack.admin("key", "create", "--account", name, "--expires", expires).stdout.strip()
    time.sleep(2.5)
    with stack.client(key) as c:
        assert_error(c.get(POSITIONS, params={"jd": J2000}), 401, "invalid_api_key")


# --- Credits ------------------------------------------------------------------------------


def test_success_is_charged_and_reported_in_meta(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as c:
        r = c.get(POSITIONS, params={"jd": J2000})
    assert r.status_code == 200
    meta = r.json()["meta"]
    assert meta["credits_used"] == 1
    assert meta["credits_remaining"] == 9
    assert balance(stack, name) == 9
    assert meta["request_id"] == r.headers["x-request-id"]
    assert meta["version"]["api"] == "v1"
    assert meta["computation_ms"] >= 0


def test_meta_names_the_engine_and_the_tz_database_an_answer_was_made_with(api):
    version = api.get(POSITIONS, params={"jd": J2000}).json()["meta"]["version"]
    assert version["engine"].startswith("Swiss Ephemeris 2.")
    tz_source = (load_settings().tz_path / "tzdata.zi").read_text(encoding="utf-8").splitlines()[0]
    assert tz_source == f"# version {version['tz']}" and len(version["tz"]) == 5  # 2026f


def test_error_costs_no_credits(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as c:
        r = c.get(POSITIONS, params={"jd": J2000, "bodies": "vulcan"})
    assert_error(r, 400, "body_not_found")
    assert balance(stack, name) == 10


TRANSITS = {"start": "2024-01-01T00:00:00Z", "end": "2024-02-01T00:00:00Z", "jd": J2000}


@pytest.fixture(scope="module")
def older_stack(module_stacks):
    """The gateway with a search service from an older release: it implements none of its RPCs."""
    return module_stacks.in_process("older", pools={**in_process_pools(), "search": InProcessPool("search", {})})


def test_not_implemented_endpoint_is_501_and_costs_nothing(older_stack):
    name, key = older_stack.new_key(credits=10)
    with older_stack.client(key) as c:
        r = c.get("/v1/transits", params=TRANSITS)
    assert_error(r, 501, "not_implemented")
    assert balance(older_stack, name) == 10


def test_an_unbuilt_endpoint_is_501_even_to_an_account_without_credits(older_stack):
    name, key = older_stack.new_key(credits=0)
    with older_stack.client(key) as c:
        r = c.get("/v1/transits", params=TRANSITS)
        batch = c.post("/v1/batch", json={"requests": [{"endpoint": "/v1/transits", "params": TRANSITS}]})
    assert_error(r, 501, "not_implemented")
    assert batch.json()["data"]["results"][0]["status"] == 501
    assert balance(older_stack, name) == 0


def test_replaying_a_request_id_is_charged_every_time(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as c:
        for _ in range(3):
            assert c.get(POSITIONS, params={"jd": J2000}, headers={"X-Request-Id": "same-id"}).status_code == 200
    assert balance(stack, name) == 7


def test_balance_that_cannot_cover_the_cost_is_402(stack):
    name, key = stack.new_key(credits=1)
    with stack.client(key) as c:
        first = c.get(POSITIONS, params={"jd": J2000})
        second = c.get(POSITIONS, params={"jd": J2000})
    assert first.status_code == 200
    assert_error(second, 402, "insufficient_credits")
    assert balance(stack, name) == 0


# --- Parameters ---------------------------------------------------------------------------


def test_unknown_parameter_is_refused_naming_it_and_listing_accepted(api):
    error = assert_error(api.get(POSITIONS, params={"jd": J2000, "bodys": "sun"}), 400, "invalid_parameter", "bodys")
    assert "bodys" in error["message"]
    assert "bodies" in error["suggestion"]


def test_datetime_with_jd_is_conflicting_parameters(api):
    assert_error(
        api.get(POSITIONS, params={"jd": J2000, "datetime": "2000-01-01T12:00:00Z"}), 400, "conflicting_parameters"
    )


def test_neither_datetime_nor_jd_is_missing_parameter(api):
    assert_error(api.get(POSITIONS, params={"bodies": "sun"}), 400, "missing_parameter")


@pytest.mark.parametrize("text", ["yesterday", "2024-13-01T00:00:00Z", "2024-02-30", "12:00"])
def test_unreadable_datetime_is_invalid_datetime(api, text):
    assert_error(api.get(POSITIONS, params={"datetime": text}), 400, "invalid_datetime", "datetime")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "abc", ""])
def test_non_finite_or_non_numeric_jd_is_invalid_parameter(api, value):
    assert_error(api.get(POSITIONS, params={"jd": value}), 400, "invalid_parameter", "jd")


def test_datetime_without_offset_is_utc_and_offset_is_converted(api):
    naive = api.get(POSITIONS, params={"datetime": "2024-03-20T12:00:00", "bodies": "moon"}).json()["data"][0]
    utc = api.get(POSITIONS, params={"datetime": "2024-03-20T12:00:00Z", "bodies": "moon"}).json()["data"][0]
    offset = api.get(POSITIONS, params={"datetime": "2024-03-20T14:00:00+02:00", "bodies": "moon"}).json()["data"][0]
    assert naive["longitude"] == utc["longitude"] == offset["longitude"]


@pytest.mark.parametrize(
    "text,expected", [("true", True), ("TRUE", True), ("1", True), ("false", False), ("False", False), ("0", False)]
)
def test_booleans_accept_true_false_any_case_and_1_0(api, text, expected):
    record = api.get(POSITIONS, params={"jd": J2000, "bodies": "sun", "speed": text}).json()["data"][0]
    assert (record["speed"] is not None) is expected


def test_boolean_that_is_not_a_boolean_is_invalid_parameter(api):
    assert_error(api.get(POSITIONS, params={"jd": J2000, "speed": "maybe"}), 400, "invalid_parameter", "speed")


def test_list_given_twice_is_concatenated(api):
    r = api.get(POSITIONS, params=[("jd", J2000), ("bodies", "sun,moon"), ("bodies", "mars")])
    assert [p["body"] for p in r.json()["data"]] == ["sun", "moon", "mars"]


def test_scalar_given_twice_is_invalid_parameter(api):
    assert_error(api.get(POSITIONS, params=[("jd", J2000), ("jd", J2000)]), 400, "invalid_parameter", "jd")


def test_post_json_body_with_native_values_equals_get(api):
    get = api.get(POSITIONS, params={"jd": J2000, "bodies": "sun,moon", "speed": "false"}).json()["data"]
    post_native = api.post(POSITIONS, json={"jd": J2000, "bodies": ["sun", "moon"], "speed": False}).json()["data"]
    post_strings = api.post(POSITIONS, json={"jd": str(J2000), "bodies": "sun,moon", "speed": "false"}).json()["data"]
    assert get == post_native == post_strings


def test_post_body_that_is_not_a_json_object_is_invalid_body(api):
    assert_error(
        api.post(POSITIONS, content=b"[1,2]", headers={"Content-Type": "application/json"}), 400, "invalid_body"
    )
    assert_error(
        api.post(POSITIONS, content=b"{not json", headers={"Content-Type": "application/json"}), 400, "invalid_body"
    )


def test_post_body_over_one_mebibyte_is_413(api):
    big = b'{"jd": 2451545.0, "pad": "' + b"x" * (1024 * 1024) + b'"}'
    assert_error(
        api.post(POSITIONS, content=big, headers={"Content-Type": "application/json"}), 413, "payload_too_large"
    )


def test_unknown_path_is_404_not_found(api):
    assert_error(api.get("/v1/no-such-thing"), 404, "not_found")


def test_get_on_batch_is_405_method_not_allowed(api):
    assert_error(api.get("/v1/batch"), 405, "method_not_allowed")


# --- Envelope and headers -------------------------------------------------------------------


def test_every_response_carries_x_request_id(api, stack):
    ok = api.get(POSITIONS, params={"jd": J2000})
    with stack.client() as c:
        unauthenticated = c.get(POSITIONS)
    assert ok.headers["x-request-id"] and unauthenticated.headers["x-request-id"]


def test_client_request_id_is_echoed(api):
    r = api.get(POSITIONS, params={"jd": J2000}, headers={"X-Request-Id": "trace-abc.123"})
    assert r.headers["x-request-id"] == "trace-abc.123"
    assert r.json()["meta"]["request_id"] == "trace-abc.123"


def test_success_envelope_has_data_and_meta_and_omits_empty_warnings(api):
    body = api.get(POSITIONS, params={"jd": J2000}).json()
    assert set(body) == {"data", "meta"}


def test_openapi_document_lists_every_endpoint_without_a_key(stack):
    with stack.client() as c:
        doc = c.get("/v1/openapi.json").json()
        docs = c.get("/docs")
    assert doc["openapi"].startswith("3.1")
    for path in ("/v1/positions", "/v1/houses", "/v1/chart", "/v1/aspects", "/v1/transits", "/v1/astrocartography"):
        assert path in doc["paths"]
    assert docs.status_code == 200 and "/v1/positions" in docs.text


def test_health_and_readiness_answer_without_a_key(stack):
    with stack.client() as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        ready = c.get("/readyz").json()
    assert ready["status"] == "ready"
    assert set(ready["services"]) == {"ephemeris", "timelords", "search", "astrocartography"}


def test_cors_preflight_answers_without_a_key(stack):
    with stack.client() as c:
        r = c.options(
            POSITIONS,
            headers={
                "Origin": "https://app.example",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization",
            },
        )
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] in ("*", "https://app.example")


def test_every_response_varies_on_origin_and_a_cross_origin_one_is_readable(stack, key):
    with stack.client(key) as c:
        plain = c.get(POSITIONS, params={"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"})
        cross = c.get(
            POSITIONS,
            params={"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"},
            headers={"Origin": "https://app.example"},
        )
        refused = c.get(POSITIONS, params={"bodies": "sun"}, headers={"Origin": "https://app.example"})
    assert plain.headers["vary"] == "Origin"
    assert "access-control-allow-origin" not in plain.headers
    for response in (cross, refused):  # errors too, so a browser app can read the error body
        assert response.headers["vary"] == "Origin"
        assert response.headers["access-control-allow-origin"] == "*"
        assert "x-request-id" in response.headers["access-control-expose-headers"].lower()
