"""store/interfaces.py: the store's protocols, and ``admit_then_reserve``, admit_and_reserve
done as its two steps for a store with no cheaper way.

References: the ``AdmittedCharge`` contract (store/records.py: refused by the limits, nothing is
charged; admitted but short of credits, the 402 and nothing debited), docs/stores.md (a
request's slot carries the charges made under it).
"""

from __future__ import annotations

import asyncio

from shared.errors import InsufficientCredits
from store.interfaces import (
    DashboardStore,
    GatewayHeartbeats,
    LedgerHistory,
    Owners,
    Store,
    admit_then_reserve,
)
from store.memory_store import MemoryStore
from store.nats_store import NatsStore
from store.records import Account, Admission
from store.sqlite_store import SqliteStore

ACCOUNT = Account("acct_1", "acme", balance=10)


class StepStore:
    """Answers ``admit`` with the admission given and ``reserve`` with a balance or a shortfall,
    recording each call."""

    def __init__(self, admission: Admission, balance: int | None = None):
        self.admission, self.balance, self.calls = admission, balance, []

    async def admit(self, account, slot_id, now_s=None, *, charge=None):
        self.calls.append(("admit", account.id, slot_id, now_s, charge))
        return self.admission

    async def reserve(self, account_id, credits, request_id, note=None):
        self.calls.append(("reserve", account_id, credits, request_id, note))
        if self.balance is None:
            raise InsufficientCredits("short")
        return self.balance


ALLOWED = Admission(True, 60, 59, 1_700_000_040)
REFUSED = Admission(False, 60, 0, 1_700_000_040, 30, "rate")


def test_an_admitted_request_is_charged_and_its_charge_recorded_on_its_slot():
    store = StepStore(ALLOWED, balance=7)
    charged = asyncio.run(admit_then_reserve(store, ACCOUNT, "slot-1", 3, "req-1", 1_700_000_000.0))
    assert (charged.admission, charged.balance, charged.insufficient) == (ALLOWED, 7, None)
    assert store.calls == [
        ("admit", "acct_1", "slot-1", 1_700_000_000.0, ("req-1", 3)),
        ("reserve", "acct_1", 3, "req-1", None),
    ]


def test_a_request_refused_by_the_limits_is_never_charged():
    store = StepStore(REFUSED, balance=7)
    charged = asyncio.run(admit_then_reserve(store, ACCOUNT, "slot-1", 3, "req-1"))
    assert (charged.admission, charged.balance, charged.insufficient) == (REFUSED, None, None)
    assert [call[0] for call in store.calls] == ["admit"]


def test_an_admitted_request_short_of_credits_stays_admitted_with_its_402():
    store = StepStore(ALLOWED, balance=None)
    charged = asyncio.run(admit_then_reserve(store, ACCOUNT, "slot-1", 3, "req-1"))
    assert charged.admission == ALLOWED and charged.balance is None
    assert isinstance(charged.insufficient, InsufficientCredits)


def test_every_store_is_a_store_and_the_sqlite_store_a_dashboard_store(tmp_path):
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    try:
        assert isinstance(sqlite, Store) and isinstance(sqlite, DashboardStore)
        assert isinstance(sqlite, LedgerHistory) and isinstance(sqlite, Owners)
        memory = MemoryStore()
        assert isinstance(memory, Store) and not isinstance(memory, Owners)
    finally:
        sqlite.close_sync()


def test_only_a_store_shared_by_several_gateways_has_them_beat(tmp_path):
    """A single-process store's slots lapse by their lease; the NATS store's gateways beat
    (tests/nats/store/test_nats_heartbeats.py)."""
    sqlite = SqliteStore(tmp_path / "s.sqlite3")
    try:
        assert not isinstance(sqlite, GatewayHeartbeats) and not isinstance(MemoryStore(), GatewayHeartbeats)
        assert issubclass(NatsStore, GatewayHeartbeats)
    finally:
        sqlite.close_sync()
