"""store/transaction_metrics.py: each store method a process calls is one transaction timed by
store and method, and counted when it fails (docs/operating.md); what follows the store or
waits for work is not."""

from __future__ import annotations

import asyncio

import pytest
from prometheus_client import REGISTRY

from shared.runtime.config import load_settings
from store.choice import open_configured_store
from store.errors import AccountNotFound, StoreBusy, StoreUnavailable
from store.interfaces import Store
from store.sqlite_store import SqliteStore
from store.transaction_metrics import UNTIMED_PREFIXES, time_transactions, timed_methods


def transactions(store: str, operation: str) -> float:
    labels = {"store": store, "operation": operation}
    return REGISTRY.get_sample_value("celestial_store_transaction_duration_seconds_count", labels) or 0.0


def test_a_store_method_is_timed_as_one_transaction_of_its_store(tmp_path):
    async def scenario():
        store = time_transactions(SqliteStore(str(tmp_path / "s.sqlite3")), "sqlite")
        try:
            before = transactions("sqlite", "get_account"), transactions("sqlite", "create_account")
            account = await store.create_account("acme", 10)
            assert (await store.get_account(account.id)).id == account.id
            after = transactions("sqlite", "get_account"), transactions("sqlite", "create_account")
            return before, after
        finally:
            await store.close()

    (get_before, create_before), (get_after, create_after) = asyncio.run(scenario())
    assert (get_after - get_before, create_after - create_before) == (1, 1)


def test_the_configured_store_is_timed_and_stays_a_store(tmp_path):
    settings = load_settings({"CELESTIAL_DATA_DIR": str(tmp_path)})

    async def scenario():
        store = await open_configured_store(settings)
        try:
            before = transactions("sqlite", "get_account")
            await store.get_account("nobody")
            return isinstance(store, Store), transactions("sqlite", "get_account") - before
        finally:
            await store.close()

    assert asyncio.run(scenario()) == (True, 1)


def test_following_waiting_and_closing_are_not_transactions(tmp_path):
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    names = timed_methods(store)
    assert "reserve" in names and "refund" in names
    assert not [name for name in names if name.startswith(UNTIMED_PREFIXES)]
    asyncio.run(store.close())


def failures(store: str, operation: str, error: str) -> float:
    labels = {"store": store, "operation": operation, "reason": error}
    return REGISTRY.get_sample_value("celestial_store_transaction_failures_total", labels) or 0.0


class _FailingStore:
    """A store whose methods raise what a real one may: its own failures and its refusals."""

    async def get_account(self, account_id):
        raise StoreUnavailable("nats down")

    async def charge(self, amount):
        raise StoreBusy("locked")

    async def refund(self, amount):
        raise RuntimeError("a bug")

    async def top_up(self, account_id):
        raise AccountNotFound("no account")


def test_a_failed_transaction_is_counted_by_its_error_and_a_refusal_is_not():
    store = time_transactions(_FailingStore(), "nats")
    calls = {"get_account": "unavailable", "charge": "busy", "refund": "unexpected", "top_up": None}
    before = {name: {e: failures("nats", name, e) for e in ("unavailable", "busy", "unexpected")} for name in calls}

    async def scenario():
        for name in calls:
            with pytest.raises((StoreUnavailable, StoreBusy, RuntimeError, AccountNotFound)):
                await getattr(store, name)(1)

    asyncio.run(scenario())
    for name, error in calls.items():
        grown = {e for e, count in before[name].items() if failures("nats", name, e) > count}
        assert grown == ({error} if error else set()), name
