"""gateway/json_response.py: every JSON answer is ``application/json`` (RFC 8259 §11) with its
status and headers; a value is encoded, bytes are sent as they are."""

from __future__ import annotations

import json

from gateway.json_response import json_response


def test_a_value_is_encoded_as_json_with_its_media_type_status_and_headers():
    response = json_response({"data": {"ä": [1, 2.5, None]}}, 201, {"Cache-Control": "no-store"})
    assert response.status_code == 201 and response.headers["cache-control"] == "no-store"
    assert response.headers["content-type"] == "application/json"
    assert json.loads(response.body) == {"data": {"ä": [1, 2.5, None]}}


def test_bytes_are_taken_as_json_already_encoded():
    assert json_response(b'{"a":1}').body == b'{"a":1}'


def test_the_body_is_utf8_without_escaping_non_ascii():
    assert json_response({"name": "Zürich"}).body == '{"name":"Zürich"}'.encode()
