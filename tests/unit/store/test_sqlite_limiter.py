"""store/sqlite_limiter.py: the SQLite store's rate windows and concurrency slots as the file
keeps them: one window row per account (a newer window overwrites it), a slot row held for the
lease with the charges made under it, a release deleting both, a lapsed slot purged by the
next admission.

References: docs/stores.md (a slot carries its charges; a lapsed slot's charges are refunded
by the next admission), store/records.py (RATE_WINDOW_S, SLOT_LEASE_S), the schema's comments
(store/sqlite_connection.py). The file is read with a plain sqlite3 connection.
"""

from __future__ import annotations

import pytest

from store.records import SLOT_LEASE_S
from tests.unit.store.sqlite_files import rows, with_store

NOW = 1_700_000_010.0  # 30 s into the window that starts at 1_699_999_980 (a multiple of 60)
WINDOW_START = 1_699_999_980


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.sqlite3"


def test_an_account_has_one_window_row_which_a_newer_window_overwrites(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        for slot in ("a", "b"):
            await store.admit(account, slot, NOW)
        before = rows(path, "SELECT window_start_s, admitted FROM rate_windows")
        await store.admit(account, "c", NOW + 60)
        return before

    before = with_store(path, scenario)
    assert before == [(WINDOW_START, 2)]
    assert rows(path, "SELECT window_start_s, admitted FROM rate_windows") == [(WINDOW_START + 60, 1)]


def test_an_admitted_request_holds_a_slot_row_for_the_lease_with_its_charge(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "slot-1", 3, "req-1", NOW)

    with_store(path, scenario)
    assert rows(path, "SELECT slot_id, expires_at_s FROM slots") == [("slot-1", NOW + SLOT_LEASE_S)]
    assert rows(path, "SELECT slot_id, charge_id, credits FROM slot_charges") == [("slot-1", "req-1", 3)]


def test_charges_held_under_a_slot_are_rows_of_it_and_a_slot_not_held_records_none(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        await store.admit(account, "batch", NOW)
        await store.hold_charge(account.id, "batch", ("item-1", 1))
        await store.hold_charge(account.id, "batch", ("item-1", 1))
        await store.hold_charge(account.id, "batch", ("item-2", 2))
        await store.hold_charge(account.id, "never-held", ("item-3", 1))

    with_store(path, scenario)
    assert rows(path, "SELECT slot_id, charge_id, credits FROM slot_charges ORDER BY charge_id") == [
        ("batch", "item-1", 1),
        ("batch", "item-2", 2),
    ]


def test_a_release_deletes_the_slot_and_its_charges_and_the_charge_stands(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "slot-1", 3, "req-1", NOW)
        await store.release(account.id, "slot-1")
        return await store.balance(account.id)

    assert with_store(path, scenario) == 7
    assert rows(path, "SELECT * FROM slots") == [] and rows(path, "SELECT * FROM slot_charges") == []


def test_a_refused_admission_writes_no_row(path):
    async def scenario(store):
        account = await store.create_account("acme", 10, max_concurrent=1)
        await store.admit(account, "held", NOW)
        refused = await store.admit(account, "refused", NOW)
        assert refused.reason == "concurrency"

    with_store(path, scenario)
    assert rows(path, "SELECT slot_id FROM slots") == [("held",)]
    assert rows(path, "SELECT admitted FROM rate_windows") == [(1,)]


def test_the_next_admission_purges_lapsed_slots_and_refunds_their_charges_in_the_ledger(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        await store.admit_and_reserve(account, "dead", 3, "req-dead", NOW)
        await store.admit(account, "next", NOW + SLOT_LEASE_S)
        return account.id

    account_id = with_store(path, scenario)
    assert rows(path, "SELECT slot_id FROM slots") == [("next",)]
    assert rows(path, "SELECT * FROM slot_charges") == []
    assert rows(path, "SELECT credits FROM ledger WHERE request_id = 'req-dead' AND kind = 'refund'") == [(3,)]
    assert rows(path, "SELECT balance FROM accounts WHERE id = ?", account_id) == [(10,)]


def test_set_limits_changes_only_the_limits_given_in_the_file(path):
    async def scenario(store):
        await store.create_account("acme", 0, rate_per_minute=100, max_concurrent=7)
        await store.set_limits("acme", max_concurrent=3)

    with_store(path, scenario)
    assert rows(path, "SELECT rate_per_minute, max_concurrent FROM accounts") == [(100, 3)]
