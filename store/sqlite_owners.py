"""The SQLite store's dashboard state: owners (invites, passwords), sessions, sign-in
throttles, and an account's ledger rows; each write one ``BEGIN IMMEDIATE`` transaction."""

from __future__ import annotations

import time
from datetime import datetime

from store.bounds import require_aware
from store.owner_records import (
    InviteNotValid,
    OwnerElsewhere,
    OwnerNotFound,
    OwnerRecord,
    SessionRecord,
    SignInThrottle,
    new_owner_id,
    new_session_id,
    normalize_email,
    same_digest,
)
from store.records import ChargeNote, LedgerEntry, from_unix_s, to_unix_s
from store.sqlite_connection import SqliteConnection, immediate

_OWNER_COLUMNS = (
    "owner_id, account_id, email, created_at_s, password_hash, invite_digest, invite_expires_at_s, session_epoch"
)
_SESSION_COLUMNS = "session_id, owner_id, secret_digest, session_epoch, created_at_s, last_seen_at_s"


def _owner(row: tuple | None) -> OwnerRecord | None:
    if row is None:
        return None
    return OwnerRecord(
        owner_id=row[0],
        account_id=row[1],
        email=row[2],
        created_at=from_unix_s(row[3]),
        password_hash=row[4],
        invite_digest=row[5],
        invite_expires_at=from_unix_s(row[6]),
        session_epoch=row[7],
    )


def _owner_where(conn, column: str, value: str) -> OwnerRecord | None:
    """Return the owner whose ``column`` (``owner_id`` or ``email``, both unique) is ``value``."""
    return _owner(conn.execute(f"SELECT {_OWNER_COLUMNS} FROM owners WHERE {column} = ?", (value,)).fetchone())


class SqliteOwners(SqliteConnection):
    """Owners, sessions and sign-in throttles (the store's :class:`~store.interfaces.Owners`)
    and the ledger's rows (:class:`~store.interfaces.LedgerHistory`)."""

    async def invite_owner(self, account: str, email: str, invite_digest: str, expires_at: datetime) -> OwnerRecord:
        email = normalize_email(email)
        expires_at = require_aware(expires_at, "expires_at")
        return await self._run(self._invite_owner, account, email, invite_digest, to_unix_s(expires_at))

    @classmethod
    def _invite_owner(cls, conn, account: str, email: str, invite_digest: str, expires_at_s: float) -> OwnerRecord:
        with immediate(conn):
            account_id = cls._account_id(conn, account)
            owner = _owner_where(conn, "email", email)
            if owner is None:
                owner_id = new_owner_id()
                conn.execute(
                    f"INSERT INTO owners ({_OWNER_COLUMNS}) VALUES (?, ?, ?, ?, NULL, ?, ?, 0)",
                    (owner_id, account_id, email, time.time(), invite_digest, expires_at_s),
                )
            elif owner.account_id != account_id:
                raise OwnerElsewhere(f"{email} already owns another account")
            else:
                owner_id = owner.owner_id
                conn.execute(
                    "UPDATE owners SET invite_digest = ?, invite_expires_at_s = ? WHERE owner_id = ?",
                    (invite_digest, expires_at_s, owner_id),
                )
            return _owner_where(conn, "owner_id", owner_id)

    async def get_owner(self, owner_id: str) -> OwnerRecord | None:
        return await self._run(_owner_where, "owner_id", owner_id)

    async def find_owner_by_email(self, email: str) -> OwnerRecord | None:
        try:
            folded = normalize_email(email)
        except ValueError:
            return None
        return await self._run(_owner_where, "email", folded)

    async def list_owners(self, account: str) -> list[OwnerRecord]:
        return await self._run(self._list_owners, account)

    @classmethod
    def _list_owners(cls, conn, account: str) -> list[OwnerRecord]:
        account_id = cls._account_id(conn, account)
        rows = conn.execute(
            f"SELECT {_OWNER_COLUMNS} FROM owners WHERE account_id = ? ORDER BY created_at_s, owner_id", (account_id,)
        ).fetchall()
        return [_owner(row) for row in rows]

    async def redeem_invite(self, owner_id: str, invite_digest: str, password_hash: str, now: datetime) -> OwnerRecord:
        return await self._run(self._redeem_invite, owner_id, invite_digest, password_hash, now.timestamp())

    @staticmethod
    def _redeem_invite(conn, owner_id: str, invite_digest: str, password_hash: str, now_s: float) -> OwnerRecord:
        with immediate(conn):
            owner = _owner_where(conn, "owner_id", owner_id)
            if (
                owner is None
                or not same_digest(owner.invite_digest, invite_digest)
                or owner.invite_expires_at is None
                or owner.invite_expires_at.timestamp() <= now_s
            ):
                raise InviteNotValid("this invite link is unknown, used or expired")
            conn.execute(
                "UPDATE owners SET password_hash = ?, invite_digest = NULL, invite_expires_at_s = NULL,"
                " session_epoch = session_epoch + 1 WHERE owner_id = ?",
                (password_hash, owner_id),
            )
            return _owner_where(conn, "owner_id", owner_id)

    async def set_password(self, owner_id: str, password_hash: str) -> OwnerRecord:
        return await self._run(self._set_password, owner_id, password_hash)

    @staticmethod
    def _set_password(conn, owner_id: str, password_hash: str) -> OwnerRecord:
        with immediate(conn):
            cursor = conn.execute(
                "UPDATE owners SET password_hash = ?, session_epoch = session_epoch + 1 WHERE owner_id = ?",
                (password_hash, owner_id),
            )
            if cursor.rowcount == 0:
                raise OwnerNotFound(f"no owner {owner_id!r}")
            return _owner_where(conn, "owner_id", owner_id)

    async def create_session(self, owner_id: str, secret_digest: str, now: datetime) -> SessionRecord:
        return await self._run(self._create_session, new_session_id(), owner_id, secret_digest, now.timestamp())

    @staticmethod
    def _create_session(conn, session_id: str, owner_id: str, secret_digest: str, now_s: float) -> SessionRecord:
        with immediate(conn):
            owner = _owner_where(conn, "owner_id", owner_id)
            if owner is None:
                raise OwnerNotFound(f"no owner {owner_id!r}")
            conn.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, owner_id, secret_digest, owner.session_epoch, now_s, now_s),
            )
        return SessionRecord(
            session_id, owner_id, secret_digest, owner.session_epoch, from_unix_s(now_s), from_unix_s(now_s)
        )

    async def get_session(self, session_id: str) -> SessionRecord | None:
        return await self._run(self._get_session, session_id)

    @staticmethod
    def _get_session(conn, session_id: str) -> SessionRecord | None:
        row = conn.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
        if row is None:
            return None
        return SessionRecord(row[0], row[1], row[2], row[3], from_unix_s(row[4]), from_unix_s(row[5]))

    async def touch_session(self, session_id: str, now: datetime) -> None:
        await self._write(
            lambda conn: conn.execute(
                "UPDATE sessions SET last_seen_at_s = MAX(last_seen_at_s, ?) WHERE session_id = ?",
                (now.timestamp(), session_id),
            )
        )

    async def end_session(self, session_id: str) -> None:
        await self._write(lambda conn: conn.execute("DELETE FROM sessions WHERE session_id = ?", (session_id,)))

    async def record_sign_in_failure(
        self, subject: str, now_s: float, window_s: float, max_failures: int, lockout_s: float
    ) -> SignInThrottle:
        return await self._write(self._record_failure, subject, now_s, window_s, max_failures, lockout_s)

    @classmethod
    def _record_failure(cls, conn, subject, now_s, window_s, max_failures, lockout_s) -> SignInThrottle:
        current = cls._throttle(conn, subject) or SignInThrottle(subject)
        after = current.after_failure(now_s, window_s, max_failures, lockout_s)
        conn.execute(
            "INSERT OR REPLACE INTO sign_in_throttles (subject, failures, window_start_s, locked_until_s)"
            " VALUES (?, ?, ?, ?)",
            (subject, after.failures, after.window_start_s, after.locked_until_s),
        )
        return after

    @staticmethod
    def _throttle(conn, subject: str) -> SignInThrottle | None:
        row = conn.execute(
            "SELECT subject, failures, window_start_s, locked_until_s FROM sign_in_throttles WHERE subject = ?",
            (subject,),
        ).fetchone()
        return None if row is None else SignInThrottle(*row)

    async def get_sign_in_throttle(self, subject: str) -> SignInThrottle | None:
        return await self._run(self._throttle, subject)

    async def clear_sign_in_throttle(self, subject: str) -> None:
        await self._write(lambda conn: conn.execute("DELETE FROM sign_in_throttles WHERE subject = ?", (subject,)))

    async def ledger_entries(self, account_id: str, since: datetime) -> list[LedgerEntry]:
        since = require_aware(since, "since")
        return await self._run(self._ledger_entries, account_id, since.timestamp())

    @classmethod
    def _ledger_entries(cls, conn, account_id: str, since_s: float) -> list[LedgerEntry]:
        cls._balance_of(conn, account_id)  # AccountNotFound for an unknown id
        rows = conn.execute(
            "SELECT created_at_s, kind, credits, request_id, endpoint, key_id, http_request_id FROM ledger"
            " WHERE account_id = ? AND created_at_s >= ? ORDER BY created_at_s, request_id",
            (account_id, since_s),
        ).fetchall()
        return [LedgerEntry(from_unix_s(row[0]), row[1], row[2], row[3], ChargeNote(*row[4:7])) for row in rows]
