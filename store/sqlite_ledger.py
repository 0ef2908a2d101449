"""The SQLite store's credit ledger: accounts, and every debit, refund and top-up as a ledger
row in the same transaction as the balance it moves."""

from __future__ import annotations

import sqlite3
import time
import uuid
from datetime import date, datetime

import orjson

from shared.errors import InsufficientCredits
from store import rules, spend_caps
from store.bounds import (
    check_balance_ceiling,
    new_account_id,
    require_aware,
    require_credits,
    validate_new_account,
)
from store.errors import AccountExists, LedgerConflict, no_such_account, no_such_key
from store.key_format import quoted
from store.records import Account, ChargeNote, Usage, UsageRow, from_unix_s
from store.spend_caps import SpendBook, SpendCap, SpendStatus, SpendWarning
from store.sqlite_connection import SqliteConnection, immediate
from store.usage_rows import day_bounds_s

_ACCOUNT_COLUMNS = "id, name, balance, rate_per_minute, max_concurrent, created_at_s"


def _account(row: tuple) -> Account:
    """Return the Account of a row of ``_ACCOUNT_COLUMNS``."""
    return Account(
        id=row[0],
        name=row[1],
        balance=row[2],
        rate_per_minute=row[3],
        max_concurrent=row[4],
        created_at=from_unix_s(row[5]),
    )


class SqliteLedger(SqliteConnection):
    """Accounts and their credits (the store's :class:`~store.interfaces.CreditLedger`)."""

    async def create_account(
        self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> Account:
        validate_new_account(name, credits, rate_per_minute, max_concurrent)
        account_id = new_account_id()
        return await self._run(self._create_account, account_id, name, credits, rate_per_minute, max_concurrent)

    @staticmethod
    def _create_account(conn, account_id, name, credits, rate_per_minute, max_concurrent) -> Account:
        now_s = time.time()
        try:
            with immediate(conn):
                conn.execute(
                    "INSERT INTO accounts (id, name, balance, rate_per_minute, max_concurrent, created_at_s)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (account_id, name, credits, rate_per_minute, max_concurrent, now_s),
                )
                if credits:
                    # The opening balance is a ledger row too, so the balance always equals
                    # top-ups - debits + refunds.
                    conn.execute(
                        "INSERT INTO ledger (account_id, request_id, kind, credits, created_at_s, reason)"
                        " VALUES (?, ?, 'topup', ?, ?, 'opening balance')",
                        (account_id, f"open:{account_id}", credits, now_s),
                    )
        except sqlite3.IntegrityError as exc:
            raise AccountExists(f"an account named {quoted(name)} already exists") from exc
        return Account(account_id, name, credits, rate_per_minute, max_concurrent, from_unix_s(now_s))

    async def get_account(self, account: str) -> Account | None:
        return await self._run(self._get_account, account)

    @staticmethod
    def _get_account(conn, account: str) -> Account | None:
        row = conn.execute(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", (account,)).fetchone()
        if row is None:
            row = conn.execute(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE name = ?", (account,)).fetchone()
        return None if row is None else _account(row)

    @classmethod
    def _account_id(cls, conn, account: str) -> str:
        found = cls._get_account(conn, account)
        if found is None:
            raise no_such_account(account)
        return found.id

    async def top_up(self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up") -> int:
        require_credits(credits)
        request_id = request_id or f"topup:{uuid.uuid4()}"
        return await self._run(self._top_up, account, credits, request_id, reason)

    @classmethod
    def _top_up(cls, conn, account: str, credits: int, request_id: str, reason: str) -> int:
        with immediate(conn):
            account_id = cls._account_id(conn, account)
            if cls._ledger_row_exists(conn, account_id, request_id, "topup", credits):
                return cls._balance_of(conn, account_id)
            # Checked inside the write transaction: no other top-up can land in between.
            check_balance_ceiling(account_id, cls._balance_of(conn, account_id), credits)
            conn.execute(
                "INSERT INTO ledger (account_id, request_id, kind, credits, created_at_s, reason)"
                " VALUES (?, ?, 'topup', ?, ?, ?)",
                (account_id, request_id, credits, time.time(), reason),
            )
            conn.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (credits, account_id))
            return cls._balance_of(conn, account_id)

    @staticmethod
    def _balance_of(conn, account_id: str) -> int:
        row = conn.execute("SELECT balance FROM accounts WHERE id = ?", (account_id,)).fetchone()
        if row is None:
            raise no_such_account(account_id)
        return row[0]

    @staticmethod
    def _ledger_row_exists(conn, account_id: str, request_id: str, kind: str, credits: int | None) -> bool:
        """Return whether the row exists; raise LedgerConflict if it exists for other terms."""
        row = conn.execute(
            "SELECT account_id, credits FROM ledger WHERE request_id = ? AND kind = ?", (request_id, kind)
        ).fetchone()
        if row is None:
            return False
        if row[0] != account_id or (credits is not None and row[1] != credits):
            raise LedgerConflict(f"request {quoted(request_id)} already has a {kind} on other terms")
        return True

    async def reserve(self, account_id: str, credits: int, request_id: str, note: ChargeNote | None = None) -> int:
        require_credits(credits)
        due: list[SpendWarning] = []
        balance = await self._write(self._debit, account_id, credits, request_id, note, due)
        self._spend_warnings.extend(due)
        return balance

    @classmethod
    def _debit(
        cls,
        conn,
        account_id: str,
        credits: int,
        request_id: str,
        note: ChargeNote | None = None,
        warnings: list | None = None,
    ) -> int:
        """Return the balance after the debit; runs inside the caller's write transaction.

        Raises InsufficientCredits (or SpendCapReached, one of its kind) having written
        nothing, so :meth:`_admit_and_charge` may commit the admission it made. ``warnings``
        (a list of the caller's) is left holding the 80 % warnings this debit is the first to
        reach (store/spend_caps.py); the caller hands them on once the transaction commits.
        """
        if warnings is not None:
            warnings.clear()  # a transaction retried after a failed commit starts afresh
        # The ledger row goes first: if this request was already charged the insert is
        # ignored and nothing else happens (a retry, not a second charge).
        try:
            note = note or ChargeNote()
            inserted = conn.execute(
                "INSERT OR IGNORE INTO ledger (account_id, request_id, kind, credits, created_at_s, endpoint, key_id, "
                "http_request_id)"
                " VALUES (?, ?, 'debit', ?, ?, ?, ?, ?)",
                (account_id, request_id, credits, time.time(), note.endpoint, note.key_id, note.request_id),
            ).rowcount
        except sqlite3.IntegrityError as exc:  # the foreign key: no such account
            raise no_such_account(account_id) from exc
        if not inserted:
            cls._ledger_row_exists(conn, account_id, request_id, "debit", credits)
            return cls._balance_of(conn, account_id)
        # Read and write under the transaction's write lock: no other writer acts between them.
        try:
            balance = rules.charge(cls._balance_of(conn, account_id), credits)
            book, due = cls._book_of(conn, account_id).debit(account_id, note.key_id, credits, spend_caps.now_s())
        except InsufficientCredits:
            conn.execute("DELETE FROM ledger WHERE request_id = ? AND kind = 'debit'", (request_id,))
            raise
        conn.execute(
            "UPDATE accounts SET balance = ?, spend_book = ? WHERE id = ?",
            (balance, orjson.dumps(book.to_json()).decode(), account_id),
        )
        if warnings is not None:
            warnings[:] = due
        return balance

    @staticmethod
    def _book_of(conn, account_id: str) -> SpendBook:
        row = conn.execute("SELECT spend_book FROM accounts WHERE id = ?", (account_id,)).fetchone()
        if row is None:
            raise no_such_account(account_id)
        return SpendBook.from_json(orjson.loads(row[0]) if row[0] else None)

    @staticmethod
    def _write_book(conn, account_id: str, book: SpendBook) -> None:
        conn.execute(
            "UPDATE accounts SET spend_book = ? WHERE id = ?", (orjson.dumps(book.to_json()).decode(), account_id)
        )

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        require_credits(credits)
        return await self._run(self._refund, account_id, credits, request_id)

    @classmethod
    def _refund(cls, conn, account_id: str, credits: int, request_id: str) -> int:
        with immediate(conn):
            return cls._refund_within(conn, account_id, credits, request_id)

    @classmethod
    def _refund_within(cls, conn, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after the refund; runs inside the caller's write transaction."""
        debit = conn.execute(
            "SELECT account_id, credits, created_at_s, key_id FROM ledger WHERE request_id = ? AND kind = 'debit'",
            (request_id,),
        ).fetchone()
        if debit is not None and debit[0] != account_id:
            raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
        refunded = cls._ledger_row_exists(conn, account_id, request_id, "refund", None)
        due = rules.refund_due(None if debit is None else debit[1], refunded, credits, request_id)
        if due:
            conn.execute(
                "INSERT INTO ledger (account_id, request_id, kind, credits, created_at_s) VALUES (?, ?, 'refund', ?, "
                "?)",
                (account_id, request_id, due, time.time()),
            )
            conn.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (due, account_id))
            book = cls._book_of(conn, account_id).refund(debit[3], due, debit[2], spend_caps.now_s())
            cls._write_book(conn, account_id, book)
        return cls._balance_of(conn, account_id)

    async def set_spend_cap(self, account: str, cap: SpendCap, key_id: str | None = None) -> SpendStatus:
        spend_caps.validate_cap(cap)
        return await self._run(self._set_spend_cap, account, cap, key_id)

    @classmethod
    def _set_spend_cap(cls, conn, account: str, cap: SpendCap, key_id: str | None) -> SpendStatus:
        with immediate(conn):
            account_id = cls._account_id(conn, account)
            if key_id is not None:
                row = conn.execute("SELECT account_id FROM api_keys WHERE key_id = ?", (key_id,)).fetchone()
                if row is None or row[0] != account_id:
                    raise no_such_key(key_id)
            now_s = spend_caps.now_s()
            book = cls._book_of(conn, account_id).with_cap(key_id or spend_caps.ACCOUNT_SCOPE, cap, now_s)
            cls._write_book(conn, account_id, book)
            return book.status(account_id, now_s)

    async def spend_status(self, account: str) -> SpendStatus:
        return await self._run(self._spend_status, account)

    @classmethod
    def _spend_status(cls, conn, account: str) -> SpendStatus:
        account_id = cls._account_id(conn, account)
        return cls._book_of(conn, account_id).status(account_id, spend_caps.now_s())

    def take_spend_warnings(self) -> list[SpendWarning]:
        taken, self._spend_warnings[:] = list(self._spend_warnings), []
        return taken

    async def balance(self, account_id: str) -> int:
        return await self._run(self._balance_of, account_id)

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        since = require_aware(since, "since")
        return await self._run(self._usage, account_id, since)

    @classmethod
    def _usage(cls, conn, account_id: str, since: datetime | None) -> Usage:
        cls._balance_of(conn, account_id)  # AccountNotFound for an unknown id
        query = "SELECT kind, COUNT(*), COALESCE(SUM(credits), 0) FROM ledger WHERE account_id = ?"
        params: tuple = (account_id,)
        if since is not None:
            query += " AND created_at_s >= ?"
            params += (since.timestamp(),)
        totals = {"debit": (0, 0), "refund": (0, 0), "topup": (0, 0)}
        for kind, count, total in conn.execute(query + " GROUP BY kind", params):
            totals[kind] = (count, total)
        return Usage.of_totals(account_id, since, totals)

    async def daily_usage(
        self, account_id: str, first_day: date, last_day: date, key_id: str | None = None
    ) -> list[UsageRow]:
        start_s, after_s = day_bounds_s(first_day, last_day)
        return await self._run(self._daily_usage, account_id, start_s, after_s, key_id)

    @classmethod
    def _daily_usage(cls, conn, account_id: str, start_s: float, after_s: float, key_id: str | None) -> list[UsageRow]:
        cls._balance_of(conn, account_id)  # AccountNotFound for an unknown id
        # The rules of store/usage_rows.py in SQL: each debit of the days on its own UTC day,
        # less its refund (one per request at most: the primary key), whenever that came.
        query = (
            "SELECT date(d.created_at_s, 'unixepoch') AS day, COALESCE(d.key_id, ''), COALESCE(d.endpoint, ''),"
            " COUNT(*), SUM(d.credits - COALESCE(r.credits, 0))"
            " FROM ledger d LEFT JOIN ledger r ON r.request_id = d.request_id AND r.kind = 'refund'"
            " WHERE d.account_id = ? AND d.kind = 'debit' AND d.created_at_s >= ? AND d.created_at_s < ?"
        )
        params: tuple = (account_id, start_s, after_s)
        if key_id is not None:
            query += " AND d.key_id = ?"
            params += (key_id,)
        rows = conn.execute(query + " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", params).fetchall()
        return [UsageRow(date.fromisoformat(row[0]), row[1], row[2], row[3], row[4]) for row in rows]
