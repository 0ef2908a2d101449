"""The SQLite store's ``Idempotency-Key`` records: one table, each claim, completion and
release one write, committed with the other writes of its turn of the event loop
(``store/sqlite_connection.py``'s group commit; the rules: ``store/idempotency_records.py``).

The table is created by this module when a file lacks it, not by the schema version of
``sqlite_connection.py``: it stands apart from every other table (no foreign key, nothing
else reads it), so a file of any version gains it on first open and an older release
opening the file simply ignores it. Expired rows are deleted by the claims of each process,
at most once per PRUNE_EVERY_S, through the index on their expiry.
"""

from __future__ import annotations

import sqlite3
import time

import orjson

from store.idempotency_records import IdempotencyRecord, StoredAnswer, check_answer, key_digest, may_take, new_claim
from store.sqlite_connection import SqliteConnection, immediate

#: How often (seconds) one process deletes the expired records: often enough that the table
#: holds about a day of keys, rarely enough to cost nothing per request.
PRUNE_EVERY_S = 60.0

_TABLE = """
CREATE TABLE IF NOT EXISTS idempotency (
    account_id      TEXT NOT NULL,
    key_digest      TEXT NOT NULL,             -- SHA-256 hex of the Idempotency-Key
    fingerprint     TEXT NOT NULL,             -- the request's (gateway/idempotency.py)
    claim_id        TEXT NOT NULL,
    lease_until_s   REAL NOT NULL,             -- Unix seconds: past it an unanswered claim may be taken over
    expires_at_s    REAL NOT NULL,             -- Unix seconds: past it the record counts for nothing
    status          INTEGER,                   -- NULL while the request runs
    headers         BLOB,                      -- JSON [[name, value], ...]
    body            BLOB,
    recompute       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, key_digest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_by_expiry ON idempotency(expires_at_s)
"""


def _record(row) -> IdempotencyRecord | None:
    if row is None:
        return None
    fingerprint, claim_id, lease_until_s, expires_at_s, status, headers, body, recompute = row
    answer = (
        None
        if status is None
        else StoredAnswer(
            status, tuple((name, value) for name, value in orjson.loads(headers)), bytes(body), bool(recompute)
        )
    )
    return IdempotencyRecord(fingerprint, claim_id, lease_until_s, expires_at_s, answer)


_INSERT = (
    "INSERT INTO idempotency (account_id, key_digest, fingerprint, claim_id, lease_until_s, expires_at_s)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_SELECT = (
    "SELECT fingerprint, claim_id, lease_until_s, expires_at_s, status, headers, body, recompute"
    " FROM idempotency WHERE account_id = ? AND key_digest = ?"
)


class SqliteIdempotency(SqliteConnection):
    """``Idempotency-Key`` records (the store's :class:`~store.interfaces.IdempotencyRecords`)."""

    _pruned_at_s = 0.0

    def _create_schema(self) -> None:
        super()._create_schema()
        conn = self._open(timeout_s=max(self._lock_wait_s, 5.0))
        try:
            if (
                conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'idempotency'").fetchone()
                is None
            ):
                with immediate(conn):
                    for statement in _TABLE.split(";"):
                        conn.execute(statement)
        finally:
            conn.close()

    async def claim_idempotency(
        self, account_id: str, key: str, fingerprint: str, claim_id: str, lease_s: float, now_s: float | None = None
    ) -> IdempotencyRecord:
        now_s = time.time() if now_s is None else now_s
        claim = new_claim(fingerprint, claim_id, lease_s, now_s)
        prune = now_s - self._pruned_at_s >= PRUNE_EVERY_S
        if prune:
            self._pruned_at_s = now_s
        return await self._write(self._claim_key, account_id, key_digest(key), claim, now_s, prune)

    @staticmethod
    def _claim_key(
        conn: sqlite3.Connection, account_id: str, digest: str, claim: IdempotencyRecord, now_s: float, prune: bool
    ) -> IdempotencyRecord:
        if prune:
            conn.execute("DELETE FROM idempotency WHERE expires_at_s <= ?", (now_s,))
        row = (account_id, digest, claim.fingerprint, claim.claim_id, claim.lease_until_s, claim.expires_at_s)
        # A new key (the common case) is one statement; a key in use is read, and replaced
        # only when the rules let this claim take it.
        if conn.execute(_INSERT + " ON CONFLICT DO NOTHING", row).rowcount == 1:
            return claim
        existing = _record(conn.execute(_SELECT, (account_id, digest)).fetchone())
        if not may_take(existing, now_s):
            return existing
        conn.execute(_INSERT.replace("INSERT", "INSERT OR REPLACE", 1), row)
        return claim

    async def complete_idempotency(
        self, account_id: str, key: str, claim_id: str, answer: StoredAnswer, now_s: float | None = None
    ) -> bool:
        check_answer(answer)
        now_s = time.time() if now_s is None else now_s
        return await self._write(self._complete_key, account_id, key_digest(key), claim_id, answer, now_s)

    @staticmethod
    def _complete_key(
        conn: sqlite3.Connection, account_id: str, digest: str, claim_id: str, answer: StoredAnswer, now_s: float
    ) -> bool:
        changed = conn.execute(
            "UPDATE idempotency SET status = ?, headers = ?, body = ?, recompute = ?"
            " WHERE account_id = ? AND key_digest = ? AND claim_id = ? AND status IS NULL AND expires_at_s > ?",
            (
                answer.status,
                orjson.dumps(answer.headers),
                answer.body,
                int(answer.recompute),
                account_id,
                digest,
                claim_id,
                now_s,
            ),
        ).rowcount
        return changed == 1

    async def release_idempotency(self, account_id: str, key: str, claim_id: str) -> None:
        await self._write(self._release_key, account_id, key_digest(key), claim_id)

    @staticmethod
    def _release_key(conn: sqlite3.Connection, account_id: str, digest: str, claim_id: str) -> None:
        conn.execute(
            "DELETE FROM idempotency WHERE account_id = ? AND key_digest = ? AND claim_id = ? AND status IS NULL",
            (account_id, digest, claim_id),
        )
