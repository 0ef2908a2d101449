"""The SQLite store's test-traffic limiter: the rate window and concurrency slots of each
account's test-key requests (``test_rate_windows``, ``test_slots``), kept apart from the live
ones so that neither kind of traffic uses up the other's limit."""

from __future__ import annotations

import sqlite3
import time

from store import rules
from store.errors import no_such_account
from store.records import SLOT_LEASE_S, Account, Admission
from store.sqlite_connection import SqliteConnection


class SqliteTestTraffic(SqliteConnection):
    """Test-key admissions (the store's :class:`~store.interfaces.LimiterForTestKeys`)."""

    async def admit_test_traffic(
        self, account: Account, slot_id: str, now_s: float | None = None, *, computations: int = 1, slots: int = 1
    ) -> Admission:
        """Return whether one more test-key request of ``account`` may run now, under its
        ``rate_per_minute`` and ``max_concurrent`` taken as the test limits, counting
        ``computations`` in the window and holding ``slots`` slots (rows of ``test_slots``, the
        ids of ``rules.slot_group``), all in one write transaction. The rules of the live
        limiter (``rules.admit``): a refusal counts nothing and holds nothing. Raises
        AccountNotFound when the account does not exist."""
        now_s = time.time() if now_s is None else now_s
        return await self._write(
            self._count_and_hold_test,
            account.id,
            account.rate_per_minute,
            account.max_concurrent,
            rules.slot_group(slot_id, slots),
            computations,
            now_s,
        )

    @staticmethod
    def _count_and_hold_test(
        conn,
        account_id: str,
        limit: int,
        max_concurrent: int,
        slot_ids: tuple[str, ...],
        computations: int,
        now_s: float,
    ) -> Admission:
        stored_start_s, stored_admitted, held, expired = conn.execute(
            "SELECT (SELECT window_start_s FROM test_rate_windows WHERE account_id = ?1),"
            " (SELECT admitted FROM test_rate_windows WHERE account_id = ?1),"
            " COUNT(*), COALESCE(SUM(expires_at_s <= ?2), 0) FROM test_slots WHERE account_id = ?1",
            (account_id, now_s),
        ).fetchone()
        stored = None if stored_start_s is None else rules.Window(stored_start_s, stored_admitted)
        admission, window = rules.admit(
            stored, held - expired, limit, max_concurrent, now_s, computations=computations, slots=len(slot_ids)
        )
        if window is None:
            return admission
        if expired:  # a lapsed test slot has no charge to refund: it is only dropped
            conn.execute("DELETE FROM test_slots WHERE account_id = ? AND expires_at_s <= ?", (account_id, now_s))
        expires_s = now_s + SLOT_LEASE_S
        try:
            conn.executemany(
                "INSERT OR REPLACE INTO test_slots (account_id, slot_id, expires_at_s) VALUES (?, ?, ?)",
                [(account_id, slot_id, expires_s) for slot_id in slot_ids],
            )
        except sqlite3.IntegrityError as exc:  # the foreign key: no such account
            raise no_such_account(account_id) from exc
        conn.execute(
            "INSERT INTO test_rate_windows (account_id, window_start_s, admitted) VALUES (?, ?, ?)"
            " ON CONFLICT (account_id) DO UPDATE"
            " SET window_start_s = excluded.window_start_s, admitted = excluded.admitted",
            (account_id, window.start_s, window.admitted),
        )
        return admission

    async def release_test_traffic(self, account_id: str, slot_id: str, slots: int = 1) -> None:
        """Free the ``slots`` test-traffic slots held under ``slot_id``; an unknown or freed slot is a no-op."""
        await self._write(self._release_test, account_id, rules.slot_group(slot_id, slots))

    @staticmethod
    def _release_test(conn, account_id: str, slot_ids: tuple[str, ...]) -> None:
        conn.executemany(
            "DELETE FROM test_slots WHERE account_id = ? AND slot_id = ?",
            [(account_id, slot_id) for slot_id in slot_ids],
        )
