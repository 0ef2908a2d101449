"""The test traffic's part of ``tests/unit/store/test_key_mode_contract.py`` (its own window and
slots, counted by computation), collected again here with ``factory`` opening the MemoryStore
of the benchmarks: every store keeps the same test limits. (The memory store keeps no key
life cycle worth the contract's key tests: it serves the benchmarks' fixed keys.)"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from store.memory_store import MemoryStore
from tests.unit.store.test_key_mode_contract import (  # noqa: F401 (the contract's tests, collected here too)
    test_a_test_request_counts_its_computations_in_the_window_all_or_nothing,
    test_a_test_request_holds_its_slots_all_or_nothing_and_frees_them_together,
    test_test_traffic_and_live_traffic_never_use_up_each_others_limit,
    test_test_traffic_counts_in_its_own_window_and_refuses_at_its_limit,
    test_test_traffic_holds_its_own_slots_until_released,
    test_test_traffic_of_one_account_leaves_another_accounts_alone,
    test_two_gateways_admitting_test_batches_at_once_never_pass_the_test_limits,
)


@dataclass
class MemoryFactory:
    """Opens the one MemoryStore it holds: two "gateways" of a test share its dictionaries, as
    two gateways share a store's file or server."""

    store: MemoryStore = field(default_factory=MemoryStore)

    async def open(self) -> MemoryStore:
        return self.store


@pytest.fixture
def factory() -> MemoryFactory:
    """The store under test: a fresh MemoryStore."""
    return MemoryFactory()
