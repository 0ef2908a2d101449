"""The embedded key and credit store: one SQLite file in WAL mode, safe across processes.

Choices (the figures behind them: README, Performance):

- The async methods run the SQLite call directly on the calling thread. One
  ``find_key_by_hash`` plus one ``reserve`` is cheap, and handing the pair to a worker
  thread (one hop, or ``asyncio.to_thread`` per call) cost more than the work. To keep the
  event loop free when another process holds the write lock, the connection's busy timeout
  is short (``busy_timeout_s``) and a locked database is retried with ``await asyncio.sleep``
  (backoff with jitter) up to ``lock_wait_s``.
- Checkpoints (copying the WAL back into the database, with an fsync) run in a background
  thread every ``checkpoint_interval_s``, never inside a request. The fsync still stalls
  concurrent writes on this file system for milliseconds, so it runs every few seconds, not
  on every 1000 pages as SQLite would by default.
- One connection per (process, thread), created on first use. A connection is never used
  across ``fork`` (SQLite forbids it): a child process opens its own.
- Writes run in ``BEGIN IMMEDIATE`` transactions, so the write lock is taken before anything is
  read and the lock error (if any) comes at ``BEGIN``, where a retry is always safe. The debit
  is ``UPDATE ... SET balance = balance - ? WHERE id = ? AND balance >= ?``: the balance check
  and the write are one statement, and a ``CHECK (balance >= 0)`` backs it up.
- ``synchronous=NORMAL`` with WAL: a commit is not fsynced, so a power cut (not a process
  crash) may lose the last commits but never corrupts the file. ``FULL`` would add an fsync
  (milliseconds) to every paid request.
- A paid request's hot path is ``admit_and_reserve`` (count it in its window, hold a slot,
  debit) and, after the response, ``release``: each one ``BEGIN IMMEDIATE`` transaction of
  its own, like every other write.
- ``key_changes`` polls a change log (``key_changes`` table, written in the transaction of
  every key write) every 0.2 s: one indexed read, so a change reaches every gateway within
  about 0.2 s at no cost to requests.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable, Iterator, TypeVar

from shared.kernel.errors import InsufficientCredits

from gateway.store import rules
from gateway.store.interfaces import (
    Account,
    Admission,
    AdmittedCharge,
    AccountExists,
    KeyNotActive,
    KeyRecord,
    LedgerConflict,
    StoreBusy,
    StoreError,
    Usage,
    check_balance_ceiling,
    generate_key,
    hash_key,
    new_account_id,
    new_key_id,
    no_such_account,
    no_such_key,
    prefix_hint,
    quoted,
    require_aware,
    require_credits,
    require_future_expiry,
    validate_limits,
    validate_new_account,
    validate_origins,
)

T = TypeVar("T")

#: Version 2 added ``rate_windows``, ``slots`` and ``key_changes``; a version 1 file gains them
#: when it is first opened by this code (the statements below are all ``IF NOT EXISTS``).
#: Version 3 added ``slot_charges``, the charges made under each slot.
SCHEMA_VERSION = 3

#: How often :meth:`SqliteStore.key_changes` reads the change log, in seconds.
KEY_CHANGE_POLL_S = 0.2
#: How long key change rows are kept, in seconds: a follower suspended for longer than this
#: is told it may have missed changes (None) instead of being replayed every one.
KEY_CHANGE_RETENTION_S = 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE COLLATE NOCASE,
    balance         INTEGER NOT NULL CHECK (balance >= 0),
    rate_per_minute INTEGER NOT NULL,
    max_concurrent  INTEGER NOT NULL,
    created_at_s    REAL NOT NULL              -- Unix seconds, UTC
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_id          TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts(id),
    key_hash        TEXT NOT NULL UNIQUE,      -- SHA-256 hex of the plain key, never the key itself
    prefix_hint     TEXT NOT NULL,
    created_at_s    REAL NOT NULL,
    expires_at_s    REAL,
    revoked_at_s    REAL,
    allowed_origins TEXT NOT NULL DEFAULT '[]', -- JSON array of exact origins
    browser_only    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS api_keys_by_account ON api_keys(account_id);
CREATE TABLE IF NOT EXISTS ledger (
    request_id      TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('debit', 'refund', 'topup')),
    account_id      TEXT NOT NULL REFERENCES accounts(id),
    credits         INTEGER NOT NULL CHECK (credits > 0),
    created_at_s    REAL NOT NULL,
    reason          TEXT,
    -- A retried request cannot charge (or refund) twice. WITHOUT ROWID makes this key the
    -- table itself, one b-tree fewer to write on every paid request.
    PRIMARY KEY (request_id, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ledger_by_account_time ON ledger(account_id, created_at_s);
-- One row per account: the newest fixed window it was admitted in and how many requests it
-- counted. Moving to a new window overwrites the row, so old windows never pile up.
CREATE TABLE IF NOT EXISTS rate_windows (
    account_id      TEXT PRIMARY KEY REFERENCES accounts(id),
    window_start_s  INTEGER NOT NULL,          -- Unix seconds, a multiple of RATE_WINDOW_S
    admitted        INTEGER NOT NULL CHECK (admitted >= 0)
) WITHOUT ROWID;
-- Concurrency slots held. A row whose lease has run out counts for nothing and is deleted by
-- the account's next admission, which refunds the charges made under it (its request never
-- ended: its gateway died).
CREATE TABLE IF NOT EXISTS slots (
    account_id      TEXT NOT NULL REFERENCES accounts(id),
    slot_id         TEXT NOT NULL,
    expires_at_s    REAL NOT NULL,             -- Unix seconds
    PRIMARY KEY (account_id, slot_id)
) WITHOUT ROWID;
-- The charges made under each slot held: a request's own, or a batch's items.
CREATE TABLE IF NOT EXISTS slot_charges (
    account_id      TEXT NOT NULL,
    slot_id         TEXT NOT NULL,
    charge_id       TEXT NOT NULL,             -- the request id of the ledger debit
    credits         INTEGER NOT NULL,
    PRIMARY KEY (account_id, slot_id, charge_id)
) WITHOUT ROWID;
-- Every key write adds a row here in its own transaction, so followers in other processes
-- learn which cached keys to drop. AUTOINCREMENT ids are never reused and, with one writer at
-- a time, become visible in order: a follower that sees a gap knows rows were purged unseen.
CREATE TABLE IF NOT EXISTS key_changes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash        TEXT NOT NULL,
    changed_at_s    REAL NOT NULL
);
"""

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6


def _is_lock_error(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def _to_s(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


def _from_s(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _account(row: tuple) -> Account:
    return Account(
        id=row[0],
        name=row[1],
        balance=row[2],
        rate_per_minute=row[3],
        max_concurrent=row[4],
        created_at=_from_s(row[5]),
    )


_ACCOUNT_COLUMNS = "id, name, balance, rate_per_minute, max_concurrent, created_at_s"
_KEY_COLUMNS = (
    "key_id, account_id, key_hash, prefix_hint, created_at_s, expires_at_s, revoked_at_s,"
    " allowed_origins, browser_only"
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
        created_at=_from_s(row[4]),
        expires_at=_from_s(row[5]),
        revoked_at=_from_s(row[6]),
        allowed_origins=tuple(json.loads(row[7])),
        browser_only=bool(row[8]),
    )


def _settle(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


_ONE_KEY = "key_id = ?"
_LIVE_KEYS_OF_ACCOUNT = "account_id = ? AND revoked_at_s IS NULL"


def _log_key_changes(conn: sqlite3.Connection, now_s: float, which: str, value: str) -> None:
    """Add the keys matching ``which`` (``_ONE_KEY`` or ``_LIVE_KEYS_OF_ACCOUNT``, bound to
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


@contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """Run the block in a write transaction taken up front; roll back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # also after a failed COMMIT, so a retry starts clean
            conn.execute("ROLLBACK")
        raise


def _in_transaction(conn: sqlite3.Connection, operation: Callable[..., T], *args: Any) -> T:
    with _immediate(conn):
        return operation(conn, *args)


class SqliteStore:
    """The :class:`~gateway.store.interfaces.Store` on one SQLite file, shared by processes."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout_s: float = 0.02,
        lock_wait_s: float = 5.0,
        checkpoint_interval_s: float = 5.0,
    ):
        """Open (creating if needed) the store at ``path``.

        ``busy_timeout_s`` is how long one SQLite call may block the calling thread waiting
        for another writer; past it the async method yields to the event loop and retries,
        for at most ``lock_wait_s`` in all before raising StoreBusy. ``checkpoint_interval_s``
        is how often the background thread copies the WAL back into the database file.
        """
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s
        self._lock_wait_s = lock_wait_s
        self._checkpoint_interval_s = checkpoint_interval_s
        self._local = threading.local()
        self._connections: list[tuple[int, sqlite3.Connection]] = []
        self._connections_lock = threading.Lock()
        # (pid, thread, stop event) of this process's checkpointer; a forked child starts its own.
        self._checkpointer: tuple[int, threading.Thread, threading.Event] | None = None
        # (loop, future) of each running key_changes iterator: close() settles the future so
        # the iterator ends at once instead of at its next poll.
        self._followers: set[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = set()
        self._closed = False
        self._create_schema()

    # --- connections ---------------------------------------------------------------------------

    def _open(self, timeout_s: float) -> sqlite3.Connection:
        # isolation_level=None: autocommit; transactions are the explicit BEGIN IMMEDIATE blocks.
        # check_same_thread=False only so close() can close every thread's connection; each
        # connection is still used by the one thread that opened it.
        conn = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            # No automatic checkpoint on commit: it would run inside whichever paid request
            # crossed the threshold and stall its event loop for the fsync (see README,
            # Performance). The checkpointer thread does it instead, off the loop.
            conn.execute("PRAGMA wal_autocheckpoint=0")
            conn.execute("PRAGMA journal_size_limit=67108864")  # WAL file truncated to 64 MiB on reset
        except BaseException:
            conn.close()
            raise
        return conn

    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the store is closed")
        pid = os.getpid()
        held = getattr(self._local, "held", None)
        if held is not None and held[0] == pid:
            return held[1]
        conn = self._open(self._busy_timeout_s)
        self._local.held = (pid, conn)
        with self._connections_lock:
            self._connections.append((pid, conn))
            if self._checkpointer is None or self._checkpointer[0] != pid:
                stop = threading.Event()
                thread = threading.Thread(
                    target=self._checkpoint_loop, args=(stop,), name="sqlite-store-checkpointer", daemon=True
                )
                self._checkpointer = (pid, thread, stop)
                thread.start()
        return conn

    def _checkpoint_loop(self, stop: threading.Event) -> None:
        """Copy the WAL into the database every interval, until ``stop`` is set."""
        conn = self._open(self._busy_timeout_s)
        try:
            while not stop.wait(self._checkpoint_interval_s):
                self._checkpoint(conn)
            self._checkpoint(conn)
        finally:
            conn.close()

    @staticmethod
    def _checkpoint(conn: sqlite3.Connection) -> None:
        # PASSIVE never blocks readers or writers; with several processes sharing the file one
        # checkpointer may find another at work, and simply tries again next interval.
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.OperationalError as exc:
            if not _is_lock_error(exc):
                raise

    def _create_schema(self) -> None:
        # Opening is rare and may wait for other processes that are creating the same file, so
        # this one connection waits longer than the hot path ever does.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = self._open(timeout_s=max(self._lock_wait_s, 5.0))
        try:
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise StoreBusy(f"could not switch {self.path} to WAL mode")
            if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return  # already current: opening writes nothing
            with _immediate(conn):
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise RuntimeError(f"{self.path} has schema {version}, newer than this code ({SCHEMA_VERSION})")
                for statement in _SCHEMA.split(";"):  # no ';' inside the statements or comments
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        finally:
            conn.close()

    async def close(self) -> None:
        """Close every connection this process opened; the store is unusable afterwards."""
        self.close_sync()

    def close_sync(self) -> None:
        """Close every connection this process opened (synchronous form of close)."""
        self._closed = True
        pid = os.getpid()
        with self._connections_lock:
            mine = [conn for owner, conn in self._connections if owner == pid]
            self._connections = [(owner, conn) for owner, conn in self._connections if owner != pid]
            checkpointer, self._checkpointer = self._checkpointer, None
            followers, self._followers = self._followers, set()
        for loop, stopped in followers:
            try:
                loop.call_soon_threadsafe(_settle, stopped)
            except RuntimeError:
                pass  # that loop is already closed, and its iterator with it
        if checkpointer is not None and checkpointer[0] == pid:
            checkpointer[2].set()
            checkpointer[1].join()
        for conn in mine:
            conn.close()

    async def _write(self, operation: Callable[..., T], *args: Any) -> T:
        """Return ``operation(conn, *args)`` run in a ``BEGIN IMMEDIATE`` transaction of its own
        (committed when it returns, rolled back when it raises), retried while locked."""
        return await self._run(_in_transaction, operation, *args)

    async def _run(self, operation: Callable[..., T], *args: Any) -> T:
        """Return ``operation(conn, *args)``, yielding to the loop and retrying while locked."""
        deadline: float | None = None
        delay_s = 0.001
        while True:
            try:
                return operation(self._conn(), *args)
            except sqlite3.OperationalError as exc:
                if not _is_lock_error(exc):
                    raise
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self._lock_wait_s
                if now >= deadline:
                    raise StoreBusy(f"{self.path} stayed locked for {self._lock_wait_s} s") from exc
                # Jitter so processes that collided do not collide again in step.
                await asyncio.sleep(delay_s * (0.5 + secrets.randbelow(1000) / 1000))
                delay_s = min(delay_s * 2, 0.05)

    # --- accounts ------------------------------------------------------------------------------

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
            with _immediate(conn):
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
        return Account(account_id, name, credits, rate_per_minute, max_concurrent, _from_s(now_s))

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

    async def top_up(
        self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up"
    ) -> int:
        require_credits(credits)
        request_id = request_id or f"topup:{uuid.uuid4()}"
        return await self._run(self._top_up, account, credits, request_id, reason)

    @classmethod
    def _top_up(cls, conn, account: str, credits: int, request_id: str, reason: str) -> int:
        with _immediate(conn):
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

    async def set_limits(
        self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None
    ) -> Account:
        """Return the account (id or name) after changing the limits given (each >= 1).

        Every live key of the account is reported by :meth:`key_changes`: gateways cache a key
        together with its account, so this is what makes new limits apply on every gateway at
        once. Raises AccountNotFound, ValueError.
        """
        validate_limits(rate_per_minute, max_concurrent)
        return await self._run(self._set_limits, account, rate_per_minute, max_concurrent)

    @classmethod
    def _set_limits(cls, conn, account: str, rate_per_minute: int | None, max_concurrent: int | None) -> Account:
        with _immediate(conn):
            account_id = cls._account_id(conn, account)
            if rate_per_minute is not None or max_concurrent is not None:
                conn.execute(
                    "UPDATE accounts SET rate_per_minute = COALESCE(?, rate_per_minute),"
                    " max_concurrent = COALESCE(?, max_concurrent) WHERE id = ?",
                    (rate_per_minute, max_concurrent, account_id),
                )
                _log_key_changes(conn, time.time(), _LIVE_KEYS_OF_ACCOUNT, account_id)
            return cls._get_account(conn, account_id)

    # --- keys ----------------------------------------------------------------------------------

    async def create_key(
        self,
        account: str,
        *,
        expires_at: datetime | None = None,
        allowed_origins: Iterable[str] = (),
        browser_only: bool = False,
    ) -> tuple[str, KeyRecord]:
        expires_at = require_future_expiry(expires_at)
        origins = validate_origins(allowed_origins)
        plain = generate_key()
        key_id = new_key_id()
        record = await self._run(self._create_key, account, key_id, plain, expires_at, origins, bool(browser_only))
        return plain, record

    @classmethod
    def _create_key(cls, conn, account, key_id, plain, expires_at, origins, browser_only) -> KeyRecord:
        now_s = time.time()
        with _immediate(conn):
            account_id = cls._account_id(conn, account)
            conn.execute(
                f"INSERT INTO api_keys ({_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                (
                    key_id,
                    account_id,
                    hash_key(plain),
                    prefix_hint(plain),
                    now_s,
                    _to_s(expires_at),
                    json.dumps(list(origins)),
                    int(browser_only),
                ),
            )
            _log_key_changes(conn, now_s, _ONE_KEY, key_id)
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
        with _immediate(conn):
            # COALESCE keeps the first revocation time when a key is revoked twice.
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at_s = COALESCE(revoked_at_s, ?) WHERE key_id = ?",
                (now_s, key_id),
            )
            if cursor.rowcount == 0:
                raise no_such_key(key_id)
            _log_key_changes(conn, now_s, _ONE_KEY, key_id)
            return cls._key_by_id(conn, key_id)

    async def update_origins(
        self, key_id: str, origins: Iterable[str], browser_only: bool | None = None
    ) -> KeyRecord:
        checked = validate_origins(origins)
        return await self._run(self._update_origins, key_id, checked, browser_only)

    @classmethod
    def _update_origins(cls, conn, key_id: str, origins: tuple[str, ...], browser_only: bool | None) -> KeyRecord:
        with _immediate(conn):
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
            _log_key_changes(conn, time.time(), _ONE_KEY, key_id)
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

    # --- credits -------------------------------------------------------------------------------

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

    async def reserve(self, account_id: str, credits: int, request_id: str) -> int:
        require_credits(credits)
        return await self._write(self._debit, account_id, credits, request_id)

    @classmethod
    def _debit(cls, conn, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after the debit; runs inside the caller's write transaction.

        Raises InsufficientCredits having written nothing, so :meth:`_admit_and_charge` may
        commit the admission it made.
        """
        # The ledger row goes first: if this request was already charged the insert is
        # ignored and nothing else happens (a retry, not a second charge).
        try:
            inserted = conn.execute(
                "INSERT OR IGNORE INTO ledger (account_id, request_id, kind, credits, created_at_s)"
                " VALUES (?, ?, 'debit', ?, ?)",
                (account_id, request_id, credits, time.time()),
            ).rowcount
        except sqlite3.IntegrityError as exc:  # the foreign key: no such account
            raise no_such_account(account_id) from exc
        if not inserted:
            cls._ledger_row_exists(conn, account_id, request_id, "debit", credits)
            return cls._balance_of(conn, account_id)
        # Read and write under the transaction's write lock: no other writer acts between them.
        try:
            balance = rules.charge(cls._balance_of(conn, account_id), credits)
        except InsufficientCredits:
            conn.execute("DELETE FROM ledger WHERE request_id = ? AND kind = 'debit'", (request_id,))
            raise
        conn.execute("UPDATE accounts SET balance = ? WHERE id = ?", (balance, account_id))
        return balance

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        require_credits(credits)
        return await self._run(self._refund, account_id, credits, request_id)

    @classmethod
    def _refund(cls, conn, account_id: str, credits: int, request_id: str) -> int:
        with _immediate(conn):
            return cls._refund_within(conn, account_id, credits, request_id)

    @classmethod
    def _refund_within(cls, conn, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after the refund; runs inside the caller's write transaction."""
        debit = conn.execute(
            "SELECT account_id, credits FROM ledger WHERE request_id = ? AND kind = 'debit'", (request_id,)
        ).fetchone()
        if debit is not None and debit[0] != account_id:
            raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
        refunded = cls._ledger_row_exists(conn, account_id, request_id, "refund", None)
        due = rules.refund_due(None if debit is None else debit[1], refunded, credits, request_id)
        if due:
            conn.execute(
                "INSERT INTO ledger (account_id, request_id, kind, credits, created_at_s) VALUES (?, ?, 'refund', ?, ?)",
                (account_id, request_id, due, time.time()),
            )
            conn.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (due, account_id))
        return cls._balance_of(conn, account_id)

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

    # --- limits --------------------------------------------------------------------------------

    async def admit(
        self, account: Account, slot_id: str, now_s: float | None = None, *, charge: tuple[str, int] | None = None
    ) -> Admission:
        """Return whether one more request of ``account`` may run now, across every process.

        Allowed: the request is counted in the account's window of RATE_WINDOW_S seconds and
        holds ``slot_id`` until :meth:`release`, or SLOT_LEASE_S seconds at most. Refused:
        nothing is counted or held; ``retry_after_s`` is the whole seconds until the window
        resets (at least 1) for ``rate``, 1 for ``concurrency``. The limits are those of
        ``account`` as given. ``now_s`` is Unix seconds (default: now).

        The window only moves forward: a gateway whose clock runs behind counts into the newest
        window any gateway opened rather than reopening an older one, so skewed clocks cannot
        admit more than the limit. Raises AccountNotFound when the account does not exist.
        """
        now_s = time.time() if now_s is None else now_s
        return await self._write(
            self._count_and_hold, account.id, account.rate_per_minute, account.max_concurrent, slot_id, now_s, charge
        )

    async def admit_and_reserve(
        self, account: Account, slot_id: str, credits: int, request_id: str, now_s: float | None = None
    ) -> AdmittedCharge:
        """Return :meth:`admit` then, when allowed, :meth:`reserve`, in one write transaction."""
        require_credits(credits)
        now_s = time.time() if now_s is None else now_s
        return await self._write(
            self._admit_and_charge, account.id, account.rate_per_minute, account.max_concurrent,
            slot_id, credits, request_id, now_s,
        )

    @classmethod
    def _admit_and_charge(
        cls, conn, account_id: str, limit: int, max_concurrent: int, slot_id: str, credits: int, request_id: str,
        now_s: float,
    ) -> AdmittedCharge:
        admission = cls._count_and_hold(conn, account_id, limit, max_concurrent, slot_id, now_s, (request_id, credits))
        if not admission.allowed:
            return AdmittedCharge(admission)
        try:
            return AdmittedCharge(admission, balance=cls._debit(conn, account_id, credits, request_id))
        except InsufficientCredits as short:
            return AdmittedCharge(admission, insufficient=short)  # the admission still commits

    @classmethod
    def _count_and_hold(
        cls, conn, account_id: str, limit: int, max_concurrent: int, slot_id: str, now_s: float,
        charge: tuple[str, int] | None = None,
    ) -> Admission:
        """Return the admission; runs inside the caller's write transaction."""
        # One statement reads the window and the slots. The account's slot rows are adjacent
        # in the primary key, so this reads at most about max_concurrent rows.
        stored_start_s, stored_admitted, held, expired = conn.execute(
            "SELECT (SELECT window_start_s FROM rate_windows WHERE account_id = ?1),"
            " (SELECT admitted FROM rate_windows WHERE account_id = ?1),"
            " COUNT(*), COALESCE(SUM(expires_at_s <= ?2), 0) FROM slots WHERE account_id = ?1",
            (account_id, now_s),
        ).fetchone()
        stored = None if stored_start_s is None else rules.Window(stored_start_s, stored_admitted)
        admission, window = rules.admit(stored, held - expired, limit, max_concurrent, now_s)
        if window is None:
            return admission
        # Lapsed slots are purged here, only when there are some, and their charges refunded.
        if expired:
            for charge_id, credits in rules.lapsed_charges(cls._slots_of(conn, account_id, lapsed_at_s=now_s), now_s):
                cls._refund_within(conn, account_id, credits, charge_id)
            conn.execute(
                "DELETE FROM slot_charges WHERE account_id = ?1 AND slot_id IN"
                " (SELECT slot_id FROM slots WHERE account_id = ?1 AND expires_at_s <= ?2)",
                (account_id, now_s),
            )
            conn.execute("DELETE FROM slots WHERE account_id = ? AND expires_at_s <= ?", (account_id, now_s))
        slot = rules.hold({}, slot_id, now_s, charge)[slot_id]
        try:
            conn.execute(
                "INSERT OR REPLACE INTO slots (account_id, slot_id, expires_at_s) VALUES (?, ?, ?)",
                (account_id, slot_id, slot.expires_s),
            )
            conn.executemany(
                "INSERT OR IGNORE INTO slot_charges (account_id, slot_id, charge_id, credits) VALUES (?, ?, ?, ?)",
                [(account_id, slot_id, charge_id, credits) for charge_id, credits in slot.charges],
            )
        except sqlite3.IntegrityError as exc:  # the foreign key: no such account
            raise no_such_account(account_id) from exc
        conn.execute(
            "INSERT INTO rate_windows (account_id, window_start_s, admitted) VALUES (?, ?, ?)"
            " ON CONFLICT (account_id) DO UPDATE"
            " SET window_start_s = excluded.window_start_s, admitted = excluded.admitted",
            (account_id, window.start_s, window.admitted),
        )
        return admission

    async def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot ``slot_id`` of the account; an unknown or freed slot is a no-op."""
        await self._write(self._release, account_id, slot_id)

    @staticmethod
    def _release(conn, account_id: str, slot_id: str) -> None:
        conn.execute("DELETE FROM slot_charges WHERE account_id = ? AND slot_id = ?", (account_id, slot_id))
        conn.execute("DELETE FROM slots WHERE account_id = ? AND slot_id = ?", (account_id, slot_id))

    async def hold_charge(self, account_id: str, slot_id: str, charge: tuple[str, int]) -> None:
        """Record ``charge`` (request id, credits) under the slot ``slot_id``, before it is
        made; a slot not held records nothing."""
        await self._write(self._hold_charge, account_id, slot_id, charge)

    @classmethod
    def _hold_charge(cls, conn, account_id: str, slot_id: str, charge: tuple[str, int]) -> None:
        slots = rules.with_charge(cls._slots_of(conn, account_id, slot_id=slot_id), slot_id, charge)
        if slot_id in slots:
            conn.execute(
                "INSERT OR IGNORE INTO slot_charges (account_id, slot_id, charge_id, credits) VALUES (?, ?, ?, ?)",
                (account_id, slot_id, *charge),
            )

    @staticmethod
    def _slots_of(conn, account_id: str, *, slot_id: str | None = None, lapsed_at_s: float | None = None) -> dict[str, rules.Slot]:
        """Return the account's slots with their charges: the one ``slot_id``, or those lapsed at ``lapsed_at_s``."""
        query = (
            "SELECT s.slot_id, s.expires_at_s, c.charge_id, c.credits FROM slots s LEFT JOIN slot_charges c"
            " ON c.account_id = s.account_id AND c.slot_id = s.slot_id WHERE s.account_id = ?"
        )
        params: tuple = (account_id,)
        if slot_id is not None:
            query, params = query + " AND s.slot_id = ?", params + (slot_id,)
        if lapsed_at_s is not None:
            query, params = query + " AND s.expires_at_s <= ?", params + (lapsed_at_s,)
        slots: dict[str, rules.Slot] = {}
        for found_id, expires_s, charge_id, credits in conn.execute(query, params):
            slot = slots.get(found_id, rules.Slot(expires_s))
            slots[found_id] = slot if charge_id is None else rules.Slot(expires_s, slot.charges + ((charge_id, credits),))
        return slots
