"""store/chart_records.py: a stored chart's id, its bounds and its stored document."""

from __future__ import annotations

import pytest

from store.chart_records import (
    MAX_NAME_CHARS,
    MAX_PARAMETERS,
    MAX_VALUE_CHARS,
    StoredChart,
    chart_document,
    chart_of,
    check_chart,
    is_chart_id,
    new_chart_id,
)


def test_chart_ids_sort_in_the_order_they_were_made():
    ids = [new_chart_id() for _ in range(50)]
    assert ids == sorted(ids) and len(set(ids)) == 50 and all(is_chart_id(i) for i in ids)


def test_only_an_id_of_the_shape_names_a_chart():
    assert not any(is_chart_id(text) for text in (None, 3, "", "chart_x", new_chart_id() + "0", "CHART_" + "0" * 21))


def test_a_document_reads_back_as_the_chart():
    chart = StoredChart(
        new_chart_id(),
        "acct",
        "Ada",
        {"jd": "2446260.0"},
        {"bodies": "all"},
        {"jd": "2446260.0", "lat": "1.0", "lon": "2.0"},
    )
    assert chart_of(chart_document(chart)) == chart


def test_the_birth_is_never_in_a_charts_repr():
    chart = StoredChart(new_chart_id(), "acct", "Ada", {"datetime": "1985-07-13T14:05:00"}, {}, {})
    # The whole value: a bare year could turn up by chance in the instants' microseconds.
    assert "1985-07-13T14:05:00" not in repr(chart)


@pytest.mark.parametrize(
    "change",
    [
        {"name": "x" * (MAX_NAME_CHARS + 1)},
        {"birth": {f"p{i}": "1" for i in range(MAX_PARAMETERS + 1)}},
        {"settings": {"bodies": "x" * (MAX_VALUE_CHARS + 1)}},
        {"chart_id": "chart_nope"},
    ],
)
def test_a_chart_past_the_bounds_is_refused(change):
    fields = {
        "chart_id": new_chart_id(),
        "account_id": "acct",
        "name": "Ada",
        "birth": {},
        "settings": {},
        "parameters": {},
    } | change
    with pytest.raises(ValueError):
        check_chart(StoredChart(**fields))
