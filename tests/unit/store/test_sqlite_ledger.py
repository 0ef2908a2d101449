"""store/sqlite_ledger.py: the SQLite store's accounts and credit ledger as the file keeps them:
every change of a balance is one ledger row keyed by (request id, kind), the opening balance
included, so the balance always equals top-ups - debits + refunds.

References: docs/stores.md, store/records.py's docstring (a retried debit, refund or top-up is
applied once), the schema's comments (store/sqlite_connection.py). The file is read with a
plain sqlite3 connection.
"""

from __future__ import annotations

import pytest

from shared.errors import InsufficientCredits
from store.records import ChargeNote
from tests.unit.store.sqlite_files import rows, with_store


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.sqlite3"


def test_the_opening_balance_is_a_top_up_row_and_an_empty_account_has_none(path):
    async def scenario(store):
        return (await store.create_account("acme", 100)).id, (await store.create_account("empty", 0)).id

    acme, empty = with_store(path, scenario)
    assert rows(path, "SELECT request_id, kind, credits, reason FROM ledger WHERE account_id = ?", acme) == [
        (f"open:{acme}", "topup", 100, "opening balance")
    ]
    assert rows(path, "SELECT * FROM ledger WHERE account_id = ?", empty) == []


def test_the_balance_is_always_top_ups_less_debits_plus_refunds(path):
    async def scenario(store):
        account = await store.create_account("acme", 100)
        await store.reserve(account.id, 30, "req-1")
        await store.reserve(account.id, 20, "req-2")
        await store.refund(account.id, 20, "req-2")
        await store.top_up("acme", 5, request_id="inv-1")
        return account.id

    account_id = with_store(path, scenario)
    totals = dict(rows(path, "SELECT kind, SUM(credits) FROM ledger WHERE account_id = ? GROUP BY kind", account_id))
    (balance,) = rows(path, "SELECT balance FROM accounts WHERE id = ?", account_id)[0]
    assert balance == 100 - 30 - 20 + 20 + 5 == totals["topup"] - totals["debit"] + totals["refund"]


def test_a_debit_is_one_row_with_its_note_however_often_it_is_retried(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        note = ChargeNote("/v1/positions", "key_0123", "client-req-9")
        for _ in range(3):
            await store.reserve(account.id, 4, "req-1", note)
        return account.id

    account_id = with_store(path, scenario)
    assert rows(
        path, "SELECT request_id, credits, endpoint, key_id, http_request_id FROM ledger WHERE kind = 'debit'"
    ) == [("req-1", 4, "/v1/positions", "key_0123", "client-req-9")]
    assert rows(path, "SELECT balance FROM accounts WHERE id = ?", account_id) == [(6,)]


def test_a_debit_refused_for_want_of_credits_leaves_no_row(path):
    async def scenario(store):
        account = await store.create_account("acme", 3)
        with pytest.raises(InsufficientCredits):
            await store.reserve(account.id, 4, "req-1")
        return account.id

    with_store(path, scenario)
    assert rows(path, "SELECT * FROM ledger WHERE kind = 'debit'") == []


def test_a_top_up_without_a_request_id_gets_one_of_its_own_each_time(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        await store.top_up("acme", 5)
        return await store.top_up("acme", 5)

    assert with_store(path, scenario) == 10
    ids = [row[0] for row in rows(path, "SELECT request_id FROM ledger WHERE kind = 'topup'")]
    assert len(ids) == 2 and len(set(ids)) == 2 and all(i.startswith("topup:") for i in ids)


def test_a_top_up_keeps_its_reason(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        await store.top_up("acme", 5, request_id="inv-7", reason="invoice 7")

    with_store(path, scenario)
    assert rows(path, "SELECT reason FROM ledger WHERE request_id = 'inv-7'") == [("invoice 7",)]


def test_an_account_is_found_by_its_name_in_any_case_as_names_are_unique_in_any_case(path):
    async def scenario(store):
        account = await store.create_account("Acme", 0)
        return account, await store.get_account("Acme"), await store.get_account("acme")

    account, by_name, by_other_case = with_store(path, scenario)
    assert by_name == account == by_other_case
