"""store/sqlite_keys.py: the SQLite store's keys as the file keeps them (the hash and hint, never
the key), and the change log every gateway polls: a row per key write, purged after an hour
but for the newest, a gap reported as None.

References: docs/stores.md (every gateway follows key changes within about a second; a key is
kept as its SHA-256 hash), the schema's comments (store/sqlite_connection.py). The file is read
with a plain sqlite3 connection.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time

import pytest

from store.sqlite_keys import (
    KEY_CHANGE_RETENTION_S,
    LIVE_KEYS_OF_ACCOUNT,
    log_key_changes,
)
from store.sqlite_store import SqliteStore
from tests.unit.store.sqlite_files import rows, with_store


@pytest.fixture
def path(tmp_path):
    return tmp_path / "store.sqlite3"


def test_a_key_row_holds_its_sha256_and_hint_and_the_key_appears_nowhere_in_it(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        return await store.create_key("acme", allowed_origins=["https://a.example"], name="web")

    plain, _ = with_store(path, scenario)
    ((key_hash, hint, origins, name, *rest),) = rows(
        path, "SELECT key_hash, prefix_hint, allowed_origins, name, * FROM api_keys"
    )
    assert key_hash == hashlib.sha256(plain.encode()).hexdigest()
    assert hint == plain[9:13]
    assert json.loads(origins) == ["https://a.example"] and name == "web"
    assert not any(plain[9:] in str(value) for value in rest)


def test_creating_revoking_and_changing_a_key_each_log_its_hash(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        plain, record = await store.create_key("acme")
        await store.update_origins(record.key_id, ["https://a.example"])
        await store.revoke_key(record.key_id)
        return plain

    plain = with_store(path, scenario)
    logged = rows(path, "SELECT key_hash FROM key_changes ORDER BY id")
    assert logged == [(hashlib.sha256(plain.encode()).hexdigest(),)] * 3


def test_new_limits_log_each_live_key_of_the_account_and_no_revoked_one(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        live, _ = await store.create_key("acme")
        _, revoked = await store.create_key("acme")
        await store.revoke_key(revoked.key_id)
        before = rows(path, "SELECT MAX(id) FROM key_changes")[0][0]
        await store.set_limits("acme", rate_per_minute=5)
        return live, before

    live, before = with_store(path, scenario)
    assert rows(path, "SELECT key_hash FROM key_changes WHERE id > ?", before) == [
        (hashlib.sha256(live.encode()).hexdigest(),)
    ]


def test_change_rows_older_than_the_retention_are_purged_but_the_newest_stays(path):
    SqliteStore(path).close_sync()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(
            "INSERT INTO accounts (id, name, balance, rate_per_minute, max_concurrent, created_at_s) VALUES "
            "('acct_1', 'acme', 0, 1, 1, 0)"
        )
        conn.execute(
            "INSERT INTO api_keys (key_id, account_id, key_hash, prefix_hint, created_at_s) VALUES ('key_1', "
            "'acct_1', 'h1', 'AAAA', 0)"
        )
        t0 = time.time()
        log_key_changes(conn, t0, "key_id = ?", "key_1")
        log_key_changes(conn, t0 + KEY_CHANGE_RETENTION_S + 1, "key_id = ?", "key_1")
        assert conn.execute("SELECT changed_at_s FROM key_changes").fetchall() == [(t0 + KEY_CHANGE_RETENTION_S + 1,)]
        # A later write that changes no key purges everything older but the newest row.
        log_key_changes(conn, t0 + 10 * KEY_CHANGE_RETENTION_S, "key_id = ?", "no-such-key")
        assert conn.execute("SELECT changed_at_s FROM key_changes").fetchall() == [(t0 + KEY_CHANGE_RETENTION_S + 1,)]
        log_key_changes(conn, t0 + KEY_CHANGE_RETENTION_S + 2, LIVE_KEYS_OF_ACCOUNT, "acct_1")
        assert conn.execute("SELECT COUNT(*) FROM key_changes").fetchone()[0] == 2  # within the retention: kept
    finally:
        conn.close()


def test_a_follower_that_missed_purged_changes_is_told_with_none(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        await store.create_key("acme")
        feed = store.key_changes()
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            # Rows written and purged while the follower slept: the ids it sees next skip some.
            for _ in range(3):
                conn.execute("INSERT INTO key_changes (key_hash, changed_at_s) VALUES ('gone', 0)")
            conn.execute("DELETE FROM key_changes WHERE key_hash = 'gone' AND id < (SELECT MAX(id) FROM key_changes)")
        finally:
            conn.close()
        return await asyncio.wait_for(feed.__anext__(), 5)

    assert with_store(path, scenario) is None


def test_a_follower_reports_each_change_made_after_it_started_in_order(path):
    async def scenario(store):
        await store.create_account("acme", 0)
        await store.create_key("acme")
        feed = store.key_changes()
        second, _ = await store.create_key("acme")
        third, _ = await store.create_key("acme")
        seen = [await asyncio.wait_for(feed.__anext__(), 5) for _ in range(2)]
        return seen, second, third

    seen, second, third = with_store(path, scenario)
    assert seen == [hashlib.sha256(second.encode()).hexdigest(), hashlib.sha256(third.encode()).hexdigest()]
