"""store/nats_keys.py: the NATS store's keys as bucket ``P_KEYS`` holds them: the record under
the SHA-256 of the key (never the key), indexes by key id and by account, lookups that send
nothing but a hash or a token to the server, and an index left without its record skipped.

References: store/nats_store.py's docstring (bucket ``P_KEYS``: ``hash.<sha256>`` -> the
record; ``id.<key_id>`` and ``acct.<account_id>.<key_id>`` -> the hash), docs/stores.md. The
bucket is read and written with a plain nats-py client, not through the store.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from store.nats_keys import key_record_of
from tests.nats.store.nats_store_factory import with_plain_client


def _scenario(nats_factory, body):
    """Run ``body(store, keys_bucket)`` on a fresh store, with a plain client's view of ``P_KEYS``."""

    async def viewed(store, js, prefix):
        return await body(store, await js.key_value(f"{prefix}_KEYS"))

    return with_plain_client(nats_factory, viewed)


def test_a_key_is_stored_under_its_sha256_with_its_indexes_by_id_and_by_account(nats_factory):
    async def body(store, keys):
        account = await store.create_account("acme", 0)
        plain, record = await store.create_key("acme", allowed_origins=["https://a.example"], name="web")
        key_hash = hashlib.sha256(plain.encode()).hexdigest()
        doc = json.loads((await keys.get(f"hash.{key_hash}")).value)
        assert (doc["key_id"], doc["account_id"], doc["prefix_hint"]) == (record.key_id, account.id, plain[9:13])
        assert (doc["allowed_origins"], doc["name"], doc["revoked_at_s"]) == (["https://a.example"], "web", None)
        assert (await keys.get(f"id.{record.key_id}")).value.decode() == key_hash
        assert (await keys.get(f"acct.{account.id}.{record.key_id}")).value.decode() == key_hash
        assert plain[9:] not in json.dumps(doc)

    _scenario(nats_factory, body)


def test_a_revocation_is_written_into_the_record_under_its_hash(nats_factory):
    async def body(store, keys):
        await store.create_account("acme", 0)
        plain, record = await store.create_key("acme")
        revoked = await store.revoke_key(record.key_id)
        doc = json.loads((await keys.get(f"hash.{hashlib.sha256(plain.encode()).hexdigest()}")).value)
        assert doc["revoked_at_s"] == pytest.approx(revoked.revoked_at.timestamp(), abs=1e-6)

    _scenario(nats_factory, body)


@pytest.mark.parametrize("looked_up", ["plain", "upper", "wildcard"])
def test_a_lookup_by_anything_but_a_lowercase_sha256_hex_finds_nothing(nats_factory, looked_up):
    async def body(store, keys):
        await store.create_account("acme", 0)
        plain, _ = await store.create_key("acme")
        candidate = {"plain": plain, "upper": hashlib.sha256(plain.encode()).hexdigest().upper(), "wildcard": ">"}[
            looked_up
        ]
        assert await store.find_key_by_hash(candidate) is None

    _scenario(nats_factory, body)


@pytest.mark.parametrize("key_id", ["*", ">", "key.x", ""])
def test_a_key_id_that_is_no_subject_token_finds_no_key(nats_factory, key_id):
    async def body(store, keys):
        await store.create_account("acme", 0)
        await store.create_key("acme")
        assert await store.get_key(key_id) is None

    _scenario(nats_factory, body)


def test_an_index_left_without_its_record_is_no_key_of_the_account(nats_factory):
    async def body(store, keys):
        account = await store.create_account("acme", 0)
        _, kept = await store.create_key("acme")
        # A creation cut short after its indexes: they lead to a hash with no record.
        await keys.create(f"acct.{account.id}.key_cut", b"0" * 64)
        await keys.create("id.key_cut", b"0" * 64)
        assert [k.key_id for k in await store.list_keys("acme")] == [kept.key_id]
        assert await store.get_key("key_cut") is None

    _scenario(nats_factory, body)


def test_a_record_written_before_keys_had_names_reads_as_unnamed():
    doc = {
        "key_id": "key_1",
        "account_id": "acct_1",
        "key_hash": "0" * 64,
        "prefix_hint": "AbCd",
        "created_at_s": 86_400.0,
        "expires_at_s": None,
        "revoked_at_s": None,
        "allowed_origins": ["https://a.example"],
        "browser_only": True,
    }
    record = key_record_of(doc)
    assert record.name == "" and record.allowed_origins == ("https://a.example",) and record.browser_only
    assert record.created_at.isoformat() == "1970-01-02T00:00:00+00:00"
