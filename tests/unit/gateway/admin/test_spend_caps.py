"""gateway/admin/spend_caps.py: the spend-cap views every interface shows (per period the cap,
null for none, what was spent and the ISO 8601 UTC instant it resets), and the change they
all make: a period given is set, None clears it, one not given is kept."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gateway.admin.spend_caps import KEEP, change_account_cap, change_key_cap, changed_cap, line_view, spend_view
from store.errors import AccountNotFound, KeyNotFound
from store.spend_caps import SpendBook, SpendCap
from store.sqlite_store import SqliteStore

NOON = datetime(2030, 12, 31, 12, 0, tzinfo=UTC).timestamp()


def test_a_line_shows_each_periods_cap_spent_and_reset():
    book, _ = SpendBook().with_cap("", SpendCap(daily=5), NOON).debit("acct_1", "key_a", 2, NOON)
    status = book.status("acct_1", NOON)
    assert line_view(status.account, status) == {
        "daily": {"cap": 5, "spent": 2, "resets_at": "2031-01-01T00:00:00.000Z"},
        "monthly": {"cap": None, "spent": 2, "resets_at": "2031-01-01T00:00:00.000Z"},
    }
    assert spend_view(status)["keys"] == [{"key_id": "key_a", **line_view(status.key("key_a"), status)}]


def test_a_change_sets_the_periods_given_clears_none_and_keeps_the_rest():
    current = SpendCap(daily=5, monthly=50)
    assert changed_cap(current, daily=7) == SpendCap(7, 50)
    assert changed_cap(current, monthly=None) == SpendCap(5, None)
    assert changed_cap(current, KEEP, KEEP) == current


def test_changes_reach_the_store_for_the_account_and_for_its_key(tmp_path: Path):
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "store.sqlite")
        try:
            await store.create_account("acme", 10)
            _, key = await store.create_key("acme")
            await change_account_cap(store, "acme", daily=3)
            await change_account_cap(store, "acme", monthly=30)
            status = await change_key_cap(store, key.key_id, daily=1)
            assert status.account.cap == SpendCap(3, 30) and status.key(key.key_id).cap == SpendCap(daily=1)
            with pytest.raises(AccountNotFound):
                await change_account_cap(store, "nobody", daily=1)
            with pytest.raises(KeyNotFound):
                await change_key_cap(store, "key_missing", daily=1)
        finally:
            await store.close()

    asyncio.run(scenario())
