"""The in-memory key and credit store: the Store protocol in one process's dictionaries, no I/O.

The third backend beside :mod:`store.sqlite_store` and :mod:`store.nats_store`,
kept as simple as it can be: nothing is persisted or shared between processes, ``usage``
reports nothing, and ``daily_usage`` folds the debits and refunds it remembers. It is the
"free store" reference the other stores are measured against
(``bench/stub_gateway.py``, ``make bench``), not a store to run the API on.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterable
from dataclasses import replace
from datetime import date, datetime

from store import rules, spend_caps
from store.bounds import check_balance_ceiling, require_credits, validate_limits, validate_new_account
from store.chart_records import ChartLimitReached, StoredChart, check_chart
from store.errors import no_such_account, no_such_key
from store.interfaces import admit_then_reserve
from store.key_format import KeyMode, generate_key, hash_key, prefix_hint
from store.memory_idempotency import MemoryIdempotency
from store.origins import validate_origins
from store.records import (
    Account,
    Admission,
    AdmittedCharge,
    ChargeNote,
    KeyRecord,
    LedgerEntry,
    Usage,
    UsageRow,
    utc_now,
)
from store.spend_caps import SpendBook, SpendCap, SpendStatus, SpendWarning
from store.usage_rows import usage_rows
from store.webhook_records import (
    CHART_DELETED,
    ENDED,
    KEEP_DELIVERIES,
    Delivery,
    Webhook,
    WebhookLimitReached,
    check_delivery,
    check_webhook,
    ended,
    replacement,
)

#: What an account's id gains to name the window and slots of its test-key requests (its
#: ids are uuid hex digits, so no account's own entry can be another's test entry).
TEST_TRAFFIC_SUFFIX = "-test"


class MemoryStore(MemoryIdempotency):
    """Accounts, keys, balances, admissions and idempotency records in dictionaries of one process."""

    def __init__(self) -> None:
        super().__init__()
        self.accounts: dict[str, Account] = {}
        self.keys: dict[str, KeyRecord] = {}
        self.charges: dict[str, int] = {}
        self.refunded: set[str] = set()
        #: Each account's debits and refunds, oldest first, for daily_usage.
        self.entries: dict[str, list[LedgerEntry]] = {}
        self.slots: dict[str, dict[str, rules.Slot]] = {}
        self.windows: dict[str, rules.Window] = {}
        self.charts: dict[tuple[str, str], StoredChart] = {}
        self.books: dict[str, SpendBook] = {}
        self.spend_warnings: list[SpendWarning] = []
        self.webhooks: dict[str, Webhook] = {}
        self.deliveries: dict[str, list[Delivery]] = {}
        self.delivered: set[tuple[str, str]] = set()
        self._closed = asyncio.Event()

    async def create_webhook(self, webhook: Webhook, limit: int) -> Webhook:
        check_webhook(webhook)
        if sum(1 for kept in self.webhooks.values() if kept.account_id == webhook.account_id) >= limit:
            raise WebhookLimitReached(limit)
        self.webhooks[webhook.webhook_id] = webhook
        return webhook

    async def get_webhook(self, account_id: str, webhook_id: str) -> Webhook | None:
        webhook = self.webhooks.get(webhook_id)
        return webhook if webhook is not None and webhook.account_id == account_id else None

    async def replace_webhook(self, webhook: Webhook) -> Webhook | None:
        check_webhook(webhook)
        kept = await self.get_webhook(webhook.account_id, webhook.webhook_id)
        written = None if kept is None else replacement(kept, webhook)
        if written is not None:
            self.webhooks[webhook.webhook_id] = written
        return written

    async def end_chart_webhooks(self, account_id: str, chart_id: str) -> int:
        now = utc_now()
        ending = [
            w
            for w in self.webhooks.values()
            if w.account_id == account_id and w.chart_id == chart_id and w.state != ENDED
        ]
        for webhook in ending:
            self.webhooks[webhook.webhook_id] = ended(webhook, CHART_DELETED, now)
        return len(ending)

    async def delete_webhook(self, account_id: str, webhook_id: str) -> bool:
        if await self.get_webhook(account_id, webhook_id) is None:
            return False
        del self.webhooks[webhook_id]
        self.deliveries.pop(webhook_id, None)
        return True

    async def list_webhooks(self, account_id: str) -> list[Webhook]:
        return sorted((w for w in self.webhooks.values() if w.account_id == account_id), key=lambda w: w.webhook_id)

    async def all_webhooks(self) -> list[Webhook]:
        return sorted(self.webhooks.values(), key=lambda w: w.webhook_id)

    async def record_delivery(self, delivery: Delivery, keep: int = KEEP_DELIVERIES) -> None:
        check_delivery(delivery)
        if delivery.webhook_id in self.webhooks:
            self.deliveries[delivery.webhook_id] = [delivery, *self.deliveries.get(delivery.webhook_id, [])][:keep]

    async def recent_deliveries(self, webhook_id: str, limit: int) -> list[Delivery]:
        return self.deliveries.get(webhook_id, [])[:limit]

    async def mark_delivered(self, webhook_id: str, event_id: str) -> bool:
        first = (webhook_id, event_id) not in self.delivered
        self.delivered.add((webhook_id, event_id))
        return first

    async def is_delivered(self, webhook_id: str, event_id: str) -> bool:
        return (webhook_id, event_id) in self.delivered

    async def create_chart(self, chart: StoredChart, limit: int) -> StoredChart:
        check_chart(chart)
        if sum(1 for account_id, _ in self.charts if account_id == chart.account_id) >= limit:
            raise ChartLimitReached(limit)
        self.charts[(chart.account_id, chart.chart_id)] = chart
        return chart

    async def get_chart(self, account_id: str, chart_id: str) -> StoredChart | None:
        return self.charts.get((account_id, chart_id))

    async def replace_chart(self, chart: StoredChart) -> StoredChart | None:
        if (chart.account_id, chart.chart_id) not in self.charts:
            return None
        self.charts[(chart.account_id, chart.chart_id)] = check_chart(chart)
        return chart

    async def delete_chart(self, account_id: str, chart_id: str) -> bool:
        return self.charts.pop((account_id, chart_id), None) is not None

    async def list_charts(self, account_id: str, after: str | None, limit: int) -> list[StoredChart]:
        ids = sorted(
            chart_id for owner, chart_id in self.charts if owner == account_id and (after is None or chart_id > after)
        )
        return [self.charts[(account_id, chart_id)] for chart_id in ids[:limit]]

    async def create_account(
        self, name: str, credits: int, rate_per_minute: int = 300, max_concurrent: int = 50
    ) -> Account:
        validate_new_account(name, credits, rate_per_minute, max_concurrent)
        account = Account(uuid.uuid4().hex, name, credits, rate_per_minute, max_concurrent)
        self.accounts[account.id] = account
        return account

    async def get_account(self, account: str) -> Account | None:
        return self.accounts.get(account) or next((a for a in self.accounts.values() if a.name == account), None)

    async def top_up(self, account: str, credits: int, *, request_id: str | None = None, reason: str = "top-up") -> int:
        found = await self.get_account(account)
        check_balance_ceiling(found.id, found.balance, require_credits(credits))
        self.accounts[found.id] = replace(found, balance=found.balance + credits)
        return found.balance + credits

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
        found = await self.get_account(account)
        plain = generate_key(mode)
        record = KeyRecord(
            uuid.uuid4().hex,
            found.id,
            hash_key(plain),
            prefix_hint(plain),
            utc_now(),
            expires_at,
            None,
            validate_origins(allowed_origins),
            browser_only,
            name,
            mode,
        )
        self.keys[record.key_hash] = record
        return plain, record

    async def find_key_by_hash(self, key_hash: str) -> KeyRecord | None:
        return self.keys.get(key_hash)

    async def get_key(self, key_id: str) -> KeyRecord | None:
        return next((k for k in self.keys.values() if k.key_id == key_id), None)

    async def revoke_key(self, key_id: str) -> KeyRecord:
        record = await self.get_key(key_id)
        self.keys[record.key_hash] = replace(record, revoked_at=utc_now())
        return self.keys[record.key_hash]

    async def update_origins(self, key_id: str, origins: Iterable[str], browser_only: bool | None = None) -> KeyRecord:
        record = await self.get_key(key_id)
        self.keys[record.key_hash] = replace(record, allowed_origins=validate_origins(origins))
        return self.keys[record.key_hash]

    async def list_keys(self, account: str) -> list[KeyRecord]:
        found = await self.get_account(account)
        return [k for k in self.keys.values() if k.account_id == found.id]

    async def reserve(self, account_id: str, credits: int, request_id: str, note: ChargeNote | None = None) -> int:
        account = self.accounts[account_id]
        if request_id in self.charges:  # a retry, not a second charge
            return account.balance
        balance = rules.charge(account.balance, credits)
        note = note or ChargeNote()
        book, due = self.books.get(account_id, SpendBook()).debit(account_id, note.key_id, credits, spend_caps.now_s())
        self.books[account_id] = book
        self.spend_warnings.extend(due)
        self.accounts[account_id] = replace(account, balance=balance)
        self.charges[request_id] = credits
        self.entries.setdefault(account_id, []).append(LedgerEntry(utc_now(), "debit", credits, request_id, note))
        return balance

    async def refund(self, account_id: str, credits: int, request_id: str) -> int:
        due = rules.refund_due(self.charges.get(request_id), request_id in self.refunded, credits, request_id)
        if due:
            self.refunded.add(request_id)
            debit = next(e for e in self.entries[account_id] if e.request_id == request_id and e.kind == "debit")
            book = self.books.get(account_id, SpendBook())
            self.books[account_id] = book.refund(debit.note.key_id, due, debit.at.timestamp(), spend_caps.now_s())
            self.entries.setdefault(account_id, []).append(LedgerEntry(utc_now(), "refund", due, request_id))
            return await self.top_up(account_id, due)
        return self.accounts[account_id].balance

    async def set_spend_cap(self, account: str, cap: SpendCap, key_id: str | None = None) -> SpendStatus:
        found = await self.get_account(account)
        if found is None:
            raise no_such_account(account)
        if key_id is not None:
            key = await self.get_key(key_id)
            if key is None or key.account_id != found.id:
                raise no_such_key(key_id)
        book = self.books.get(found.id, SpendBook()).with_cap(
            key_id or spend_caps.ACCOUNT_SCOPE, cap, spend_caps.now_s()
        )
        self.books[found.id] = book
        return book.status(found.id, spend_caps.now_s())

    async def spend_status(self, account: str) -> SpendStatus:
        found = await self.get_account(account)
        if found is None:
            raise no_such_account(account)
        return self.books.get(found.id, SpendBook()).status(found.id, spend_caps.now_s())

    def take_spend_warnings(self) -> list[SpendWarning]:
        taken, self.spend_warnings = self.spend_warnings, []
        return taken

    async def balance(self, account_id: str) -> int:
        return self.accounts[account_id].balance

    async def usage(self, account_id: str, since: datetime | None = None) -> Usage:
        return Usage(account_id, since, 0, 0, 0, 0, 0)

    async def daily_usage(
        self, account_id: str, first_day: date, last_day: date, key_id: str | None = None
    ) -> list[UsageRow]:
        if account_id not in self.accounts:
            raise no_such_account(account_id)
        return usage_rows(self.entries.get(account_id, ()), first_day, last_day, key_id)

    async def set_limits(
        self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None
    ) -> Account:
        validate_limits(rate_per_minute, max_concurrent)
        found = await self.get_account(account)
        self.accounts[found.id] = replace(
            found,
            rate_per_minute=rate_per_minute or found.rate_per_minute,
            max_concurrent=max_concurrent or found.max_concurrent,
        )
        return self.accounts[found.id]

    async def admit(
        self, account: Account, slot_id: str, now_s: float | None = None, *, charge: tuple[str, int] | None = None
    ) -> Admission:
        now_s = time.time() if now_s is None else now_s
        stored = self.slots.get(account.id, {})
        live = rules.live_slots(stored, now_s)
        admission, window = rules.admit(
            self.windows.get(account.id), len(live), account.rate_per_minute, account.max_concurrent, now_s
        )
        if window is not None:
            for charge_id, credits in rules.lapsed_charges(stored, now_s):
                await self.refund(account.id, credits, charge_id)
            self.windows[account.id] = window
            self.slots[account.id] = rules.hold(live, slot_id, now_s, charge)
        return admission

    async def admit_and_reserve(
        self,
        account: Account,
        slot_id: str,
        credits: int,
        request_id: str,
        now_s: float | None = None,
        note: ChargeNote | None = None,
    ) -> AdmittedCharge:
        return await admit_then_reserve(self, account, slot_id, credits, request_id, now_s, note)

    async def release(self, account_id: str, slot_id: str) -> None:
        self.slots[account_id] = rules.release(self.slots.get(account_id, {}), slot_id)

    async def hold_charge(self, account_id: str, slot_id: str, charge: tuple[str, int]) -> None:
        self.slots[account_id] = rules.with_charge(self.slots.get(account_id, {}), slot_id, charge)

    async def admit_test_traffic(
        self, account: Account, slot_id: str, now_s: float | None = None, *, computations: int = 1, slots: int = 1
    ) -> Admission:
        now_s = time.time() if now_s is None else now_s
        entry = account.id + TEST_TRAFFIC_SUFFIX
        live = rules.live_slots(self.slots.get(entry, {}), now_s)
        admission, window = rules.admit(
            self.windows.get(entry),
            len(live),
            account.rate_per_minute,
            account.max_concurrent,
            now_s,
            computations=computations,
            slots=slots,
        )
        if window is not None:  # test slots hold no charges: nothing lapsed is owed back
            self.windows[entry] = window
            self.slots[entry] = rules.hold_group(live, rules.slot_group(slot_id, slots), now_s)
        return admission

    async def release_test_traffic(self, account_id: str, slot_id: str, slots: int = 1) -> None:
        entry = account_id + TEST_TRAFFIC_SUFFIX
        self.slots[entry] = rules.release(self.slots.get(entry, {}), *rules.slot_group(slot_id, slots))

    async def key_changes(self) -> AsyncIterator[str | None]:
        await self._closed.wait()
        return
        yield  # an async generator that yields nothing until the store closes

    async def close(self) -> None:
        self._closed.set()
