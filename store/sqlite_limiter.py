"""The SQLite store's limiter: rate windows, concurrency slots and the charges made under
them, each admission and release one write, committed with the other writes of its turn of
the event loop (``store/sqlite_connection.py``'s group commit)."""

from __future__ import annotations

import sqlite3
import time

from shared.errors import InsufficientCredits
from store import rules
from store.bounds import require_credits, validate_limits
from store.errors import no_such_account
from store.records import Account, Admission, AdmittedCharge, ChargeNote
from store.sqlite_connection import SqliteConnection, immediate
from store.sqlite_keys import LIVE_KEYS_OF_ACCOUNT, log_key_changes


class SqliteLimiter(SqliteConnection):
    """Rate windows and concurrency slots (the store's :class:`~store.interfaces.Limiter`)."""

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
        with immediate(conn):
            account_id = cls._account_id(conn, account)
            if rate_per_minute is not None or max_concurrent is not None:
                conn.execute(
                    "UPDATE accounts SET rate_per_minute = COALESCE(?, rate_per_minute),"
                    " max_concurrent = COALESCE(?, max_concurrent) WHERE id = ?",
                    (rate_per_minute, max_concurrent, account_id),
                )
                log_key_changes(conn, time.time(), LIVE_KEYS_OF_ACCOUNT, account_id)
            return cls._get_account(conn, account_id)

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
        self,
        account: Account,
        slot_id: str,
        credits: int,
        request_id: str,
        now_s: float | None = None,
        note: ChargeNote | None = None,
    ) -> AdmittedCharge:
        """Return :meth:`admit` then, when allowed, :meth:`reserve`, in one write transaction."""
        require_credits(credits)
        now_s = time.time() if now_s is None else now_s
        due: list = []
        outcome = await self._write(
            self._admit_and_charge,
            account.id,
            account.rate_per_minute,
            account.max_concurrent,
            slot_id,
            credits,
            request_id,
            now_s,
            note,
            due,
        )
        self._spend_warnings.extend(due)
        return outcome

    @classmethod
    def _admit_and_charge(
        cls,
        conn,
        account_id: str,
        limit: int,
        max_concurrent: int,
        slot_id: str,
        credits: int,
        request_id: str,
        now_s: float,
        note: ChargeNote | None = None,
        warnings: list | None = None,
    ) -> AdmittedCharge:
        admission = cls._count_and_hold(conn, account_id, limit, max_concurrent, slot_id, now_s, (request_id, credits))
        if not admission.allowed:
            return AdmittedCharge(admission)
        try:
            return AdmittedCharge(admission, balance=cls._debit(conn, account_id, credits, request_id, note, warnings))
        except InsufficientCredits as short:
            return AdmittedCharge(admission, insufficient=short)  # the admission still commits

    @classmethod
    def _count_and_hold(
        cls,
        conn,
        account_id: str,
        limit: int,
        max_concurrent: int,
        slot_id: str,
        now_s: float,
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
    def _slots_of(
        conn, account_id: str, *, slot_id: str | None = None, lapsed_at_s: float | None = None
    ) -> dict[str, rules.Slot]:
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
            slots[found_id] = (
                slot if charge_id is None else rules.Slot(expires_s, slot.charges + ((charge_id, credits),))
            )
        return slots
