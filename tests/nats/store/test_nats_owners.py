"""store/nats_owners.py: the dashboard's owners, sessions and sign-in throttles as bucket
``P_OWNERS`` holds them (digests and hashes, never a secret; an email indexed by its digest),
and an account's ledger rows read from the ledger stream.

References: the module's docstring (the bucket's keys), store/owner_records.py (no record holds
a secret), docs/stores.md. The bucket is read with a plain nats-py client, not through the store.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta

import nats
import nats.js.errors
import pytest

from store.owner_records import digest_secret
from tests.nats.store.nats_store_factory import with_plain_client

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def _scenario(nats_factory, body):
    """Run ``body(store, owners_bucket)`` on a fresh store, with a plain client's view of ``P_OWNERS``."""

    async def viewed(store, js, prefix):
        return await body(store, await js.key_value(f"{prefix}_OWNERS"))

    return with_plain_client(nats_factory, viewed)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_an_owner_is_stored_with_its_invite_digest_and_indexed_by_email_digest_and_by_account(nats_factory):
    invite_secret = "invite-secret-0123456789"

    async def body(store, owners):
        account = await store.create_account("acme", 0)
        owner = await store.invite_owner(
            "acme", "Ada@Example.com", digest_secret(invite_secret), NOW + timedelta(days=7)
        )
        doc = json.loads((await owners.get(f"owner.{owner.owner_id}")).value)
        assert (doc["email"], doc["account_id"], doc["invite_digest"]) == (
            "ada@example.com",
            account.id,
            digest_secret(invite_secret),
        )
        assert doc["invite_expires_at_s"] == (NOW + timedelta(days=7)).timestamp()
        assert (await owners.get(f"email.{_sha256('ada@example.com')}")).value.decode() == owner.owner_id
        assert (await owners.get(f"acct.{account.id}.{owner.owner_id}")).value.decode() == owner.owner_id
        assert invite_secret not in json.dumps(doc)

    _scenario(nats_factory, body)


def test_a_session_is_its_secrets_digest_and_is_deleted_when_it_ends(nats_factory):
    async def body(store, owners):
        await store.create_account("acme", 0)
        owner = await store.invite_owner("acme", "a@b.co", "d", NOW + timedelta(days=1))
        session = await store.create_session(owner.owner_id, digest_secret("cookie-secret"), NOW)
        doc = json.loads((await owners.get(f"session.{session.session_id}")).value)
        assert (doc["owner_id"], doc["secret_digest"]) == (owner.owner_id, digest_secret("cookie-secret"))
        await store.end_session(session.session_id)
        with pytest.raises(nats.js.errors.KeyNotFoundError):
            await owners.get(f"session.{session.session_id}")

    _scenario(nats_factory, body)


def test_a_throttle_is_kept_under_the_digest_of_its_subject_and_cleared_by_deletion(nats_factory):
    async def body(store, owners):
        await store.record_sign_in_failure("email:a@b.co", 1000.0, 60, 5, 300)
        await store.record_sign_in_failure("email:a@b.co", 1001.0, 60, 5, 300)
        doc = json.loads((await owners.get(f"throttle.{_sha256('email:a@b.co')}")).value)
        assert (doc["failures"], doc["window_start_s"]) == (2, 1000.0)
        await store.clear_sign_in_throttle("email:a@b.co")
        assert await store.get_sign_in_throttle("email:a@b.co") is None

    _scenario(nats_factory, body)


def test_a_touch_never_moves_last_seen_backwards(nats_factory):
    async def body(store, owners):
        await store.create_account("acme", 0)
        owner = await store.invite_owner("acme", "a@b.co", "d", NOW + timedelta(days=1))
        session = await store.create_session(owner.owner_id, "s", NOW)
        await store.touch_session(session.session_id, NOW + timedelta(minutes=5))
        await store.touch_session(session.session_id, NOW + timedelta(minutes=1))
        assert (await store.get_session(session.session_id)).last_seen_at == NOW + timedelta(minutes=5)

    _scenario(nats_factory, body)


def test_ledger_entries_are_the_ledger_streams_entries_oldest_first(nats_factory):
    async def body(store, owners):
        account = await store.create_account("acme", 10)
        await store.reserve(account.id, 2, "req-1")
        await store.refund(account.id, 2, "req-1")
        entries = await store.ledger_entries(account.id, NOW - timedelta(days=36500))
        assert [(e.kind, e.credits, e.request_id) for e in entries] == [
            ("topup", 10, f"open:{account.id}"),
            ("debit", 2, "req-1"),
            ("refund", 2, "req-1"),
        ]

    _scenario(nats_factory, body)
