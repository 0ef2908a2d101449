"""The SQLite store's keys: records by hash and by id, and the change log every gateway polls."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from datetime import datetime

from store.bounds import require_future_expiry, validate_key_name
from store.errors import KeyNotActive, StoreError, no_such_key
from store.key_format import KeyMode, generate_key, hash_key, new_key_id, prefix_hint
from store.origins import validate_origins
from store.records import KeyRecord, from_unix_s, to_unix_s
from store.sqlite_connection import SqliteConnection, immediate

#: How often :meth:`SqliteStore.key_changes` reads the change log, in seconds.
KEY_CHANGE_POLL_S = 0.2
#: How long key change rows are kept, in seconds: a follower suspended for longer than this
#: is told it may have missed changes (None) instead of being replayed every one.
KEY_CHANGE_RETENTION_S = 3600.0

_KEY_COLUMNS = (
    "key_id, account_id, key_hash, prefix_hint, created_at_s, expires_at_s, revoked_at_s,"
    " allowed_origins, browser_only, name, mode"
)

_ONE_KEY = "key_id = ?"
LIVE_KEYS_OF_ACCOUNT = "account_id = ? AND revoked_at_s IS NULL"


def log_key_changes(conn: sqlite3.Connection, now_s: float, which: str, value: str) -> None:
    """Add the keys matching ``which`` (``_ONE_KEY`` or ``LIVE_KEYS_OF_ACCOUNT``, bound to
    ``value``) to the change log; call it inside the write transaction that changed them."""
    conn.execute(
        f"INSERT INTO key_changes (key_hash, changed_at_s) SELECT key_hash, ? FROM api_keys WHERE {which}",
        (now_s, value),
    )
    # Key writes are rare (admin actions), so purging here costs requests nothing. The newest
    # row always stays: it is what lets a follower tell purged rows from no rows.
    conn.execute(
        "DELETE FROM key_changes WHERE changed_at_s < ? AND id < (SELECT MAX(id) FROM key_changes)",
        (now_s - KEY_CHANGE_RETENTION_S,),
    )


def _key_where(conn: sqlite3.Connection, column: str, value: str) -> KeyRecord | None:
    """Return the key whose ``column`` (``key_id`` or ``key_hash``, both unique) is ``value``."""
    row = conn.execute(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE {column} = ?", (value,)).fetchone()
    return None if row is None else _key(row)


def _key(row: tuple) -> KeyRecord:
    return KeyRecord(
        key_id=row[0],
        account_id=row[1],
        key_hash=row[2],
        prefix_hint=row[3],
        created_at=from_unix_s(row[4]),
        expires_at=from_unix_s(row[5]),
        revoked_at=from_unix_s(row[6]),
        allowed_origins=tuple(json.loads(row[7])),
        browser_only=bool(row[8]),
        name=row[9],
        mode=row[10],
    )


class SqliteKeys(SqliteConnection):
    """API keys and their change log (the store's :class:`~store.interfaces.Keys`)."""

    async def create_key(
        self,
        account: str,
        *,
        expires_at: datetime | None = None,
        allowed_origins: Iterable[str] = (),
        browser_only: bool = False,
        name: str = "",
        mode: KeyMode = "live",
    ) -> tuple[str, KeyRecord]:
        expires_at = require_future_expiry(expires_at)
        origins = validate_origins(allowed_origins)
        name = validate_key_name(name)
        plain = generate_key(mode)
        key_id = new_key_id()
        record = await self._run(
            self._create_key, account, key_id, plain, expires_at, origins, bool(browser_only), name, mode
        )
        return plain, record

    @classmethod
    def _create_key(cls, conn, account, key_id, plain, expires_at, origins, browser_only, name, mode) -> KeyRecord:
        now_s = time.time()
        with immediate(conn):
            account_id = cls._account_id(conn, account)
            conn.execute(
                f"INSERT INTO api_keys ({_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
                (
                    key_id,
                    account_id,
                    hash_key(plain),
                    prefix_hint(plain),
                    now_s,
                    to_unix_s(expires_at),
                    json.dumps(list(origins)),
                    int(browser_only),
                    name,
                    mode,
                ),
            )
            log_key_changes(conn, now_s, _ONE_KEY, key_id)
            return cls._key_by_id(conn, key_id)

    @staticmethod
    def _key_by_id(conn, key_id: str) -> KeyRecord | None:
        return _key_where(conn, "key_id", key_id)

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        return await self._run(_key_where, "key_hash", key_hash)

    async def get_key(self, key_id: str) -> KeyRecord | None:
        return await self._run(self._key_by_id, key_id)

    async def revoke_key(self, key_id: str) -> KeyRecord:
        return await self._run(self._revoke_key, key_id)

    @classmethod
    def _revoke_key(cls, conn, key_id: str) -> KeyRecord:
        now_s = time.time()
        with immediate(conn):
            # COALESCE keeps the first revocation time when a key is revoked twice.
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at_s = COALESCE(revoked_at_s, ?) WHERE key_id = ?",
                (now_s, key_id),
            )
            if cursor.rowcount == 0:
                raise no_such_key(key_id)
            log_key_changes(conn, now_s, _ONE_KEY, key_id)
            return cls._key_by_id(conn, key_id)

    async def update_origins(self, key_id: str, origins: Iterable[str], browser_only: bool | None = None) -> KeyRecord:
        checked = validate_origins(origins)
        return await self._run(self._update_origins, key_id, checked, browser_only)

    @classmethod
    def _update_origins(cls, conn, key_id: str, origins: tuple[str, ...], browser_only: bool | None) -> KeyRecord:
        with immediate(conn):
            record = cls._key_by_id(conn, key_id)
            if record is None:
                raise no_such_key(key_id)
            state = record.state()
            if state != "active":
                raise KeyNotActive(f"key {key_id} is {state}; only an active key's origins can change")
            conn.execute(
                "UPDATE api_keys SET allowed_origins = ?, browser_only = COALESCE(?, browser_only) WHERE key_id = ?",
                (json.dumps(list(origins)), None if browser_only is None else int(browser_only), key_id),
            )
            log_key_changes(conn, time.time(), _ONE_KEY, key_id)
            return cls._key_by_id(conn, key_id)

    async def list_keys(self, account: str) -> list[KeyRecord]:
        return await self._run(self._list_keys, account)

    @classmethod
    def _list_keys(cls, conn, account: str) -> list[KeyRecord]:
        account_id = cls._account_id(conn, account)
        rows = conn.execute(
            f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at_s, key_id",
            (account_id,),
        ).fetchall()
        return [_key(row) for row in rows]

    def key_changes(self) -> AsyncIterator[str | None]:
        """Return an async iterator of the hashes of keys changed from now on by any process
        sharing the file; None means changes may have been missed. It ends when the store closes.

        The change log is read every KEY_CHANGE_POLL_S seconds (one indexed read, nothing when
        idle but that), so a change is seen within about 0.2 s. The starting point is taken by
        this call, so a change made after it is reported even before the first ``__anext__``.
        """
        if self._closed:
            return self._follow_key_changes(None)
        return self._follow_key_changes(self._latest_key_change(self._conn()))

    @staticmethod
    def _latest_key_change(conn) -> int:
        return conn.execute("SELECT COALESCE(MAX(id), 0) FROM key_changes").fetchone()[0]

    @staticmethod
    def _key_changes_after(conn, after_id: int) -> list[tuple[int, str]]:
        return conn.execute("SELECT id, key_hash FROM key_changes WHERE id > ? ORDER BY id", (after_id,)).fetchall()

    async def _follow_key_changes(self, after_id: int | None) -> AsyncIterator[str | None]:
        """Yield the hash of each change-log row after ``after_id``, or None for a gap (rows
        purged unseen), until the store closes. ``after_id`` None: the store was already closed."""
        if after_id is None:
            return
        loop = asyncio.get_running_loop()
        stopped = loop.create_future()
        follower = (loop, stopped)
        with self._connections_lock:
            if self._closed:
                return
            self._followers.add(follower)
        try:
            while True:
                await asyncio.wait((stopped,), timeout=KEY_CHANGE_POLL_S)
                if self._closed:
                    return
                try:
                    changes = await self._run(self._key_changes_after, after_id)
                except (StoreError, sqlite3.Error):
                    if self._closed:
                        return  # closed from another thread while this read ran
                    raise
                if not changes:
                    continue
                first_missing = changes[-1][0] - after_id != len(changes)
                if first_missing:
                    after_id = changes[-1][0]
                    yield None
                    continue
                for change_id, key_hash in changes:
                    after_id = change_id
                    yield key_hash
        finally:
            with self._connections_lock:
                self._followers.discard(follower)
