"""store/nats_ledger.py: the NATS store's accounts and ledger as the server holds them: one
ledger subject per account whose last entry's ``balance_after`` is the balance, each entry
published with ``Nats-Msg-Id: <kind>:<request_id>``; the account record and its name index;
the index that keeps an invoice top-up idempotent past the de-duplication window.

References: docs/stores.md (design notes: the ledger is the balance; compare-and-set then
de-duplication), store/nats_store.py's docstring (the layout). The stream and buckets are
read with a plain nats-py client, not through the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import json

import nats
import nats.js.errors

from store.nats_store import open_nats_store
from store.records import ChargeNote
from tests.nats.store.nats_store_factory import with_plain_client


async def _entries(js, prefix: str, account_id: str) -> list:
    """Return the raw messages of the account's ledger subject, in order."""
    subject, found, seq = f"{prefix.lower()}.ledger.{account_id}", [], 0
    while True:
        try:
            message = await js.get_msg(f"{prefix}_LEDGER", seq=seq + 1, subject=subject, next=True)
        except nats.js.errors.NotFoundError:
            return found
        found.append(message)
        seq = message.seq


def _scenario(nats_factory, body):
    """Run ``body(store, js, prefix)`` on a fresh store, with a plain client's JetStream context."""
    return with_plain_client(nats_factory, body)


def test_every_change_of_a_balance_is_one_entry_and_the_last_entrys_balance_after_is_the_balance(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 100)
        await store.reserve(account.id, 30, "req-1")
        await store.reserve(account.id, 20, "req-2")
        await store.refund(account.id, 20, "req-2")
        await store.top_up("acme", 5, request_id="inv-1")
        entries = [json.loads(m.data) for m in await _entries(js, prefix, account.id)]
        assert [(e["kind"], e["request_id"], e["credits"], e["balance_after"]) for e in entries] == [
            ("topup", f"open:{account.id}", 100, 100),
            ("debit", "req-1", 30, 70),
            ("debit", "req-2", 20, 50),
            ("refund", "req-2", 20, 70),
            ("topup", "inv-1", 5, 75),
        ]
        assert await store.balance(account.id) == 75

    _scenario(nats_factory, body)


def test_each_entry_is_published_under_its_kind_and_request_id_for_de_duplication(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.reserve(account.id, 3, "req-1")
        await store.reserve(account.id, 3, "req-1")
        messages = await _entries(js, prefix, account.id)
        assert [m.headers["Nats-Msg-Id"] for m in messages] == [f"topup:open:{account.id}", "debit:req-1"]

    _scenario(nats_factory, body)


def test_a_debit_entry_keeps_its_note(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("acme", 10)
        await store.reserve(account.id, 3, "req-1", ChargeNote("/v1/positions", "key_1", "client-9"))
        debit = json.loads((await _entries(js, prefix, account.id))[-1].data)
        assert (debit["endpoint"], debit["key_id"], debit["http_request_id"]) == ("/v1/positions", "key_1", "client-9")

    _scenario(nats_factory, body)


def test_an_account_record_is_found_by_id_and_its_name_index_by_the_digest_of_the_lowercased_name(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("AcMe", 10, rate_per_minute=7, max_concurrent=2)
        accounts = await js.key_value(f"{prefix}_ACCOUNTS")
        doc = json.loads((await accounts.get(f"id.{account.id}")).value)
        assert (doc["name"], doc["rate_per_minute"], doc["max_concurrent"]) == ("AcMe", 7, 2)
        assert "balance" not in doc  # the ledger holds the balance, nothing else does
        name_key = "name." + hashlib.sha256(b"acme").hexdigest()
        assert (await accounts.get(name_key)).value.decode() == account.id

    _scenario(nats_factory, body)


def test_an_account_is_found_by_its_name_in_any_case_as_names_are_unique_in_any_case(nats_factory):
    async def body(store, js, prefix):
        account = await store.create_account("Acme", 0)
        assert await store.get_account("Acme") == account == await store.get_account("aCME")

    _scenario(nats_factory, body)


def test_a_top_up_retried_after_the_de_duplication_window_is_recognised_by_its_index(nats_factory):
    factory = nats_factory

    async def run():
        store = await open_nats_store(factory.url, prefix=factory.prefix, duplicate_window_s=0.2)
        nc = await nats.connect(factory.url)
        try:
            js = nc.jetstream()
            account = await store.create_account("acme", 0)
            await store.top_up("acme", 5, request_id="inv-1")
            accounts = await js.key_value(f"{factory.prefix}_ACCOUNTS")
            index = json.loads((await accounts.get("topup." + hashlib.sha256(b"inv-1").hexdigest())).value)
            assert index == {"account_id": account.id, "credits": 5}
            await asyncio.sleep(0.5)  # past the window: the server alone would take a second entry
            assert await store.top_up("acme", 5, request_id="inv-1") == 5
            assert len(await _entries(js, factory.prefix, account.id)) == 2
        finally:
            await nc.close()
            await store.close()

    asyncio.run(run())


def test_charges_refunded_together_by_another_process_come_back_once_each_and_never_more(nats_factory):
    async def body(store, js, prefix):
        other = await nats_factory.open()
        try:
            account = await store.create_account("acme", 20)
            for request_id, credits in (("item-1", 3), ("item-2", 4), ("item-3", 5)):
                await store.reserve(account.id, credits, request_id)
            charges = [("item-1", 3), ("item-2", 4), ("never-charged", 6)]
            assert await other.refund_charges(account.id, charges) == 20 - 5  # item-3 not asked back
            assert await other.refund_charges(account.id, charges) == 15  # nothing twice
            assert await store.refund(account.id, 3, "item-1") == 15  # nor through refund
            kinds = [json.loads(m.data)["kind"] for m in await _entries(js, prefix, account.id)]
            assert kinds == ["topup", "debit", "debit", "debit", "refund", "refund"]
        finally:
            await other.close()

    with_plain_client(nats_factory, body)
