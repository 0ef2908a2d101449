"""The NATS store's test-traffic limiter: each account's test-key requests counted in a limiter
entry of their own, ``<account_id>-test`` in the ``P_LIMITS`` bucket, under the live limiter's
rules and compare-and-set (``nats_limiter.py``), so that neither kind of traffic uses up the
other's limit."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from store import rules
from store.nats_connection import NatsConnection, check_account_id
from store.records import Account, Admission

#: What an account's test-traffic entry adds to its id. Account ids are ``acct_`` and hex
#: digits, never with a '-', so no account's own entry can be another's test entry.
TEST_ENTRY_SUFFIX = "-test"


def traffic_entry_of_test_keys(account_id: str) -> str:
    """Return the limiter entry of the account's test traffic (checked to be an account id first)."""
    return check_account_id(account_id) + TEST_ENTRY_SUFFIX


class NatsTestTraffic(NatsConnection):
    """Test-key admissions (the store's :class:`~store.interfaces.LimiterForTestKeys`), through
    the live limiter's :meth:`~store.nats_limiter.NatsLimiter.admit` and ``release`` on the
    account's test entry (the two are parts of one :class:`~store.nats_store.NatsStore`)."""

    async def admit_test_traffic(
        self, account: Account, slot_id: str, now_s: float | None = None, *, computations: int = 1, slots: int = 1
    ) -> Admission:
        """Return whether one more test-key request of ``account`` may run now, under its
        ``rate_per_minute`` and ``max_concurrent`` taken as the test limits, counting
        ``computations`` and holding ``slots`` slots in one compare-and-set write of the entry.
        Its slots hold no charges, so an admission never has anything to refund."""
        return await self.admit(
            replace(account, id=traffic_entry_of_test_keys(account.id)),
            slot_id,
            now_s,
            computations=computations,
            slots=slots,
        )

    async def release_test_traffic(self, account_id: str, slot_id: str, slots: int = 1) -> None:
        """Free the ``slots`` test-traffic slots held under ``slot_id``; an unknown or freed slot
        is a no-op. The releases wait together among the entry's pending releases, so one
        write usually frees them all."""
        entry = traffic_entry_of_test_keys(account_id)
        await asyncio.gather(*(self.release(entry, held) for held in rules.slot_group(slot_id, slots)))
