"""The SQLite store's file, schema and connections, shared by its parts: one file in WAL
mode, safe across processes.

Choices (the figures behind them: docs/performance.md):

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
  read and the lock error (if any) comes at ``BEGIN``, where a retry is always safe: a debit
  reads the balance, applies ``rules.charge`` and writes it back with no other writer in
  between, and a ``CHECK (balance >= 0)`` backs it up.
- ``synchronous=NORMAL`` with WAL: a commit is not fsynced, so a power cut (not a process
  crash) may lose the last commits but never corrupts the file. ``FULL`` would add an fsync
  (milliseconds) to every paid request.
- Group commit: the writes a process's event loop asks for in one turn of the loop (a paid
  request's ``admit_and_reserve``, another's ``release``, an ``Idempotency-Key``'s claim or
  answer) run in one ``BEGIN IMMEDIATE`` transaction, each in a savepoint of its own, so one
  that raises is rolled back alone and raises to its own caller; every caller hears its result
  once that transaction has committed, never before. Under load a commit (the WAL's frames and
  its index, the file locks) was about a fifth of the gateway's time, and a request made two.
- ``key_changes`` polls a change log (``key_changes`` table, written in the transaction of
  every key write) every 0.2 s: one indexed read, so a change reaches every gateway within
  about 0.2 s at no cost to requests.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from store.errors import StoreBusy, StoreError

T = TypeVar("T")

#: Version 2 added ``rate_windows``, ``slots`` and ``key_changes``; a version 1 file gains them
#: when it is first opened by this code (the statements below are all ``IF NOT EXISTS``).
#: Version 3 added ``slot_charges``, the charges made under each slot.
#: Version 4 added ``owners``, ``sessions`` and ``sign_in_throttles`` (the dashboard's).
#: Version 5 added ``api_keys.name``, version 6 the charge note of a debit (``ledger.endpoint``,
#: ``ledger.key_id``, ``ledger.http_request_id``); an older file gains them: ``_ADDED_COLUMNS``.
#: Version 7 added ``api_keys.mode`` (test keys) and the test traffic's ``test_rate_windows``
#: and ``test_slots``.
#: Version 8 added ``charts``, the births accounts keep (issue 40).
#: Version 9 added ``accounts.spend_book``, the account's spend caps and spend (``store/spend_caps.py``).
#: Version 10 added ``webhooks``, ``webhook_deliveries`` and ``webhook_delivered`` (issue 40,
#: part 3) and ``leases`` (the single webhook scheduler).
#: Version 11 added ``status_latencies`` and ``status_probe_days``, the status page's records
#: (issue 50, part 5: ``store/sqlite_status.py``).
SCHEMA_VERSION = 11

_SCHEMA = """
CREATE TABLE IF NOT EXISTS status_latencies (
    period_s        INTEGER NOT NULL,
    start_s         INTEGER NOT NULL,
    op_class        TEXT NOT NULL,
    document        TEXT NOT NULL,             -- JSON {counts, errors} (status_records.py)
    PRIMARY KEY (period_s, start_s, op_class)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS status_probe_days (
    day             TEXT PRIMARY KEY,          -- YYYY-MM-DD, UTC
    marks           TEXT NOT NULL              -- one mark per minute of the day
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhooks (
    webhook_id      TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL,
    document        TEXT NOT NULL              -- JSON, with the signing secret (webhook_records.py)
);
CREATE INDEX IF NOT EXISTS webhooks_by_account ON webhooks (account_id, webhook_id);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id      TEXT NOT NULL,
    document        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
-- The events a subscription's receiver answered 2xx: never sent again while marked.
CREATE TABLE IF NOT EXISTS webhook_delivered (
    webhook_id      TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    marked_at_s     REAL NOT NULL,
    PRIMARY KEY (webhook_id, event_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_delivered_by_time ON webhook_delivered (marked_at_s);
-- Named leases: one holder at a time until it lapses (the SQLite store's one webhook scheduler).
CREATE TABLE IF NOT EXISTS leases (
    name            TEXT PRIMARY KEY,
    holder          TEXT NOT NULL,
    expires_at_s    REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS charts (
    chart_id        TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL,
    document        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS charts_by_account ON charts (account_id, chart_id);
CREATE TABLE IF NOT EXISTS accounts (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE COLLATE NOCASE,
    balance         INTEGER NOT NULL CHECK (balance >= 0),
    rate_per_minute INTEGER NOT NULL,
    max_concurrent  INTEGER NOT NULL,
    created_at_s    REAL NOT NULL,             -- Unix seconds, UTC
    spend_book      TEXT NOT NULL DEFAULT ''   -- JSON of store/spend_caps.SpendBook, '' when none
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
    browser_only    INTEGER NOT NULL DEFAULT 0,
    name            TEXT NOT NULL DEFAULT '',  -- what its owner calls it
    mode            TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))
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
-- The rate window and slots of each account's test-key requests, apart from the live ones
-- (sqlite_test_traffic.py): test requests charge nothing, so their slots hold no charges.
CREATE TABLE IF NOT EXISTS test_rate_windows (
    account_id      TEXT PRIMARY KEY REFERENCES accounts(id),
    window_start_s  INTEGER NOT NULL,
    admitted        INTEGER NOT NULL CHECK (admitted >= 0)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS test_slots (
    account_id      TEXT NOT NULL REFERENCES accounts(id),
    slot_id         TEXT NOT NULL,
    expires_at_s    REAL NOT NULL,
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
-- The people who sign in to an account's dashboard. An email owns one account. Invites and
-- passwords are kept as digests and argon2 hashes, never in clear.
CREATE TABLE IF NOT EXISTS owners (
    owner_id            TEXT PRIMARY KEY,
    account_id          TEXT NOT NULL REFERENCES accounts(id),
    email               TEXT NOT NULL UNIQUE,  -- lowercased
    created_at_s        REAL NOT NULL,
    password_hash       TEXT,
    invite_digest       TEXT,                  -- SHA-256 hex of the invite's secret
    invite_expires_at_s REAL,
    session_epoch       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS owners_by_account ON owners(account_id);
-- Signed-in browsers: valid while their epoch is their owner's (a password change ends them).
CREATE TABLE IF NOT EXISTS sessions (
    session_id      TEXT PRIMARY KEY,
    owner_id        TEXT NOT NULL REFERENCES owners(owner_id),
    secret_digest   TEXT NOT NULL,             -- SHA-256 hex of the cookie's secret
    session_epoch   INTEGER NOT NULL,
    created_at_s    REAL NOT NULL,
    last_seen_at_s  REAL NOT NULL
) WITHOUT ROWID;
-- Failed sign-ins per subject ('email:...' or 'address:...') and lock-outs.
CREATE TABLE IF NOT EXISTS sign_in_throttles (
    subject         TEXT PRIMARY KEY,
    failures        INTEGER NOT NULL,
    window_start_s  REAL NOT NULL,
    locked_until_s  REAL
) WITHOUT ROWID;
"""

#: Columns added to existing tables after their creation: (table, column, definition). SQLite
#: has no ADD COLUMN IF NOT EXISTS, so each is added when the table lacks it.
_ADDED_COLUMNS = (
    ("api_keys", "name", "TEXT NOT NULL DEFAULT ''"),
    ("ledger", "endpoint", "TEXT NOT NULL DEFAULT ''"),
    ("ledger", "key_id", "TEXT NOT NULL DEFAULT ''"),
    ("ledger", "http_request_id", "TEXT NOT NULL DEFAULT ''"),
    ("api_keys", "mode", "TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))"),
    ("accounts", "spend_book", "TEXT NOT NULL DEFAULT ''"),
)

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6


def _is_lock_error(exc: sqlite3.OperationalError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def settle(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
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
    with immediate(conn):
        return operation(conn, *args)


#: A write waiting for its turn's transaction: the operation, its arguments, its caller's future.
QueuedWrite = tuple[Callable[..., Any], tuple, asyncio.Future]


def _in_one_transaction(conn: sqlite3.Connection, writes: list[QueuedWrite]) -> list[tuple[bool, Any] | None]:
    """Return the outcome of each write, all run in one write transaction: ``(True, result)``,
    ``(False, exception)`` for one that raised (its savepoint rolled back, the others kept), or
    None for one whose caller left before it ran (not written). A lock error rolls back every
    write and raises, to be retried whole."""
    if len(writes) == 1:  # alone: the transaction is its own, no savepoint needed
        operation, args, future = writes[0]
        if future.done():  # cancelled: its caller is gone and never hears of it
            return [None]
        try:
            return [(True, _in_transaction(conn, operation, *args))]
        except Exception as exc:
            if isinstance(exc, sqlite3.OperationalError) and _is_lock_error(exc):
                raise
            return [(False, exc)]
    outcomes: list[tuple[bool, Any] | None] = []
    with immediate(conn):
        for operation, args, future in writes:
            if future.done():
                outcomes.append(None)
                continue
            conn.execute("SAVEPOINT one_write")
            try:
                outcomes.append((True, operation(conn, *args)))
            except Exception as exc:
                if isinstance(exc, sqlite3.OperationalError) and _is_lock_error(exc):
                    raise
                conn.execute("ROLLBACK TO one_write")
                outcomes.append((False, exc))
            conn.execute("RELEASE one_write")
    return outcomes


class SqliteConnection:
    """The file, its schema and this process's connections, shared by the SQLite store's
    parts; every operation runs through :meth:`_write` or :meth:`_run`."""

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
        # The 80 % warnings of spend caps this process's debits were the first to reach
        # (store/spend_caps.py), until take_spend_warnings hands them over.
        self._spend_warnings: list = []
        # The commits under way (tasks of :meth:`_commit_queued`), kept until done.
        self._commits: set[asyncio.Task] = set()
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
            # crossed the threshold and stall its event loop for the fsync (see
            # docs/performance.md). The checkpointer thread does it instead, off the loop.
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
            with immediate(conn):
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise RuntimeError(f"{self.path} has schema {version}, newer than this code ({SCHEMA_VERSION})")
                for statement in _SCHEMA.split(";"):  # no ';' inside the statements or comments
                    if statement.strip():
                        conn.execute(statement)
                for table, column, definition in _ADDED_COLUMNS:
                    present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                    if column not in present:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
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
                loop.call_soon_threadsafe(settle, stopped)
            except RuntimeError:
                pass  # that loop is already closed, and its iterator with it
        if checkpointer is not None and checkpointer[0] == pid:
            checkpointer[2].set()
            checkpointer[1].join()
        for conn in mine:
            conn.close()

    async def _write(self, operation: Callable[..., T], *args: Any) -> T:
        """Return ``operation(conn, *args)`` once committed: run in the ``BEGIN IMMEDIATE``
        transaction of every write asked for in this turn of the event loop (group commit),
        in a savepoint of its own (rolled back alone when it raises), retried while locked.
        A caller cancelled before its turn's transaction ran has written nothing."""
        future = asyncio.get_running_loop().create_future()
        queued = self._queued_writes()
        queued.append((operation, args, future))
        if len(queued) == 1:  # the first of this turn: its commit runs at the loop's next turn
            commit = asyncio.get_running_loop().create_task(self._commit_queued())
            self._commits.add(commit)
            commit.add_done_callback(self._commits.discard)
        return await future

    def _queued_writes(self) -> list[QueuedWrite]:
        """Return the writes this thread's loop has asked for since its last commit began."""
        queued = getattr(self._local, "queued", None)
        if queued is None or queued[0] != os.getpid():
            queued = self._local.queued = (os.getpid(), [])
        return queued[1]

    async def _commit_queued(self) -> None:
        """Run every queued write in one transaction, then answer each caller."""
        queued = self._queued_writes()
        writes = queued[:]
        queued.clear()
        try:
            outcomes = await self._run(_in_one_transaction, writes)
        except Exception as error:  # locked past lock_wait_s, or the commit failed: none written
            for _, _, future in writes:
                if not future.done():
                    future.set_exception(error)
            return
        except BaseException:
            for _, _, future in writes:
                future.cancel()
            raise
        for (_, _, future), outcome in zip(writes, outcomes):
            if outcome is None or future.done():
                continue
            ok, value = outcome
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

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
