"""The NATS store's credit ledger: accounts, and every debit, refund and top-up as one entry on
the account's ledger subject under compare-and-set (docs/stores.md, "Design notes: the NATS store")."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import nats.js.errors
import orjson
from nats.aio.msg import Msg

from store import rules, spend_caps
from store.bounds import (
    check_balance_ceiling,
    new_account_id,
    require_aware,
    require_credits,
    validate_new_account,
)
from store.errors import AccountExists, LedgerConflict, StoreUnavailable, no_such_account, no_such_key
from store.key_format import quoted
from store.nats_connection import (
    TOKEN_RE,
    NatsConnection,
    WrongLastSequence,
    check_account_id,
    check_request_id,
    digest,
    fold_case,
)
from store.records import Account, ChargeNote, LedgerEntry, Usage, UsageRow, from_unix_s
from store.spend_caps import SpendBook, SpendCap, SpendStatus, SpendWarning
from store.usage_rows import day_bounds_s, usage_rows

#: How long a process remembers its own debits (request id, account, credits), in seconds, so
#: that refunding one needs no scan of the account's ledger. Longer than any request's
#: deadline; a later refund scans, as another process's would.
OWN_DEBITS_REMEMBERED_S = 600.0
#: How long a usage scan starts before ``since``, in seconds, so that entries written by a
#: gateway whose clock runs ahead of the server's are still found (then filtered on ``at_s``).
USAGE_CLOCK_MARGIN_S = 300.0
#: The kinds of ledger entry that move credits; a ``caps`` entry (spend caps set) moves none
#: and is left out of usage and the owner's ledger.
CREDIT_KINDS = ("debit", "refund", "topup")


@dataclass(frozen=True)
class _Head:
    """The last ledger entry of an account: its stream sequence, the balance after it and the
    account's spend book after it (every entry carries the book forward, so the compare-and-set
    that orders the balance orders the spend caps too)."""

    seq: int
    balance: int
    book: SpendBook = SpendBook()


def account_of(doc: dict, balance: int) -> Account:
    """Return the Account of a stored account record and its balance in credits."""
    return Account(
        id=doc["id"],
        name=doc["name"],
        balance=balance,
        rate_per_minute=doc["rate_per_minute"],
        max_concurrent=doc["max_concurrent"],
        created_at=from_unix_s(doc["created_at_s"]),
    )


class NatsLedger(NatsConnection):
    """Accounts and their credits (the store's :class:`~store.interfaces.CreditLedger`)."""

    async def _find_account(self, account: str) -> tuple[int, dict] | None:
        """Return (revision, record) of the account whose id, or else name, is ``account``."""
        if not isinstance(account, str) or not account:
            return None
        if account.startswith("acct_"):  # ids always start so, names never do
            if TOKEN_RE.fullmatch(account) is None:
                return None
            return await self._get_json(self._accounts, f"id.{account}")
        indexed = await self._get(self._accounts, f"name.{digest(fold_case(account))}")
        if indexed is None:
            return None
        return await self._get_json(self._accounts, f"id.{indexed[1].decode()}")

    async def _account_record(self, account: str) -> dict:
        found = await self._find_account(account)
        if found is None:
            raise no_such_account(account)
        return found[1]

    async def create_account(
        self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> Account:
        """Return a new account holding ``credits``; raises AccountExists for a taken name (any case)."""
        validate_new_account(name, credits, rate_per_minute, max_concurrent)
        name_key = f"name.{digest(fold_case(name))}"
        if await self._get(self._accounts, name_key) is not None:
            raise AccountExists(f"an account named {quoted(name)} already exists")
        account_id = new_account_id()
        # The ledger first: an account record never exists without its opening entry. A
        # creation that loses the name race below leaves only that entry, on an unused subject.
        await self._append(account_id, "topup", f"open:{account_id}", credits, _Head(0, 0), reason="opening balance")
        doc = {
            "id": account_id,
            "name": name,
            "rate_per_minute": rate_per_minute,
            "max_concurrent": max_concurrent,
            "created_at_s": time.time(),
        }
        await self._call(self._accounts.create(f"id.{account_id}", orjson.dumps(doc)))
        if not await self._create(self._accounts, name_key, account_id.encode()):
            await self._call(self._accounts.delete(f"id.{account_id}"))
            raise AccountExists(f"an account named {quoted(name)} already exists")
        return account_of(doc, credits)

    async def get_account(self, account: str) -> Account | None:
        """Return the account whose id, or else whose name, is ``account``; None if none."""
        if isinstance(account, str) and account.startswith("acct_") and TOKEN_RE.fullmatch(account):
            # By id (the authentication path): record and balance asked at once, not in turn.
            found, head = await asyncio.gather(
                self._get_json(self._accounts, f"id.{account}"), self._read_head(account)
            )
        else:
            found = await self._find_account(account)
            head = None if found is None else await self._read_head(found[1]["id"])
        if found is None or head is None:
            return None
        return account_of(found[1], head.balance)

    async def _read_head(self, account_id: str) -> _Head | None:
        """Return the account's last ledger entry (and cache it); None if the account has none."""
        if TOKEN_RE.fullmatch(account_id or "") is None:
            return None
        try:
            message = await self._call(
                self._js.get_last_msg(self._ledger_stream, self._ledger_prefix + account_id, direct=True)
            )
        except nats.js.errors.NotFoundError:
            self._heads.pop(account_id, None)
            return None
        entry = orjson.loads(message.data)
        head = self._heads[account_id] = _Head(
            message.seq, entry["balance_after"], SpendBook.from_json(entry.get("spend"))
        )
        return head

    async def _head(self, account_id: str, *, fresh: bool = False) -> _Head:
        """Return the cached head (read when ``fresh`` or not cached); AccountNotFound if none."""
        head = None if fresh else self._heads.get(account_id)
        if head is None:
            head = await self._read_head(account_id)
        if head is None:
            raise no_such_account(account_id)
        return head

    async def _append(
        self,
        account_id: str,
        kind: str,
        request_id: str,
        delta: int,
        head: _Head,
        book: SpendBook | None = None,
        **extra: Any,
    ) -> tuple[int, bool]:
        """Publish one entry moving the balance by ``delta`` after ``head``, carrying ``book``
        (default: the head's); return (its sequence, whether the server already held an entry
        of this kind and request id: then nothing was written and the sequence is that entry's).

        Raises WrongLastSequence when ``head`` is no longer the account's last entry.
        """
        book = head.book if book is None else book
        entry = {
            "kind": kind,
            "request_id": request_id,
            "credits": abs(delta),
            "balance_after": head.balance + delta,
            "at_s": time.time(),
            **extra,
        }
        if book != SpendBook():
            entry["spend"] = book.to_json()
        headers = {"Nats-Msg-Id": f"{kind}:{request_id}", "Nats-Expected-Last-Subject-Sequence": str(head.seq)}
        try:
            ack = await self._call(
                self._js.publish(self._ledger_prefix + account_id, orjson.dumps(entry), headers=headers)
            )
        except StoreUnavailable:
            self._heads.pop(account_id, None)
            raise
        if not ack.duplicate:
            self._heads[account_id] = _Head(ack.seq, entry["balance_after"], book)
        return ack.seq, ack.duplicate

    async def _write(
        self,
        account_id: str,
        kind: str,
        request_id: str,
        delta: int,
        check: Callable[[_Head], None] | None = None,
        book_of: Callable[[_Head], SpendBook] | None = None,
        **extra: Any,
    ) -> tuple[int, bool]:
        """Return what :meth:`_append` returns, retrying on a newer head until the write is
        decided; ``check(head)`` raises (writing nothing) when the entry may not follow ``head``,
        and ``book_of(head)`` returns the spend book the entry carries (raising, as ``check``
        does, when it may not follow: a spend cap); without it the head's is carried forward."""
        head, fresh = self._heads.get(account_id), False
        if head is None:
            head, fresh = await self._head(account_id, fresh=True), True
        while True:
            try:
                if check is not None:
                    check(head)
                book = None if book_of is None else book_of(head)
            except Exception:
                if fresh:
                    raise
                head, fresh = await self._head(account_id, fresh=True), True  # the cache may be behind
                continue
            try:
                return await self._append(account_id, kind, request_id, delta, head, book, **extra)
            except WrongLastSequence:
                head, fresh = await self._head(account_id, fresh=True), True

    async def _entry_at(self, seq: int) -> tuple[str, dict]:
        """Return (account id, entry) of the ledger entry at ``seq``."""
        message = await self._call(self._js.get_msg(self._ledger_stream, seq=seq, direct=True))
        return message.subject[len(self._ledger_prefix) :], orjson.loads(message.data)

    async def reserve(self, account_id: str, credits: int, request_id: str, note: ChargeNote | None = None) -> int:
        """Return the balance after debiting ``credits``; InsufficientCredits (nothing written)
        when the balance cannot cover them.

        A retry with the same ``request_id`` within the de-duplication window, from any
        process, charges nothing and returns the current balance (LedgerConflict when it was
        for another account or amount). Another process's debit is recognised by the server
        when the retry is published, so a retry the balance can no longer cover is refused as
        InsufficientCredits instead (gateways never retry a debit: they mint a charge id per
        request).
        """
        require_credits(credits)
        check_request_id(request_id)
        check_account_id(account_id)
        async with self._lock("ledger", account_id):
            own = self._own_debit(request_id)
            if own is not None:  # a retry of this process's own debit
                if own[:2] != (account_id, credits):
                    raise LedgerConflict(f"request {quoted(request_id)} already has a debit on other terms")
                return (await self._head(account_id, fresh=True)).balance
            noted = (
                {}
                if note is None
                else {"endpoint": note.endpoint, "key_id": note.key_id, "http_request_id": note.request_id}
            )
            key_id = "" if note is None else note.key_id
            due: list[tuple[SpendWarning, ...]] = [()]

            def spend(head: _Head) -> SpendBook:
                book, due[0] = head.book.debit(account_id, key_id, credits, spend_caps.now_s())
                return book

            seq, duplicate = await self._write(
                account_id,
                "debit",
                request_id,
                -credits,
                lambda head: rules.charge(head.balance, credits),
                spend,
                **noted,
            )
            if duplicate:
                charged_to, entry = await self._entry_at(seq)
                if charged_to != account_id or entry["kind"] != "debit" or entry["credits"] != credits:
                    raise LedgerConflict(f"request {quoted(request_id)} already has a debit on other terms")
                return (await self._head(account_id, fresh=True)).balance
            # The warnings of the book that was written: of all processes, only this one wrote it.
            self._spend_warnings.extend(due[0])
            self._remember_debit(request_id, account_id, credits, key_id)
            return self._heads[account_id].balance

    def _remember_debit(self, request_id: str, account_id: str, credits: int, key_id: str = "") -> None:
        now = time.monotonic()
        # Oldest first (insertion order): forget those past the window, a few at a time.
        while self._own_debits:
            oldest = next(iter(self._own_debits))
            if now - self._own_debits[oldest][2] < OWN_DEBITS_REMEMBERED_S:
                break
            del self._own_debits[oldest]
        self._own_debits[request_id] = (account_id, credits, now, time.time(), key_id)

    def _own_debit(self, request_id: str) -> tuple[str, int, float, float, str] | None:
        """Return (account id, credits, when on the monotonic clock, when in Unix seconds, key
        id) of this process's recent debit of ``request_id``."""
        own = self._own_debits.get(request_id)
        return own if own is not None and time.monotonic() - own[2] < OWN_DEBITS_REMEMBERED_S else None

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        """Return the balance after giving back ``credits`` of the debit of ``request_id``, once.

        Any process can refund any request debited within the de-duplication window; a
        request with no debit found gets nothing (a refund never mints credits). Raises
        ValueError when ``credits`` exceeds the debit, LedgerConflict when the debit was
        another account's, AccountNotFound.
        """
        require_credits(credits)
        check_request_id(request_id)
        check_account_id(account_id)
        # Looked up before taking the account's lock: a lookup that reads the ledger must not
        # hold up the account's debits. A refund written meanwhile by another process has the
        # same message id, so the server's de-duplication keeps it to one.
        charged, refunded, debited_at_s, key_id = await self._find_debit(account_id, request_id)
        due = rules.refund_due(charged, refunded, credits, request_id)
        async with self._lock("ledger", account_id):
            duplicate = True
            if due:
                _, duplicate = await self._write(
                    account_id,
                    "refund",
                    request_id,
                    due,
                    book_of=lambda head: head.book.refund(key_id, due, debited_at_s, spend_caps.now_s()),
                )
            return (await self._head(account_id, fresh=duplicate)).balance

    async def _find_debit(self, account_id: str, request_id: str) -> tuple[int | None, bool, float, str]:
        """Return (credits debited for ``request_id`` on the account, or None; whether a refund
        of it is already known; when it was debited, in Unix seconds; the key it was debited
        through, or ''). This process knows its own recent debits (a refund written
        since is then caught by the ledger's de-duplication); any other is looked for in the
        account's ledger over the de-duplication window."""
        return (await self._find_debits(account_id, {request_id}))[request_id]

    async def _find_debits(
        self, account_id: str, request_ids: set[str]
    ) -> dict[str, tuple[int | None, bool, float, str]]:
        """Return what :meth:`_find_debit` returns for each of ``request_ids``, those not this
        process's own found in one read of the account's ledger."""
        debits: dict[str, tuple[int | None, bool, float, str]] = {}
        for request_id in request_ids:
            own = self._own_debit(request_id)
            if own is not None:
                if own[0] != account_id:
                    raise LedgerConflict(f"request {quoted(request_id)} was charged to another account")
                debits[request_id] = (own[1], False, own[3], own[4])
        others = request_ids - debits.keys()
        if not others:
            return debits
        await self._head(account_id)
        found: dict[str, dict[str, dict]] = {}

        def look(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["request_id"] in others:
                found.setdefault(entry["request_id"], {})[entry["kind"]] = entry

        await self._scan(
            self._ledger_stream, self._ledger_prefix + account_id, look, time.time() - self._duplicate_window_s
        )
        for request_id in others:
            kinds = found.get(request_id, {})
            debit = kinds.get("debit")
            debits[request_id] = (
                (None, "refund" in kinds, 0.0, "")
                if debit is None
                else (debit["credits"], "refund" in kinds, debit["at_s"], debit.get("key_id", ""))
            )
        return debits

    async def refund_charges(self, account_id: str, charges: list[tuple[str, int]]) -> int:
        """Return the balance after giving back each charge (request id, credits) as
        :meth:`refund` does, once each, their debits found in one read of the ledger (a dead
        gateway's batches: one read, not one per item). Raises as :meth:`refund` does."""
        check_account_id(account_id)
        for request_id, credits in charges:
            require_credits(credits)
            check_request_id(request_id)
        debits = await self._find_debits(account_id, {request_id for request_id, _ in charges})
        async with self._lock("ledger", account_id):
            duplicate = True
            for request_id, credits in charges:
                charged, refunded, debited_at_s, key_id = debits[request_id]
                due = rules.refund_due(charged, refunded, credits, request_id)
                if due:
                    _, duplicate = await self._write(
                        account_id,
                        "refund",
                        request_id,
                        due,
                        book_of=lambda head, key_id=key_id, due=due, at_s=debited_at_s: head.book.refund(
                            key_id, due, at_s, spend_caps.now_s()
                        ),
                    )
            return (await self._head(account_id, fresh=duplicate)).balance

    async def top_up(self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up") -> int:
        """Return the balance after adding ``credits`` to the account (id or name).

        Idempotent per ``request_id`` at any distance in time (an index entry backs the
        de-duplication window); LedgerConflict when the id was used on other terms;
        BalanceCeiling past MAX_BALANCE.
        """
        require_credits(credits)
        explicit = request_id is not None
        request_id = check_request_id(request_id) if explicit else f"topup:{uuid.uuid4()}"
        account_id = (await self._account_record(account))["id"]
        index_key = f"topup.{digest(request_id)}"
        async with self._lock("ledger", account_id):
            if explicit:
                found = await self._get_json(self._accounts, index_key)
                if found is not None:
                    if (found[1]["account_id"], found[1]["credits"]) != (account_id, credits):
                        raise LedgerConflict(f"request {quoted(request_id)} already has a topup on other terms")
                    return (await self._head(account_id, fresh=True)).balance
            seq, duplicate = await self._write(
                account_id,
                "topup",
                request_id,
                credits,
                lambda head: check_balance_ceiling(account_id, head.balance, credits),
                reason=reason,
            )
            if duplicate:
                topped_up, entry = await self._entry_at(seq)
                if topped_up != account_id or entry["credits"] != credits:
                    raise LedgerConflict(f"request {quoted(request_id)} already has a topup on other terms")
            if explicit:
                await self._create(
                    self._accounts, index_key, orjson.dumps({"account_id": account_id, "credits": credits})
                )
            return (await self._head(account_id, fresh=duplicate)).balance

    async def balance(self, account_id: str) -> int:
        """Return the account's balance in credits (always read from the server). Raises AccountNotFound."""
        return (await self._head(account_id, fresh=True)).balance

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        """Return ledger totals for the account from ``since`` (inclusive, on the writers' clocks).

        Reads the account's entries since then (its whole ledger when ``since`` is None), one
        batch at a time. Raises AccountNotFound.
        """
        since = require_aware(since, "since")
        await self._head(account_id, fresh=True)
        totals = {"debit": [0, 0], "refund": [0, 0], "topup": [0, 0]}
        since_s = None if since is None else since.timestamp()

        def count(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["kind"] in CREDIT_KINDS and (since_s is None or entry["at_s"] >= since_s):
                total = totals[entry["kind"]]
                total[0] += 1
                total[1] += entry["credits"]

        start_s = None if since_s is None else since_s - USAGE_CLOCK_MARGIN_S
        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, count, start_s)
        return Usage.of_totals(account_id, since, totals)

    async def daily_usage(
        self, account_id: str, first_day: date, last_day: date, key_id: str | None = None
    ) -> list[UsageRow]:
        """Return the account's requests per day, key and endpoint (``CreditLedger.daily_usage``),
        folded from its ledger entries since ``first_day`` (refunds of those days' debits come
        later, so the scan runs to the stream's end). Raises AccountNotFound, ValueError."""
        start_s, _ = day_bounds_s(first_day, last_day)
        await self._head(account_id, fresh=True)  # AccountNotFound for an unknown id
        entries: list[LedgerEntry] = []

        def keep(message: Msg) -> None:
            entry = orjson.loads(message.data)
            if entry["kind"] in ("debit", "refund"):
                note = ChargeNote(entry.get("endpoint", ""), entry.get("key_id", ""))
                entries.append(
                    LedgerEntry(from_unix_s(entry["at_s"]), entry["kind"], entry["credits"], entry["request_id"], note)
                )

        await self._scan(self._ledger_stream, self._ledger_prefix + account_id, keep, start_s - USAGE_CLOCK_MARGIN_S)
        return usage_rows(entries, first_day, last_day, key_id)

    async def set_spend_cap(self, account: str, cap: SpendCap, key_id: str | None = None) -> SpendStatus:
        """Return the account's spend status after replacing the caps of the account or of its
        key ``key_id`` (``SpendCaps.set_spend_cap``): a ``caps`` entry on the account's ledger,
        moving no credit, carrying the new book. Raises AccountNotFound, KeyNotFound, ValueError."""
        spend_caps.validate_cap(cap)
        account_id = (await self._account_record(account))["id"]
        if key_id is not None:
            key = await self.get_key(key_id)
            if key is None or key.account_id != account_id:
                raise no_such_key(key_id)
        scope = key_id or spend_caps.ACCOUNT_SCOPE
        async with self._lock("ledger", account_id):
            await self._write(
                account_id,
                "caps",
                f"caps:{uuid.uuid4()}",
                0,
                book_of=lambda head: head.book.with_cap(scope, cap, spend_caps.now_s()),
            )
            return self._heads[account_id].book.status(account_id, spend_caps.now_s())

    async def spend_status(self, account: str) -> SpendStatus:
        """Return the account's caps and spend now, read from its ledger's last entry."""
        account_id = (await self._account_record(account))["id"]
        head = await self._head(account_id, fresh=True)
        return head.book.status(account_id, spend_caps.now_s())

    def take_spend_warnings(self) -> list[SpendWarning]:
        """Return, and forget, the 80 % warnings due from this process's debits."""
        taken, self._spend_warnings[:] = list(self._spend_warnings), []
        return taken
