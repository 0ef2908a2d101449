"""gateway/dashboard/spend_caps_form.py: what an owner types for a cap (empty: no cap; a whole
number of credits, commas allowed, from 0 to MAX_CAP) and the page's rows (the account, then
each active key)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.dashboard.spend_caps_form import cap_rows, read_cap_fields
from store.records import KeyRecord
from store.spend_caps import MAX_CAP, SpendBook, SpendCap


def test_empty_fields_are_no_cap_and_numbers_are_caps():
    assert read_cap_fields("", " ") == (SpendCap(), {})
    assert read_cap_fields("1,000", "0") == (SpendCap(1000, 0), {})


@pytest.mark.parametrize("typed", ["-1", "1.5", "lots", "١٢", str(MAX_CAP + 1)])
def test_anything_else_is_an_error_of_its_field(typed):
    cap, errors = read_cap_fields("5", typed)
    assert cap is None and set(errors) == {"monthly"} and "whole number" in errors["monthly"]


def test_the_rows_are_the_account_then_each_active_key():
    created = datetime(2030, 1, 1, tzinfo=UTC)
    live = KeyRecord("key_a", "acct_1", "0" * 64, "AAAA", created, name="web")
    revoked = KeyRecord("key_b", "acct_1", "1" * 64, "BBBB", created, revoked_at=created)
    status = (
        SpendBook().with_cap("key_a", SpendCap(monthly=9), created.timestamp()).status("acct_1", created.timestamp())
    )
    rows = cap_rows(status, [live, revoked])
    assert [(row["scope"], row["label"]) for row in rows] == [
        ("account", "The whole account (every key)"),
        ("key_a", "Key web"),
    ]
    assert rows[1]["monthly"]["cap"] == 9 and rows[0]["daily"]["cap"] is None
