"""gateway/errors.py: whatever a request raised becomes the error body of decisions.md
("Error: {errors: [{code, message, suggestion, param?}], meta: {request_id}}") with the
status of its code (decisions.md, "Error codes and statuses") and the headers its error
declares: Allow on 405 (RFC 9110 §10.2.1), Retry-After on 503 (§10.2.3), WWW-Authenticate on
the admin API's 401 (RFC 6750 §3); a bug is 500 with only the request id, and no message
repeats a key."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.exceptions import HTTPException

from gateway.errors import (
    STORE_DOWN_MESSAGE,
    as_celestial_error,
    error_response,
    with_error_body,
)
from shared.errors import InvalidAdminToken, InvalidParameter
from store.errors import (
    AccountExists,
    AccountNotFound,
    KeyNotFound,
    StoreBusy,
    StoreUnavailable,
)
from tests.unit.gateway.requests_for_tests import request_to

KEY = "svc_live_" + "A1b2C3d4" * 4


def _answer(exc: BaseException, method: str = "GET", path: str = "/v1/positions"):
    response = error_response(request_to(method, path, request_id="req-42"), exc)
    return response, json.loads(response.body)


def test_an_error_body_carries_code_message_suggestion_and_the_request_id():
    response, body = _answer(InvalidParameter("Bad value.", suggestion="Send a good one.", param="bodies"))
    assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    assert body == {
        "errors": [
            {"code": "invalid_parameter", "message": "Bad value.", "suggestion": "Send a good one.", "param": "bodies"}
        ],
        "meta": {"request_id": "req-42"},
    }


def test_every_error_has_a_suggestion_even_when_none_was_given():
    for exc in (HTTPException(404), StoreUnavailable("down"), RuntimeError("bug")):
        [error] = _answer(exc)[1]["errors"]
        assert set(error) >= {"code", "message", "suggestion"} and error["suggestion"], error


def test_an_unknown_path_is_404_not_found_naming_it():
    response, body = _answer(HTTPException(404), path="/v1/nowhere")
    assert response.status_code == 404 and body["errors"][0]["code"] == "not_found"
    assert "/v1/nowhere" in body["errors"][0]["message"]


def test_a_wrong_method_on_v1_is_405_listing_the_methods_sorted_without_head():
    response, body = _answer(HTTPException(405, headers={"Allow": "POST, HEAD, GET"}), method="PUT")
    assert response.status_code == 405 and body["errors"][0]["code"] == "method_not_allowed"
    assert response.headers["allow"] == "GET, POST"


def test_a_wrong_method_outside_v1_keeps_head_in_allow():
    response, _ = _answer(HTTPException(405, headers={"Allow": "GET, HEAD"}), method="POST", path="/healthz")
    assert response.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("exc", [StoreUnavailable("no server"), StoreBusy("locked")])
def test_a_store_that_is_down_or_busy_is_503_with_retry_after(exc):
    response, body = _answer(exc)
    assert response.status_code == 503 and body["errors"][0]["code"] == "service_unavailable"
    assert body["errors"][0]["message"] == STORE_DOWN_MESSAGE and int(response.headers["retry-after"]) >= 1


def test_store_lookups_that_find_nothing_are_404_and_a_taken_name_is_409():
    assert _answer(KeyNotFound("key_x"))[0].status_code == 404
    assert _answer(AccountNotFound("acct"))[0].status_code == 404
    response, body = _answer(AccountExists("acct"))
    assert response.status_code == 409 and body["errors"][0]["param"] == "name"


def test_a_bug_is_500_internal_error_whose_message_holds_the_request_id_and_nothing_else():
    response, body = _answer(ZeroDivisionError("secret detail at line 7"))
    [error] = body["errors"]
    assert response.status_code == 500 and error["code"] == "internal_error"
    assert "req-42" in error["message"] and "secret detail" not in json.dumps(body)


def test_the_admin_apis_401_names_its_bearer_realm():
    response, _ = _answer(InvalidAdminToken("no token"), path="/admin/v1/accounts")
    assert response.status_code == 401 and response.headers["www-authenticate"] == 'Bearer realm="celestial-admin"'


def test_no_message_suggestion_or_param_repeats_a_key():
    error = as_celestial_error(InvalidParameter(f"bad {KEY}", suggestion=f"not {KEY}", param=KEY), "r")
    assert KEY not in error.message + error.suggestion + error.param and "svc_live_..." in error.message
    path_error = as_celestial_error(HTTPException(404), "r", "GET", f"/v1/{KEY}")
    assert KEY not in path_error.message


def test_a_route_wrapped_with_the_error_body_answers_what_it_raises_instead_of_raising():
    async def failing(request):
        raise InvalidParameter("Nope.", param="x")

    response = asyncio.run(with_error_body(failing)(request_to("GET", "/v1/positions")))
    assert response.status_code == 400 and json.loads(response.body)["errors"][0]["param"] == "x"
