"""shared/runtime/json_text.py: JSON text is decoded, and an object naming a member twice is
refused by the member's path, as a query string refuses a scalar given twice."""

from __future__ import annotations

import pytest

from shared.errors import InvalidParameter
from shared.runtime.json_text import decode_json


def test_a_member_named_twice_is_refused_by_its_path():
    with pytest.raises(InvalidParameter) as raised:
        decode_json(b'{"requests": [{"params": {"datetime": "a", "datetime": "b"}}]}')
    assert raised.value.param == "requests[0].params.datetime"
    with pytest.raises(InvalidParameter) as under:
        decode_json('{"a": 1, "a": 2}', where="requests[3]")
    assert under.value.param == "requests[3].a"


def test_the_same_name_in_different_objects_and_quoted_colons_in_text_are_no_repeat():
    assert decode_json(b'[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]
    assert decode_json(b'{"a": "x\\": y", "b": ["\\":"]}') == {"a": 'x": y', "b": ['":']}
