"""Spend caps as the operators and owners see and change them: the views the admin API, the
CLI, ``GET /v1/account`` and the dashboard all show, and the change they all make (give a
period a cap, leave it, or clear it), so every interface caps the same way.

The store keeps the caps beside the ledger (``store/spend_caps.py``); here they are read and
replaced one account or key at a time.
"""

from __future__ import annotations

from typing import Any, Final

from gateway.admin.operations import find_key
from gateway.utc_text import iso
from store.bounds import Bound
from store.interfaces import Store
from store.spend_caps import MAX_CAP, PERIODS, SpendCap, SpendLine, SpendStatus

#: A daily or a monthly cap in credits: 0 (nothing may be spent) up to MAX_CAP.
DAILY_CAP = Bound("daily", 0, MAX_CAP)
MONTHLY_CAP = Bound("monthly", 0, MAX_CAP)
CAP_BOUNDS = {"daily": DAILY_CAP, "monthly": MONTHLY_CAP}


class _Keep:
    """The value of a period left as it is by a change (beside a number, or None: cleared)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()


def line_view(line: SpendLine, status: SpendStatus) -> dict[str, Any]:
    """Return one scope's caps as shown: per period its ``cap`` (null: none), what was
    ``spent`` in the current period, in credits, and when it ``resets_at``."""
    return {
        period: {"cap": line.cap.of(period), "spent": line.spent(period), "resets_at": iso(status.resets_at(period))}
        for period in PERIODS
    }


def spend_view(status: SpendStatus) -> dict[str, Any]:
    """Return an account's caps as an admin sees them: the account's, and each key's that has
    a cap or spent anything this month."""
    return {
        "account_id": status.account_id,
        "account": line_view(status.account, status),
        "keys": [{"key_id": line.key_id, **line_view(line, status)} for line in status.keys],
    }


def changed_cap(current: SpendCap, daily: int | None | _Keep = KEEP, monthly: int | None | _Keep = KEEP) -> SpendCap:
    """Return ``current`` with each period given replaced (None clears it; KEEP keeps it)."""
    return SpendCap(
        current.daily if daily is KEEP else daily,
        current.monthly if monthly is KEEP else monthly,
    )


async def change_account_cap(
    store: Store, account: str, daily: int | None | _Keep = KEEP, monthly: int | None | _Keep = KEEP
) -> SpendStatus:
    """Return the account's spend status after changing its own caps as given. Raises
    AccountNotFound, ValueError."""
    status = await store.spend_status(account)
    return await store.set_spend_cap(status.account_id, changed_cap(status.account.cap, daily, monthly))


async def change_key_cap(
    store: Store, key_id: str, daily: int | None | _Keep = KEEP, monthly: int | None | _Keep = KEEP
) -> SpendStatus:
    """Return the key's account's spend status after changing the key's caps as given. Raises
    KeyNotFound, ValueError."""
    record = await find_key(store, key_id)
    status = await store.spend_status(record.account_id)
    return await store.set_spend_cap(record.account_id, changed_cap(status.key(key_id).cap, daily, monthly), key_id)
