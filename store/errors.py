"""The store's own failures: not client errors (those are the catalogue's ``CelestialError``s),
but what a store raises for the gateway to map (``gateway/errors.py``) or never to see.
"""

from __future__ import annotations

from store.key_format import contains_key_prefix, quoted


class StoreError(Exception):
    """Base of the store's own failures (not client errors: those are CelestialError)."""


class AccountNotFound(StoreError, LookupError):
    """No account has that id or name."""


class AccountExists(StoreError, ValueError):
    """Another account already has that name."""


class KeyNotFound(StoreError, LookupError):
    """No key has that id."""


def no_such_account(account: object) -> AccountNotFound:
    """Return the AccountNotFound for a name or id looked up in vain (any key in it redacted)."""
    return AccountNotFound(f"no account {quoted(account)}")


def no_such_key(key_id: object) -> KeyNotFound:
    """Return the KeyNotFound for a key id looked up in vain, never repeating a plain key sent
    in its place (a common slip: the id is the ``key_...`` that listings show)."""
    hint = ""
    if isinstance(key_id, str) and contains_key_prefix(key_id):
        hint = " (that is an API key, not a key id: key ids start with 'key_'; list the account's keys to find it)"
    return KeyNotFound(f"no key {quoted(key_id)}{hint}")


class KeyNotActive(StoreError, ValueError):
    """The operation needs an active key and the key is revoked or expired."""


class BalanceCeiling(StoreError, ValueError):
    """A top-up would take the balance past MAX_BALANCE; nothing was changed."""


class LedgerConflict(StoreError, ValueError):
    """A request id already has a ledger row of that kind for another account or amount."""


class StoreUnavailable(StoreError):
    """The store cannot be reached (a NATS server down); nothing was changed by the call.

    The gateway answers 503 ``service_unavailable`` and charges nothing.
    """


class StoreOutcomeUnknown(StoreUnavailable):
    """A write reached the store but its answer never came back (the connection dropped, or no
    answer within the time limit): it may or may not have been applied.

    The gateway answers 503 like any StoreUnavailable, and refunds the request's charge once
    the store answers again (a refund of a debit never written gives nothing back).
    """


class StoreBusy(StoreError):
    """The store stayed locked by other writers for longer than the store's wait limit."""
