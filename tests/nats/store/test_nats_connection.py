"""store/nats_connection.py: the connection the NATS store's parts share: the names it checks
before they reach the server (prefix, subject tokens, request ids), the layout it creates (the
ledger stream and the key-value buckets), and its failures (unreachable, closed).

References: store/nats_store.py's docstring (the layout), docs/stores.md (design notes: the
ledger stream, the buckets, 503 while NATS is unreachable); SHA-256 test vector from FIPS
180-2 (B.1). The layout is read with a plain nats-py client, not through the store.
"""

from __future__ import annotations

import asyncio
import socket

import nats
import pytest

from store.errors import AccountNotFound, StoreError, StoreUnavailable
from store.nats_connection import (
    NatsConnection,
    check_account_id,
    check_request_id,
    digest,
    fold_case,
)
from store.nats_store import open_nats_store


def test_a_digest_is_the_sha256_hex_of_the_text():
    assert digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_case_folding_lowercases_ascii_letters_only_as_sqlite_nocase_does():
    assert fold_case("AcMe-Ltd_9") == "acme-ltd_9"
    assert fold_case("ÉCOLE") == "École"


@pytest.mark.parametrize("request_id", ["r", "req-1", "topup:1b4e28ba", "x" * 200, "!~"])
def test_a_request_id_of_1_to_200_printable_ascii_characters_without_spaces_is_accepted(request_id):
    assert check_request_id(request_id) == request_id


@pytest.mark.parametrize("request_id", ["", "x" * 201, "req 1", "req\n1", "réq", None, 7])
def test_a_request_id_that_cannot_be_a_header_value_is_refused(request_id):
    with pytest.raises(ValueError, match="request_id"):
        check_request_id(request_id)


@pytest.mark.parametrize("account_id", ["acct.1", "acct_*", ">", "", "a" * 65, "acct 1", None])
def test_an_account_id_that_is_no_single_subject_token_is_no_account(account_id):
    with pytest.raises(AccountNotFound):
        check_account_id(account_id)


def test_an_account_id_of_letters_digits_dashes_and_underscores_is_accepted():
    assert check_account_id("acct_0123456789abcdef") == "acct_0123456789abcdef"


@pytest.mark.parametrize("prefix", ["CELESTIAL", "T", "a-b_9", "P" * 32])
def test_a_prefix_is_a_letter_then_up_to_31_letters_digits_dashes_or_underscores(prefix):
    assert NatsConnection(prefix=prefix).prefix == prefix


@pytest.mark.parametrize("prefix", ["", "9X", "_X", "A.B", "A*", "P" * 33, None])
def test_a_prefix_that_cannot_name_a_stream_is_refused(prefix):
    with pytest.raises(ValueError, match="prefix"):
        NatsConnection(prefix=prefix)


def test_opening_creates_the_ledger_stream_and_the_buckets_under_the_prefix(nats_factory):
    factory = nats_factory

    async def run():
        store = await factory.open()
        nc = await nats.connect(factory.url)
        try:
            info = await nc.jsm().stream_info(f"{factory.prefix}_LEDGER")
            assert info.config.subjects == [f"{factory.prefix.lower()}.ledger.*"]
            assert info.config.deny_delete and info.config.deny_purge
            assert info.config.duplicate_window == 3600
            js = nc.jetstream()
            for bucket in ("ACCOUNTS", "KEYS", "LIMITS", "OWNERS"):
                status = await (await js.key_value(f"{factory.prefix}_{bucket}")).status()
                assert status.history == 1
        finally:
            await nc.close()
            await store.close()

    asyncio.run(run())


def test_opening_again_keeps_the_layout_and_what_it_holds(nats_factory):
    factory = nats_factory

    async def run():
        first = await factory.open()
        try:
            account = await first.create_account("acme", 10)
        finally:
            await first.close()
        second = await factory.open()
        try:
            assert (await second.get_account("acme")) == account
        finally:
            await second.close()

    asyncio.run(run())


def test_opening_a_store_while_the_server_is_down_fails_within_its_connect_timeout():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_url = f"nats://127.0.0.1:{probe.getsockname()[1]}"
    # The generous outer limit only keeps a store that ignored its timeout from hanging the run.
    with pytest.raises(StoreUnavailable, match=r"within 0\.3 s"):
        asyncio.run(asyncio.wait_for(open_nats_store(dead_url, connect_timeout_s=0.3), 30))


def test_a_closed_store_refuses_every_call_and_closing_twice_is_harmless(nats_factory):
    factory = nats_factory

    async def run():
        store = await factory.open()
        await store.close()
        await store.close()
        with pytest.raises(StoreError, match="closed"):
            await store.create_account("acme", 1)

    asyncio.run(run())
