"""The per-account bound on webhook attempts in flight (issue 46, part 2).

A process (a webhook worker, a gateway answering ``/test``) lets one account have at most
``per_account`` attempts in flight at once (CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY, default 4).
An attempt holds its account's slot for at most the delivery's deadline (10 s), so an
account whose receivers are slow or hostile holds only its own slots, never another
account's: the others' attempts find their slots free. Taking a slot never waits: a caller
that finds none free says so at once (the gateway answers 429) or puts the attempt off (the
worker), rather than holding anything while it waits.
"""

from __future__ import annotations

#: Attempts one account may have in flight at once in one process, by default.
DEFAULT_PER_ACCOUNT = 4


class AccountSlots:
    """Each account's count of attempts in flight in this process, at most ``per_account``."""

    def __init__(self, per_account: int = DEFAULT_PER_ACCOUNT) -> None:
        if per_account < 1:
            raise ValueError("an account needs at least one slot")
        self.per_account = per_account
        self._held: dict[str, int] = {}

    def take(self, account_id: str) -> bool:
        """Take one of the account's slots; return False, taking nothing, when all are held."""
        held = self._held.get(account_id, 0)
        if held >= self.per_account:
            return False
        self._held[account_id] = held + 1
        return True

    def give_back(self, account_id: str) -> None:
        """Free a slot the account took."""
        held = self._held.get(account_id, 0) - 1
        if held < 0:
            raise RuntimeError(f"account {account_id} gave back a slot it did not hold")
        if held:
            self._held[account_id] = held
        else:
            del self._held[account_id]  # the map holds only accounts with attempts in flight

    def held(self, account_id: str) -> int:
        """Return how many of the account's slots are held."""
        return self._held.get(account_id, 0)
