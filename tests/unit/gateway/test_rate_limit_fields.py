"""gateway/rate_limit_fields.py and accounting.rate_limit_headers: the IETF RateLimit fields
(draft-ietf-httpapi-ratelimit-headers-11) as Structured Field Lists (RFC 9651), parsed back by
``http_sfv``, beside the ``X-RateLimit-*`` headers and agreeing with them."""

from __future__ import annotations

import http_sfv
import pytest

from gateway.accounting import rate_limit_headers, refusal
from gateway.rate_limit_fields import (
    CONCURRENCY_POLICY,
    RATE_POLICY,
    limit_field,
    policy_field,
    seconds_until,
    sf_string,
    spend_cap_policy,
)
from store.records import Admission


def _parsed(value: str) -> list[tuple[str, dict]]:
    items = http_sfv.List()
    items.parse(value.encode("ascii"))
    return [(item.value, dict(item.params)) for item in items]


def test_a_policy_is_a_string_item_with_its_quota_and_window():
    assert policy_field("minute", 300, 60) == '"minute";q=300;w=60'
    assert _parsed(policy_field("minute", 300, 60)) == [("minute", {"q": 300, "w": 60})]


def test_a_service_limit_is_a_string_item_with_what_is_left_and_the_seconds_to_the_windows_end():
    assert limit_field("minute", 299, 37) == '"minute";r=299;t=37'
    assert _parsed(limit_field("minute", 299, 37)) == [("minute", {"r": 299, "t": 37})]
    assert _parsed(limit_field("minute", -2, None)) == [("minute", {"r": 0})]


def test_a_string_escapes_its_quote_and_backslash_and_refuses_other_characters():
    assert _parsed(sf_string('a"b\\c')) == [('a"b\\c', {})]
    with pytest.raises(ValueError):
        sf_string("caf\u00e9")


def test_the_seconds_to_a_windows_end_round_up_and_never_go_below_zero():
    assert seconds_until(120, 100.2) == 20
    assert seconds_until(120, 120.0) == 0
    assert seconds_until(120, 125.0) == 0


def test_a_spend_caps_policy_is_named_by_its_scope_and_period():
    assert spend_cap_policy("key", "monthly") == "key-monthly-spend"


def test_an_admissions_headers_carry_both_standards_and_they_agree():
    headers = dict(rate_limit_headers(Admission(True, 300, 299, 120), now_s=83.4))
    assert headers[b"x-ratelimit-limit"] == b"300" and headers[b"x-ratelimit-remaining"] == b"299"
    assert headers[b"x-ratelimit-reset"] == b"120"
    assert _parsed(headers[b"ratelimit-policy"].decode()) == [(RATE_POLICY, {"q": 300, "w": 60})]
    assert _parsed(headers[b"ratelimit"].decode()) == [(RATE_POLICY, {"r": 299, "t": 37})]


def test_a_refusal_for_concurrency_leaves_the_window_out_so_its_retry_after_may_come_sooner():
    refused = Admission(False, 300, 48, 120, retry_after_s=1, reason="concurrency")
    headers = dict(rate_limit_headers(refused, now_s=83.4))
    assert _parsed(headers[b"ratelimit"].decode()) == [(RATE_POLICY, {"r": 48})]
    assert refusal(refused).violated_policies == (CONCURRENCY_POLICY,)


def test_a_refusal_for_the_rate_names_the_minute_policy_and_retries_at_the_windows_end():
    refused = Admission(False, 300, 0, 120, retry_after_s=37, reason="rate")
    headers = dict(rate_limit_headers(refused, now_s=83.4))
    assert _parsed(headers[b"ratelimit"].decode()) == [(RATE_POLICY, {"r": 0, "t": 37})]
    error = refusal(refused)
    assert error.violated_policies == (RATE_POLICY,) and error.retry_after_s == 37
