"""The gateway's accounting against a real SQLite store that another writer holds locked, or
whose answer is lost: a store that cannot answer is a 503 that costs nothing, and a refund it
could not take at once is delivered when it can."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from gateway.accounting import REFUND_RETRY_S, Accounting
from gateway.errors import as_celestial_error
from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE
from shared.errors import ServiceUnavailable, SpendCapReached
from store.errors import StoreBusy, StoreOutcomeUnknown
from store.records import SLOT_LEASE_S, ChargeNote
from store.spend_caps import SpendCap
from store.sqlite_store import SqliteStore


def locked(path) -> sqlite3.Connection:
    """Return a connection holding the store's write lock until it is rolled back."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_store_locked_past_its_wait_limit_is_503_and_charges_nothing(tmp_path):
    async def scenario() -> None:
        path = tmp_path / "store.sqlite3"
        store = SqliteStore(path, lock_wait_s=0.1)
        try:
            account = await store.create_account("acme", 10)
            holder = locked(path)
            try:
                with pytest.raises(StoreBusy) as caught:
                    await Accounting(store, store).charge(account.id, 1, "charge-1")
                assert isinstance(as_celestial_error(caught.value, "request-1"), ServiceUnavailable)
            finally:
                holder.rollback()
                holder.close()
            assert await store.balance(account.id) == 10
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_refund_the_locked_store_could_not_take_is_delivered_later(tmp_path):
    async def scenario() -> None:
        path = tmp_path / "store.sqlite3"
        store = SqliteStore(path, lock_wait_s=0.1)
        try:
            account = await store.create_account("acme", 10)
            accounting = Accounting(store, store)
            assert await accounting.charge(account.id, 3, "charge-1") == 7
            holder = locked(path)
            try:
                await accounting.refund(account.id, 3, "charge-1")  # deferred, not raised
            finally:
                holder.rollback()
                holder.close()
            await asyncio.sleep(REFUND_RETRY_S * 3)
            await accounting.drain()
            assert await store.balance(account.id) == 10
        finally:
            await store.close()

    asyncio.run(scenario())


class AnswerLostStore(SqliteStore):
    """A store whose first debit is written but its answer lost, as a dropped connection does."""

    lost = False

    def _answer(self, answer):
        if not self.lost:
            self.lost = True
            raise StoreOutcomeUnknown("the answer was lost")
        return answer

    async def reserve(self, account_id, credits, request_id, note=None):
        return self._answer(await super().reserve(account_id, credits, request_id, note))

    async def admit_and_reserve(self, account, slot_id, credits, request_id, now_s=None, note=None):
        return self._answer(await super().admit_and_reserve(account, slot_id, credits, request_id, now_s, note))


@pytest.mark.parametrize("step", ["charge", "admit_and_charge"])
def test_a_charge_whose_answer_was_lost_is_a_503_and_refunded_once_the_store_answers(tmp_path, step):
    async def scenario() -> None:
        store = AnswerLostStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10)
            accounting = Accounting(store, store)
            with pytest.raises(StoreOutcomeUnknown):
                if step == "charge":
                    await accounting.charge(account.id, 3, "charge-1")
                else:
                    await accounting.admit_and_charge(account, "slot-1", 3, "charge-1")
            await asyncio.sleep(REFUND_RETRY_S * 2)
            await accounting.drain()
            assert await store.balance(account.id) == 10
            usage = await store.usage(account.id)
            assert (usage.requests, usage.refunds) == (1, 1)
        finally:
            await store.close()

    asyncio.run(scenario())


class CancelledOnceCommittedStore(SqliteStore):
    """A store whose admissions are committed, then their caller cancelled before it hears the
    answer (its client gone as the group commit answered)."""

    async def admit(self, account, slot_id, now_s=None, *, charge=None):
        await super().admit(account, slot_id, now_s, charge=charge)
        raise asyncio.CancelledError

    async def admit_and_reserve(self, account, slot_id, credits, request_id, now_s=None, note=None):
        await super().admit_and_reserve(account, slot_id, credits, request_id, now_s, note)
        raise asyncio.CancelledError


@pytest.mark.parametrize("step", ["admit", "admit_and_charge"])
def test_an_admission_cancelled_once_committed_releases_its_slot(tmp_path, step):
    async def scenario() -> None:
        store = CancelledOnceCommittedStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            accounting = Accounting(store, store)
            with pytest.raises(asyncio.CancelledError):
                if step == "admit":
                    await accounting.admit(account, "slot-1")
                else:
                    await accounting.admit_and_charge(account, "slot-1", 3, "charge-1")
            await accounting.drain()
            assert (await SqliteStore.admit(store, account, "slot-2")).allowed  # the only slot is free again
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_release_the_locked_store_could_not_take_is_delivered_later_and_the_charge_stands(tmp_path):
    async def scenario() -> None:
        path = tmp_path / "store.sqlite3"
        store = SqliteStore(path, lock_wait_s=0.1)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            accounting = Accounting(store, store)
            assert (await accounting.admit_and_charge(account, "slot-1", 3, "charge-1")).balance == 7
            holder = locked(path)
            try:
                accounting.release(account.id, "slot-1")
                await asyncio.sleep(REFUND_RETRY_S * 2)  # the store is locked: the release waits
            finally:
                holder.rollback()
                holder.close()
            await asyncio.sleep(REFUND_RETRY_S * 2)
            await accounting.drain()
            assert (await store.admit(account, "slot-2")).allowed  # the slot was freed
            assert await store.balance(account.id) == 7  # and the request's charge stands
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_charge_made_under_an_earlier_admission_is_refunded_if_its_slot_lapses(tmp_path):
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10)
            accounting = Accounting(store, store)
            now_s = time.time()
            assert (await store.admit(account, "batch-slot", now_s)).allowed  # a batch's one admission
            assert await accounting.charge(account.id, 3, "item-1", "batch-slot") == 7
            # The gateway dies before releasing the slot; the next admission after its lease refunds.
            assert (await store.admit(account, "next", now_s + SLOT_LEASE_S + 1)).allowed
            assert await store.balance(account.id) == 10
        finally:
            await store.close()

    asyncio.run(scenario())


class KeyTestAdmissionLostStore(SqliteStore):
    """A store whose first test-key admission is written but its answer lost."""

    lost = False

    async def admit_test_traffic(self, account, slot_id, now_s=None, **counts):
        admission = await super().admit_test_traffic(account, slot_id, now_s, **counts)
        if not self.lost:
            self.lost = True
            raise StoreOutcomeUnknown("the answer was lost")
        return admission


def test_a_test_key_admission_whose_answer_was_lost_frees_its_test_slot(tmp_path):
    async def scenario() -> None:
        store = KeyTestAdmissionLostStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            accounting = Accounting(store, store)
            with pytest.raises(StoreOutcomeUnknown):
                await accounting.admit(account, "slot-1", test=True)
            await accounting.drain()
            # The slot the lost admission took was released: the account's only test slot is free.
            assert (await accounting.admit(account, "slot-2", test=True)).allowed
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_test_batch_admission_whose_answer_was_lost_frees_every_slot_it_took(tmp_path):
    async def scenario() -> None:
        store = KeyTestAdmissionLostStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10)
            accounting = Accounting(store, store)
            with pytest.raises(StoreOutcomeUnknown):
                await accounting.admit(account, "batch", test=True, computations=50, slots=TEST_MAX_CONCURRENT)
            await accounting.drain()
            again = await accounting.admit(account, "batch-2", test=True, computations=1, slots=TEST_MAX_CONCURRENT)
            assert again.allowed  # all five test slots were free again
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_test_key_admission_is_counted_under_the_test_limits_and_takes_no_live_slot(tmp_path):
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "store.sqlite3")
        try:
            account = await store.create_account("acme", 10, rate_per_minute=300, max_concurrent=1)
            accounting = Accounting(store, store)
            test = await accounting.admit(account, "test-slot", test=True)
            assert (test.allowed, test.limit) == (True, TEST_RATE_PER_MINUTE)
            live = await accounting.admit(account, "live-slot")
            assert (live.allowed, live.limit, live.remaining) == (True, 300, 299)
            accounting.release(account.id, "test-slot", test=True)
            await accounting.drain()
            assert (await store.admit_test_traffic(account, "again", None)).allowed
            assert await store.balance(account.id) == 10
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_spend_cap_warnings_of_a_charge_are_handed_on_once_and_a_capped_charge_is_402(tmp_path):
    async def scenario() -> None:
        store = SqliteStore(tmp_path / "store.sqlite")
        handed: list = []

        async def keep(warnings) -> None:
            handed.extend(warnings)

        accounting = Accounting(store, store, keep)
        try:
            account = await store.create_account("acme", 100)
            await store.set_spend_cap(account.id, SpendCap(daily=5))
            outcome = await accounting.admit_and_charge(account, "slot-1", 4, "c1", ChargeNote())
            assert outcome.balance == 96
            await accounting.charge(account.id, 1, "c2")
            with pytest.raises(SpendCapReached):
                await accounting.charge(account.id, 1, "c3")
            await accounting.drain()
            assert [(w.period, w.cap, w.spent) for w in handed] == [("daily", 5, 4)]
        finally:
            await store.close()

    asyncio.run(scenario())
