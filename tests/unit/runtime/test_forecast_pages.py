"""The pages of a forecast's JSON answer (shared/runtime/forecast_pages.py): a token names a
position in one request's list and is refused for any other list, or altered."""

from __future__ import annotations

import re

import pytest

from celestial.v1 import search_service_pb2 as pb
from shared.errors import InvalidParameter
from shared.runtime.forecast_pages import TOKEN_CHARS, page_of, page_position, page_token, request_key
from shared.runtime.request_model import message_spec

KEY = request_key("chart|1990", "2461041.5", "2461406.5", ("transit", "station"), (), ("saturn",), "time")


def test_a_token_gives_back_its_position_for_its_own_request():
    for position in (0, 1, 2000, 16_041, 2**32 - 1):
        assert page_position(page_token(KEY, position), KEY) == position


def test_a_token_is_22_characters_of_base64url_as_the_page_token_pattern_says():
    pattern = message_spec(pb.FindForecastRequest.DESCRIPTOR).fields["page_token"].rule.pattern
    for position in (0, 5000, 2**32 - 1):
        token = page_token(KEY, position)
        assert len(token) == TOKEN_CHARS and re.fullmatch(pattern, token)


def test_a_token_of_another_request_is_refused_naming_page_token_with_a_suggestion():
    other = request_key("chart|1990", "2461041.5", "2461406.5", ("transit", "station"), (), ("jupiter",), "time")
    with pytest.raises(InvalidParameter) as caught:
        page_position(page_token(other, 2000), KEY)
    assert caught.value.param == "page_token" and "next_page_token" in caught.value.suggestion


@pytest.mark.parametrize("token", ["", "abc", "A" * 22, "!" * 22, "AAAAB9" + "A" * 16])
def test_a_token_not_made_for_the_request_or_altered_is_refused(token):
    with pytest.raises(InvalidParameter):
        page_position(token, KEY)


def test_a_token_with_its_position_changed_is_refused():
    token = page_token(KEY, 2000)
    altered = page_token(KEY, 4000)[:6] + token[6:]
    assert altered != token
    with pytest.raises(InvalidParameter):
        page_position(altered, KEY)


def test_a_page_holds_size_items_from_its_position_and_the_token_of_the_next():
    items = list(range(10))
    first, token = page_of(items, 0, 4, KEY)
    assert list(first) == [0, 1, 2, 3] and page_position(token, KEY) == 4
    last, none = page_of(items, 8, 4, KEY)
    assert list(last) == [8, 9] and none is None


def test_a_page_ending_on_the_last_item_has_no_next_and_one_past_the_end_is_empty():
    assert page_of(list(range(8)), 4, 4, KEY) == ([4, 5, 6, 7], None)
    assert page_of(list(range(8)), 12, 4, KEY) == ([], None)


def test_the_key_is_the_parts_in_order():
    assert request_key("a", ("b", "c"), 3) == "a|b,c|3" != request_key("a", ("c", "b"), 3)
