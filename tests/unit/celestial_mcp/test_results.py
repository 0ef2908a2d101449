"""The trimming rules of a curated tool's result: a result that fits is returned whole; a long
list is paged to the limit with the cursor of the next page; anything else too long has its
longest lists cut, named in ``trimmed`` and said in the summary."""

from __future__ import annotations

import json

from celestial_mcp.results import RESULT_LIMIT, cut_to_fit, paged, size


def _result(data: dict) -> dict:
    return {"summary": "Twelve things.", "data": data, "meta": {"credits_used": 1}}


def _items(count: int, chars: int) -> list[dict]:
    """Return ``count`` items whose JSON is about ``chars`` characters each."""
    return [{"n": n, "text": "x" * chars} for n in range(count)]


def test_the_limit_is_twenty_thousand_characters():
    assert RESULT_LIMIT == 20_000


def test_a_short_list_is_returned_whole_with_no_next_cursor():
    items = _items(5, 100)

    shaped = paged(_result({"events": []}), items, 0, "events")

    assert shaped["data"]["events"] == items
    assert shaped["page"] == {"total": 5, "from": 0, "returned": 5}
    assert shaped["summary"] == "Twelve things."


def test_a_long_list_is_cut_to_the_limit_with_the_cursor_of_the_next_page_in_page_and_summary():
    items = _items(500, 200)  # about 100,000 characters

    shaped = paged(_result({"events": []}), items, 0, "events")

    assert size(shaped) <= RESULT_LIMIT
    returned = shaped["page"]["returned"]
    assert shaped["data"]["events"] == items[:returned]
    assert shaped["page"]["next_cursor"] == returned
    assert f"cursor={returned}" in shaped["summary"]
    # Full pages: the next item would not have fitted.
    assert size(shaped) + size(items[returned]) > RESULT_LIMIT - 200


def test_the_next_page_starts_at_the_cursor():
    items = _items(500, 200)

    shaped = paged(_result({"events": []}), items, 120, "events")

    assert shaped["data"]["events"][0] == items[120]
    assert shaped["page"]["from"] == 120


def test_the_last_page_has_no_next_cursor():
    items = _items(500, 200)

    shaped = paged(_result({"events": []}), items, 495, "events")

    assert shaped["data"]["events"] == items[495:]
    assert "next_cursor" not in shaped["page"]


def test_a_page_holds_one_item_even_when_that_item_alone_is_over_the_limit():
    items = _items(3, RESULT_LIMIT)

    shaped = paged(_result({"events": []}), items, 0, "events")

    assert shaped["data"]["events"] == items[:1] and shaped["page"]["next_cursor"] == 1


def test_a_result_that_fits_is_returned_whole():
    result = _result({"positions": _items(11, 300), "aspects": _items(20, 100)})

    assert cut_to_fit(result) is result


def test_a_result_too_long_has_its_longest_list_cut_to_fit_and_named_in_trimmed():
    positions = _items(11, 300)
    aspects = _items(200, 150)  # about 32,000 characters: the longest list
    result = _result({"positions": positions, "aspects": aspects})

    shaped = cut_to_fit(result)

    assert size(shaped) <= RESULT_LIMIT
    assert shaped["data"]["positions"] == positions
    kept = len(shaped["data"]["aspects"])
    assert shaped["data"]["aspects"] == aspects[:kept] and kept < 200
    assert shaped["trimmed"] == [{"path": "data.aspects", "kept": kept, "of": 200}]
    assert shaped["summary"].startswith("Twelve things.") and "trimmed" in shaped["summary"]


def test_a_nested_list_is_named_by_its_path():
    result = _result({"chart_a": {"aspects": _items(300, 150)}})

    shaped = cut_to_fit(result)

    assert shaped["trimmed"][0]["path"] == "data.chart_a.aspects"


def test_cutting_leaves_the_original_result_alone():
    result = _result({"aspects": _items(300, 150)})
    before = json.dumps(result)

    cut_to_fit(result)

    assert json.dumps(result) == before
