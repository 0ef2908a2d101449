"""The admin operations the CLI (``gateway/admin/cli.py``) and the admin HTTP API
(``gateway/admin/api.py``) both carry out, and the views both show, so the two interfaces
find, show and rotate the same way.

A view never holds a key nor its hash: a plain key appears once, in what created it.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from gateway.utc_text import iso
from store.errors import KeyNotActive, StoreError, no_such_account, no_such_key
from store.interfaces import Store
from store.key_format import shown_prefix
from store.owner_records import OwnerRecord
from store.records import Account, KeyRecord, Usage


def account_view(account: Account) -> dict[str, Any]:
    """Return what an admin sees of an account: id, name, balance, limits, creation time."""
    view = asdict(account)
    view["created_at"] = iso(account.created_at)
    return view


def key_view(record: KeyRecord) -> dict[str, Any]:
    """Return what an admin sees of a key: id, account, prefix hint, mode, state and settings.

    Never the key (the store does not have it) nor its hash.
    """
    # Deliberately built field by field: the record's key_hash must never reach the output.
    return {
        "key_id": record.key_id,
        "name": record.name,
        "account_id": record.account_id,
        "prefix": shown_prefix(record.mode, record.prefix_hint),
        "mode": record.mode,
        "state": record.state(),
        "created_at": iso(record.created_at),
        "expires_at": iso(record.expires_at),
        "revoked_at": iso(record.revoked_at),
        "allowed_origins": list(record.allowed_origins),
        "browser_only": record.browser_only,
    }


def owner_view(owner: OwnerRecord) -> dict[str, Any]:
    """Return what an admin sees of a dashboard owner: id, account, email, whether a password
    is set, and until when the pending invite works (never the password hash nor the invite)."""
    return {
        "owner_id": owner.owner_id,
        "account_id": owner.account_id,
        "email": owner.email,
        "created_at": iso(owner.created_at),
        "has_password": owner.has_password,
        "invite_expires_at": iso(owner.invite_expires_at),
    }


def usage_view(usage: Usage, name: str) -> dict[str, Any]:
    """Return an account's ledger totals as an admin sees them (``name`` is the account's)."""
    return {
        "account": name,
        "account_id": usage.account_id,
        "since": iso(usage.since),
        "requests": usage.requests,
        "refunds": usage.refunds,
        "credits_debited": usage.credits_debited,
        "credits_refunded": usage.credits_refunded,
        "credits_used": usage.credits_used,
        "credits_topped_up": usage.credits_topped_up,
    }


async def find_account(store: Store, account: str) -> Account:
    """Return the account whose id, or else whose name, is ``account``. Raises AccountNotFound."""
    found = await store.get_account(account)
    if found is None:
        raise no_such_account(account)
    return found


async def find_key(store: Store, key_id: str) -> KeyRecord:
    """Return the key with id ``key_id``, in any state. Raises KeyNotFound."""
    record = await store.get_key(key_id)
    if record is None:
        raise no_such_key(key_id)
    return record


async def account_summary(store: Store, account: str) -> dict[str, Any]:
    """Return the account's view with its count of keys and of active keys. Raises AccountNotFound."""
    found = await find_account(store, account)
    records = await store.list_keys(found.id)
    view = account_view(found)
    view["keys"] = len(records)
    view["active_keys"] = sum(record.state() == "active" for record in records)
    return view


async def usage_summary(store: Store, account: str, since: datetime | None) -> dict[str, Any]:
    """Return the account's ledger totals since ``since`` (None: since its creation) and its
    balance. Raises AccountNotFound."""
    found = await find_account(store, account)
    view = usage_view(await store.usage(found.id, since=since), found.name)
    view["balance"] = found.balance
    return view


async def rotate_key(store: Store, key_id: str) -> tuple[str, KeyRecord]:
    """Return ``(plain_key, record)`` of a new key that replaces the active key ``key_id``.

    The new key belongs to the same account and has the same name, mode (live or test), allowed
    origins, browser-only flag and expiry. The old key is left active: rotation lets the integration switch before
    the old key is revoked (spec, "States and transitions"), which the caller does when told.
    Raises KeyNotFound, KeyNotActive (a revoked or expired key has nothing left to hand over).
    """
    old = await find_key(store, key_id)
    state = old.state()
    if state != "active":
        raise KeyNotActive(f"key {key_id} is {state}; only an active key can be rotated, create a new key instead")
    try:
        return await store.create_key(
            old.account_id,
            expires_at=old.expires_at,
            allowed_origins=old.allowed_origins,
            browser_only=old.browser_only,
            name=old.name,
            mode=old.mode,
        )
    except StoreError:
        raise
    except ValueError:
        # The stored settings were valid when set; only the expiry can have passed since the
        # check above, and an expired key is not rotated.
        raise KeyNotActive(f"key {key_id} is expired; create a new key instead") from None
