"""The error catalogue (shared/errors.py) against the spec: the table of codes and statuses
(spec/decisions.md, "Error codes and statuses"), the error body (interface.md, Errors:
``{code, message, suggestion}``, and ``param`` by decisions.md), and, for the codes that table
does not list, the meaning of their status in RFC 9110 (section 15) and nginx's 499.

That the catalogue imports nothing of the project is the import contract
``error-catalogue-is-a-leaf`` (``.importlinter``), checked by ``lint-imports``.
"""

from __future__ import annotations

import re

import pytest

import kernel.errors  # noqa: F401  (error_classes finds a layer's errors once its module is imported)
from shared.errors import (
    CelestialError,
    InternalError,
    InvalidParameter,
    MethodNotAllowed,
    error_class_for_code,
    error_classes,
)

# spec/decisions.md, "Error codes and statuses", transcribed row by row.
SPEC_TABLE = {
    "invalid_parameter": 400,
    "missing_parameter": 400,
    "conflicting_parameters": 400,
    "invalid_datetime": 400,
    "invalid_body": 400,
    "body_not_found": 400,
    "body_not_eligible": 400,
    "no_north_node": 400,
    "invalid_heliacal_event": 400,
    "range_too_long": 400,
    "before_birth": 400,
    "invalid_progression": 400,
    "out_of_range": 400,
    "invalid_api_key": 401,
    "insufficient_credits": 402,
    "origin_not_allowed": 403,
    "origin_required": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "payload_too_large": 413,
    "rate_limit_exceeded": 429,
    "internal_error": 500,
    "not_implemented": 501,
    "service_unavailable": 503,
    "deadline_exceeded": 504,
}

# Codes the spec's table does not list, with the status their meaning calls for: RFC 9110
# 15.5.2 (401, credentials missing or wrong), 15.5.10 (409, a conflict with the target's current
# state), 15.5.9 (408), 15.5.15 (414), 15.5.1 (400, a request the server will not process as
# sent), 15.5.3 (402, a charge refused: a spend cap), and nginx's 499 (the client closed the connection).
BEYOND_THE_TABLE = {
    "invalid_admin_token": 401,
    "account_exists": 409,
    "email_owns_another_account": 409,
    "key_not_active": 409,
    "request_id_conflict": 409,
    # The IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header, "Error
    # Scenarios"): 422 for a key reused with another payload, 409 while its first request runs.
    "idempotency_key_reuse": 422,
    "idempotency_key_in_progress": 409,
    "request_timeout": 408,
    "uri_too_long": 414,
    "invalid_request": 400,
    "client_closed_request": 499,
    "result_too_large": 400,
    "polar_day_or_night": 400,
    "nonexistent_local_time": 400,
    "ambiguous_local_time": 400,
    # Stored charts (issue 40): RFC 9110 15.5.5 (404, no current representation of the target:
    # an id naming no chart of the account) and 15.5.10 (409, the account's charts are full).
    "chart_not_found": 404,
    "chart_limit_reached": 409,
    "spend_cap_reached": 402,
    # Webhook subscriptions (issue 40, part 3): the same two reasons, for a subscription.
    "webhook_not_found": 404,
    "webhook_limit_reached": 409,
    # Issue 46, part 5: 15.5.10 (409) both: the subscription's current state (ended, or no event
    # of its kinds ahead) conflicts with the request.
    "webhook_ended": 409,
    "no_upcoming_event": 409,
    # Issue 48, part 3: RFC 6585 §4 (429, the user has sent too many requests): here the
    # account's own requests in flight hold its share of a service; a 503 is for a service
    # unavailable to everyone.
    "too_many_concurrent_requests": 429,
}

SNAKE_CASE = re.compile(r"[a-z]+(_[a-z]+)*")
ALL = error_classes()


def test_every_code_of_the_specs_table_is_an_error_of_the_catalogue_with_the_tables_status():
    by_code = {cls.code: cls.http_status for cls in ALL}
    assert {code: by_code.get(code) for code in SPEC_TABLE} == SPEC_TABLE


def test_every_error_is_a_code_of_the_specs_table_or_one_whose_status_its_meaning_calls_for():
    expected = SPEC_TABLE | BEYOND_THE_TABLE
    assert {cls.code: cls.http_status for cls in ALL} == expected


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_every_error_has_a_snake_case_code_a_4xx_or_5xx_status_and_a_suggestion_ending_a_sentence(cls):
    assert SNAKE_CASE.fullmatch(cls.code)
    assert 400 <= cls.http_status <= 599
    assert cls.default_suggestion.strip() and cls.default_suggestion.rstrip()[-1] in ".!?)"


def test_each_code_has_one_status_and_no_two_catalogue_classes_share_a_code():
    # The kernel's reading errors reuse the catalogue's codes on purpose (the reader turns them
    # into the catalogue's class, shared/runtime/kernel_errors.py); within a layer a code is one class.
    statuses: dict[str, set[int]] = {}
    for cls in ALL:
        statuses.setdefault(cls.code, set()).add(cls.http_status)
    assert all(len(found) == 1 for found in statuses.values()), statuses
    for layer in ("shared.errors", "kernel.errors"):
        codes = [cls.code for cls in ALL if cls.__module__ == layer and cls.__name__ != "DomainError"]
        assert len(codes) == len(set(codes)), layer


def test_a_code_names_the_catalogues_own_class_even_when_a_layer_reuses_it():
    for cls in ALL:
        found = error_class_for_code(cls.code)
        assert found.code == cls.code and found.http_status == cls.http_status
    assert error_class_for_code("invalid_parameter") is InvalidParameter
    assert error_class_for_code("invalid_parameter").__module__ == "shared.errors"


def test_an_unknown_code_is_an_internal_error():
    assert error_class_for_code("no_such_code") is InternalError
    assert (InternalError.code, InternalError.http_status) == ("internal_error", 500)


def test_error_classes_finds_the_kernels_domain_errors_once_their_module_is_imported():
    modules = {cls.__module__ for cls in ALL}
    assert modules == {"shared.errors", "kernel.errors"}
    assert CelestialError not in ALL  # the base is no error anyone raises


def test_an_error_renders_as_one_member_of_the_specs_errors_list():
    error = InvalidParameter("orb=-1 is below 0.", param="orb")
    assert error.as_dict() == {
        "code": "invalid_parameter",
        "message": "orb=-1 is below 0.",
        "suggestion": InvalidParameter.default_suggestion,
        "param": "orb",
    }
    assert InvalidParameter("bad").as_dict() == {
        "code": "invalid_parameter",
        "message": "bad",
        "suggestion": InvalidParameter.default_suggestion,
    }
    assert str(error) == "orb=-1 is below 0."


def test_a_suggestion_given_replaces_the_default_and_an_empty_one_falls_back_to_it():
    assert InvalidParameter("bad", suggestion="Send orb=3.").suggestion == "Send orb=3."
    assert InvalidParameter("bad", suggestion="").suggestion == InvalidParameter.default_suggestion


def test_only_the_answers_that_tell_when_to_retry_carry_retry_after_by_default():
    # The spec: 429 "with Retry-After", 503 "with Retry-After"; issue 39: 409
    # idempotency_key_in_progress "with Retry-After"; issue 48: 429 too_many_concurrent_requests
    # "with Retry-After". No other error has one.
    with_retry = {cls.code: cls.default_retry_after_s for cls in ALL if cls.default_retry_after_s is not None}
    assert with_retry == {
        "rate_limit_exceeded": 1,
        "too_many_concurrent_requests": 1,
        "service_unavailable": 1,
        "idempotency_key_in_progress": 1,
    }
    assert error_class_for_code("rate_limit_exceeded")("slow down", retry_after_s=7).retry_after_s == 7
    assert InvalidParameter("bad").retry_after_s is None


def test_method_not_allowed_carries_the_methods_the_path_accepts_for_the_allow_header():
    refused = MethodNotAllowed("GET is not allowed on /v1/batch.", allow="POST, OPTIONS")
    assert refused.allow == "POST, OPTIONS" and refused.http_status == 405
    assert MethodNotAllowed("no").allow == ""
