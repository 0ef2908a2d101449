"""gateway/json_body.py: a POST's JSON body (decisions.md: over 1 MiB is 413
``payload_too_large``, a body that is not JSON is 400 ``invalid_body``); parameters belong in
the body, not the query string; a JSON object naming a member twice is refused, naming it
(RFC 8259 §4: names SHOULD be unique, and a repeat has no one meaning)."""

from __future__ import annotations

import asyncio

import pytest

from gateway.json_body import MAX_BODY_BYTES, read_json_body
from shared.errors import InvalidBody, InvalidParameter, PayloadTooLarge
from tests.unit.gateway.requests_for_tests import request_to


def _read(body: bytes, headers: dict[str, str] | None = None, query: str = "", get_offered: bool = False):
    request = request_to("POST", "/v1/batch", body=body, headers=headers, query=query)
    return asyncio.run(read_json_body(request, get_offered=get_offered))


def test_a_json_body_is_decoded():
    assert _read(b'{"requests": [1, 2]}', {"Content-Type": "application/json"}) == {"requests": [1, 2]}


def test_an_empty_or_blank_body_reads_as_none():
    assert _read(b"") is None and _read(b" \n ") is None


def test_the_limit_is_one_mebibyte():
    assert MAX_BODY_BYTES == 2**20


def test_a_body_of_exactly_the_limit_is_read():
    body = b'"' + b"a" * (MAX_BODY_BYTES - 2) + b'"'
    assert len(_read(body)) == MAX_BODY_BYTES - 2


def test_a_body_over_the_limit_is_413_payload_too_large():
    body = b'"' + b"a" * (MAX_BODY_BYTES - 1) + b'"'
    with pytest.raises(PayloadTooLarge) as raised:
        _read(body)
    assert (raised.value.http_status, raised.value.code) == (413, "payload_too_large")


def test_a_declared_length_over_the_limit_is_refused_before_reading():
    with pytest.raises(PayloadTooLarge, match=str(MAX_BODY_BYTES + 1)):
        _read(b"{}", {"Content-Length": str(MAX_BODY_BYTES + 1)})


@pytest.mark.parametrize("body", [b"{", b"{'a': 1}", b"not json", b'{"a": 1,}'])
def test_a_body_that_is_not_json_is_400_invalid_body(body):
    with pytest.raises(InvalidBody) as raised:
        _read(body)
    assert (raised.value.http_status, raised.value.code) == (400, "invalid_body")


def test_a_body_of_another_media_type_is_invalid_body_and_json_suffixes_are_json():
    with pytest.raises(InvalidBody, match="text/plain"):
        _read(b"{}", {"Content-Type": "text/plain"})
    assert _read(b"{}", {"Content-Type": "application/problem+json; charset=utf-8"}) == {}


def test_a_query_string_on_a_post_is_refused_naming_its_parameter_and_offering_get_when_there_is_one():
    with pytest.raises(InvalidParameter) as raised:
        _read(b"{}", query="bodies=sun", get_offered=True)
    assert raised.value.param == "bodies" and "use GET" in raised.value.suggestion
    with pytest.raises(InvalidParameter) as without_get:
        _read(b"{}", query="x=1")
    assert "GET" not in without_get.value.suggestion
