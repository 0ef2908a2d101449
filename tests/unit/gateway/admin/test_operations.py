"""gateway/admin/operations.py: what the admin CLI and API both do and show: views with
moments as ISO 8601 UTC ``Z`` text to the second (``gateway/utc_text.py``), a key never shown nor its
hash, an owner never with its password hash or invite; accounts found by id or name; rotation
(spec, "States and transitions") makes a key of the same account and settings and leaves the
old one active, and refuses a key that is not active."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from gateway.admin.operations import (
    account_summary,
    find_account,
    find_key,
    key_view,
    owner_view,
    rotate_key,
    usage_summary,
)
from store.errors import AccountNotFound, KeyNotActive, KeyNotFound
from store.owner_records import OwnerRecord
from store.records import KeyRecord
from store.sqlite_store import SqliteStore


@pytest.fixture
def run(tmp_path):
    """Return a runner of ``scenario(store)`` on a new SQLite store (its ledger keeps the
    totals usage reads), opened and closed on one event loop."""

    def on_store(scenario):
        async def opened():
            store = SqliteStore(tmp_path / "store.sqlite")
            try:
                return await scenario(store)
            finally:
                await store.close()

        return asyncio.run(opened())

    return on_store


def test_a_key_view_shows_its_prefix_hint_but_never_its_hash():
    record = KeyRecord(
        "key_1",
        "acc_1",
        "h" * 64,
        "Ab3d",
        datetime(2026, 1, 1, tzinfo=UTC),
        allowed_origins=("https://a.example",),
        name="ci",
    )
    view = key_view(record)
    assert (
        view["prefix"] == "svc_live_Ab3d..."
        and view["state"] == "active"
        and view["allowed_origins"] == ["https://a.example"]
    )
    assert "h" * 64 not in repr(view) and "key_hash" not in view


def test_an_owner_view_says_whether_a_password_is_set_but_never_shows_it_or_the_invite():
    owner = OwnerRecord(
        "own_1",
        "acc_1",
        "ada@example.com",
        datetime(2026, 1, 1, tzinfo=UTC),
        password_hash="$argon2id$secret",
        invite_digest="d" * 64,
    )
    view = owner_view(owner)
    assert view["has_password"] is True and "$argon2id$secret" not in repr(view) and "d" * 64 not in repr(view)


def test_an_account_is_found_by_id_or_name_and_an_unknown_one_is_account_not_found(run):
    async def scenario(store):
        made = await store.create_account("acme", 5)
        by_id, by_name = await find_account(store, made.id), await find_account(store, "acme")
        with pytest.raises(AccountNotFound):
            await find_account(store, "nobody")
        with pytest.raises(KeyNotFound):
            await find_key(store, "key_missing")
        return made, by_id, by_name

    made, by_id, by_name = run(scenario)
    assert by_id == by_name == made


def test_an_account_summary_counts_its_keys_and_active_keys(run):
    async def scenario(store):
        account = await store.create_account("counted", 5)
        await store.create_key(account.id)
        _, revoked = await store.create_key(account.id)
        await store.revoke_key(revoked.key_id)
        return await account_summary(store, "counted")

    summary = run(scenario)
    assert (summary["keys"], summary["active_keys"], summary["balance"]) == (2, 1, 5)


def test_a_usage_summary_carries_the_balance_and_the_ledger_totals(run):
    async def scenario(store):
        account = await store.create_account("spender", 10)
        await store.reserve(account.id, 3, "r1")
        await store.reserve(account.id, 2, "r2")
        await store.refund(account.id, 2, "r2")
        return await usage_summary(store, "spender", None)

    summary = run(scenario)
    assert (summary["account"], summary["balance"], summary["requests"], summary["credits_used"]) == (
        "spender",
        7,
        2,
        3,
    )


def test_rotation_copies_the_settings_and_leaves_the_old_key_active(run):
    async def scenario(store):
        account = await store.create_account("rotating", 1)
        expiry = datetime.now(UTC) + timedelta(days=30)
        _, old = await store.create_key(
            account.id, expires_at=expiry, allowed_origins=["https://a.example"], browser_only=True, name="web"
        )
        plain, new = await rotate_key(store, old.key_id)
        return old, plain, new, await store.get_key(old.key_id)

    old, plain, new, old_after = run(scenario)
    assert plain.startswith("svc_live_") and new.key_id != old.key_id
    assert (new.account_id, new.expires_at, new.allowed_origins, new.browser_only, new.name) == (
        old.account_id,
        old.expires_at,
        old.allowed_origins,
        old.browser_only,
        old.name,
    )
    assert old_after.state() == "active"


def test_a_revoked_key_cannot_be_rotated(run):
    async def scenario(store):
        account = await store.create_account("gone", 1)
        _, key = await store.create_key(account.id)
        await store.revoke_key(key.key_id)
        with pytest.raises(KeyNotActive, match="revoked"):
            await rotate_key(store, key.key_id)
        return len(await store.list_keys(account.id))

    assert run(scenario) == 1  # no key was made
