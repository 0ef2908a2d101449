"""store/sqlite_owners.py: the dashboard's owners, sessions and sign-in throttles as the SQLite
file keeps them (digests and hashes, never a secret), and the ledger rows an owner sees.

References: store/owner_records.py's docstring (no record holds a secret), docs/stores.md, the
schema's comments (store/sqlite_connection.py). The file is read with a plain sqlite3 connection.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from store.errors import AccountNotFound
from store.owner_records import digest_secret
from tests.unit.store.sqlite_files import rows, with_store

NOW = datetime(2030, 1, 1, tzinfo=UTC)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.sqlite3"


def test_an_invite_and_a_session_are_kept_as_digests_of_their_secrets(path):
    invite_secret, session_secret = "invite-secret-0123456789", "session-secret-0123456789"

    async def scenario(store):
        await store.create_account("acme", 0)
        owner = await store.invite_owner(
            "acme", "Ada@Example.com", digest_secret(invite_secret), NOW + timedelta(days=7)
        )
        await store.create_session(owner.owner_id, digest_secret(session_secret), NOW)
        return owner

    owner = with_store(path, scenario)
    assert rows(path, "SELECT email, invite_digest, invite_expires_at_s FROM owners") == [
        ("ada@example.com", digest_secret(invite_secret), (NOW + timedelta(days=7)).timestamp())
    ]
    assert rows(path, "SELECT owner_id, secret_digest FROM sessions") == [
        (owner.owner_id, digest_secret(session_secret))
    ]
    conn = sqlite3.connect(path)
    try:
        dump = "\n".join(conn.iterdump())
    finally:
        conn.close()
    assert invite_secret not in dump and session_secret not in dump


def test_a_touch_never_moves_last_seen_backwards(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        owner = await store.invite_owner("acme", "a@b.co", "d", NOW + timedelta(days=1))
        session = await store.create_session(owner.owner_id, "s", NOW)
        await store.touch_session(session.session_id, NOW + timedelta(minutes=5))
        await store.touch_session(session.session_id, NOW + timedelta(minutes=1))
        return session.session_id

    with_store(path, scenario)
    assert rows(path, "SELECT last_seen_at_s FROM sessions") == [((NOW + timedelta(minutes=5)).timestamp(),)]


def test_an_ended_session_and_a_cleared_throttle_leave_no_row(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        owner = await store.invite_owner("acme", "a@b.co", "d", NOW + timedelta(days=1))
        session = await store.create_session(owner.owner_id, "s", NOW)
        await store.record_sign_in_failure("email:a@b.co", 1000.0, 60, 5, 300)
        assert rows(path, "SELECT subject, failures FROM sign_in_throttles") == [("email:a@b.co", 1)]
        await store.end_session(session.session_id)
        await store.clear_sign_in_throttle("email:a@b.co")

    with_store(path, scenario)
    assert rows(path, "SELECT * FROM sessions") == [] and rows(path, "SELECT * FROM sign_in_throttles") == []


def test_ledger_entries_come_oldest_first_from_the_moment_given(path):
    async def scenario(store):
        account = await store.create_account("acme", 10)
        await store.reserve(account.id, 2, "req-1")
        await store.refund(account.id, 2, "req-1")
        return account.id, await store.ledger_entries(account.id, NOW - timedelta(days=36500))

    account_id, entries = with_store(path, scenario)
    assert [(e.kind, e.credits, e.request_id) for e in entries] == [
        ("topup", 10, f"open:{account_id}"),
        ("debit", 2, "req-1"),
        ("refund", 2, "req-1"),
    ]
    assert [e.at for e in entries] == sorted(e.at for e in entries)
    assert (
        with_store(path, lambda store: store.ledger_entries(account_id, datetime.now(UTC) + timedelta(seconds=5))) == []
    )


def test_ledger_entries_of_an_unknown_account_raise_account_not_found(path):
    async def scenario(store):
        with pytest.raises(AccountNotFound):
            await store.ledger_entries("acct_missing", NOW)

    with_store(path, scenario)
