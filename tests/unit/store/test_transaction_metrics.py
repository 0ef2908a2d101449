"""store/transaction_metrics.py: each store method a process calls is one transaction timed by
store and method (docs/operating.md); what follows the store or waits for work is not."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from shared.runtime.config import load_settings
from store.choice import open_configured_store
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
