"""The contract every key and credit store must honour, run against each implementation.

The ``factory`` fixture opens the store under test: here the SqliteStore, in this process (the
fast tier); ``tests/nats/store/test_store_contract.py`` collects the same tests again with
``factory`` opening a NatsStore on the run's nats-server (``make test-all``). To add a backend,
add a factory class like ``SqliteFactory`` and a module that collects the suite with it. A factory
must be picklable (the multi-process test sends it to child processes) and open a fresh store on
each ``open``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import multiprocessing
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from shared.errors import InsufficientCredits
from store import (
    AccountExists,
    AccountNotFound,
    KeyNotActive,
    KeyNotFound,
    LedgerConflict,
    SqliteStore,
    Store,
    hash_key,
)
from store.bounds import MAX_BALANCE, MAX_CONCURRENT, RATE_PER_MINUTE
from store.errors import BalanceCeiling
from store.key_format import KEY_PREFIX
from store.records import RATE_WINDOW_S, SLOT_LEASE_S, Admission, ChargeNote, KeyRecord, UsageRow, utc_now

KEY_PATTERN = r"svc_live_[A-Za-z0-9_-]{32}"


@dataclass(frozen=True)
class SqliteFactory:
    """Opens SqliteStores on one file; picklable, so child processes can open their own."""

    path: str

    async def open(self) -> Store:
        return SqliteStore(self.path)

    def stored_bytes(self) -> bytes:
        """Return every byte the backend keeps on disk (database, WAL and shared memory)."""
        files = [Path(self.path), Path(self.path + "-wal"), Path(self.path + "-shm")]
        return b"".join(f.read_bytes() for f in files if f.exists())


@pytest.fixture
def factory(tmp_path) -> SqliteFactory:
    """The store under test: a fresh SQLite file."""
    return SqliteFactory(str(tmp_path / "store" / "celestial.sqlite3"))


def with_store(scenario: Callable[[Store], Awaitable[None]]):
    """Turn ``async def test_x(store)`` into a pytest test run once per store implementation."""

    def test(factory) -> None:
        async def body() -> None:
            store = await factory.open()
            try:
                await scenario(store)
            finally:
                await store.close()

        asyncio.run(body())

    test.__name__ = scenario.__name__
    test.__doc__ = scenario.__doc__
    return test


# --- accounts --------------------------------------------------------------------------------


@with_store
async def test_a_new_account_holds_its_opening_balance_and_the_default_limits(store):
    account = await store.create_account("acme", 100)
    assert (account.name, account.balance) == ("acme", 100)
    assert (account.rate_per_minute, account.max_concurrent) == (300, 50)
    assert account.created_at.tzinfo is not None
    assert await store.get_account(account.id) == account


@with_store
async def test_an_account_keeps_the_limits_it_was_created_with(store):
    account = await store.create_account("big", 5, rate_per_minute=1200, max_concurrent=8)
    fetched = await store.get_account("big")
    assert (fetched.rate_per_minute, fetched.max_concurrent, fetched.balance) == (1200, 8, 5)
    assert fetched.id == account.id


@with_store
async def test_account_names_are_unique_regardless_of_case(store):
    await store.create_account("acme", 1)
    with pytest.raises(AccountExists):
        await store.create_account("acme", 1)
    with pytest.raises(AccountExists):
        await store.create_account("ACME", 1)


@with_store
async def test_get_account_finds_by_id_or_by_name_and_returns_none_for_neither(store):
    account = await store.create_account("acme", 1)
    assert (await store.get_account(account.id)).name == "acme"
    assert (await store.get_account("acme")).id == account.id
    assert await store.get_account("nobody") is None


@with_store
async def test_account_creation_refuses_a_negative_balance_or_a_blank_name(store):
    with pytest.raises(ValueError):
        await store.create_account("acme", -1)
    with pytest.raises(ValueError):
        await store.create_account("  ", 1)


@with_store
async def test_top_up_adds_credits_once_per_request_id(store):
    account = await store.create_account("acme", 10)
    assert await store.top_up(account.id, 5, request_id="invoice-1") == 15
    assert await store.top_up("acme", 5, request_id="invoice-1") == 15  # a retry adds nothing
    assert await store.top_up("acme", 1) == 16  # no request id: each call is its own top-up
    assert await store.balance(account.id) == 16


@with_store
async def test_a_top_up_past_the_balance_ceiling_is_refused_and_changes_nothing(store):
    account = await store.create_account("acme", MAX_BALANCE - 10)
    with pytest.raises(BalanceCeiling):
        await store.top_up(account.id, 11, request_id="invoice-1")
    assert await store.balance(account.id) == MAX_BALANCE - 10
    assert (await store.usage(account.id)).credits_topped_up == MAX_BALANCE - 10
    assert await store.top_up(account.id, 10, request_id="invoice-1") == MAX_BALANCE  # the id was not spent
    assert await store.top_up(account.id, 10, request_id="invoice-1") == MAX_BALANCE  # a retry, not a refusal
    with pytest.raises(BalanceCeiling):
        await store.top_up(account.id, 1)


@with_store
async def test_concurrent_top_ups_never_take_the_balance_past_the_ceiling(store):
    account = await store.create_account("acme", MAX_BALANCE - 5)
    outcomes = await asyncio.gather(*(store.top_up(account.id, 2) for _ in range(6)), return_exceptions=True)
    assert sum(isinstance(outcome, BalanceCeiling) for outcome in outcomes) == 4
    assert await store.balance(account.id) == MAX_BALANCE - 1


@pytest.mark.parametrize(
    "credits", [0, -1, MAX_BALANCE + 1, 2**63, 10.0, True, "5"], ids=lambda value: f"{type(value).__name__}-{value}"
)
def test_a_top_up_outside_its_range_or_not_an_integer_is_refused(factory, credits):
    async def body() -> None:
        store = await factory.open()
        try:
            account = await store.create_account("acme", 5)
            with pytest.raises(ValueError):
                await store.top_up(account.id, credits)
            assert await store.balance(account.id) == 5
        finally:
            await store.close()

    asyncio.run(body())


@pytest.mark.parametrize(
    ("fields", "value"),
    [
        ("credits", MAX_BALANCE + 1),
        ("credits", 2**63),
        ("credits", 1.0),
        ("rate_per_minute", RATE_PER_MINUTE.maximum + 1),
        ("rate_per_minute", 0),
        ("max_concurrent", MAX_CONCURRENT.maximum + 1),
        ("max_concurrent", False),
    ],
    ids=lambda value: str(value),
)
def test_an_account_with_an_amount_or_limit_outside_its_range_is_not_created(factory, fields, value):
    async def body() -> None:
        store = await factory.open()
        try:
            with pytest.raises(ValueError):
                await store.create_account("acme", **{"credits": 5, fields: value})
            assert await store.get_account("acme") is None
        finally:
            await store.close()

    asyncio.run(body())


@with_store
async def test_the_largest_amounts_and_limits_are_accepted(store):
    account = await store.create_account(
        "acme", MAX_BALANCE, rate_per_minute=RATE_PER_MINUTE.maximum, max_concurrent=MAX_CONCURRENT.maximum
    )
    assert (account.balance, account.rate_per_minute, account.max_concurrent) == (
        MAX_BALANCE,
        RATE_PER_MINUTE.maximum,
        MAX_CONCURRENT.maximum,
    )
    assert await store.balance(account.id) == MAX_BALANCE
    assert (await store.usage(account.id)).credits_topped_up == MAX_BALANCE


@pytest.mark.parametrize(
    "name",
    ["a/b", "a\x00b", "tab\there", "new\nline", "", ".", "..", "-lead", "x" * 65, "Ünïcode", "svc_live_x"],
    ids=repr,
)
def test_an_account_name_outside_the_name_grammar_is_refused(factory, name):
    async def body() -> None:
        store = await factory.open()
        try:
            with pytest.raises(ValueError):
                await store.create_account(name, 5)
        finally:
            await store.close()

    asyncio.run(body())


@with_store
async def test_account_names_of_letters_digits_dots_dashes_and_underscores_are_accepted(store):
    for name in ("acme", "Acme.Corp_2", "acct-0123abcd", "expiring-1732400000000", "7" * 64):
        assert (await store.create_account(name, 1)).name == name


@with_store
async def test_top_up_of_an_unknown_account_raises_account_not_found(store):
    with pytest.raises(AccountNotFound):
        await store.top_up("nobody", 5)


# --- keys ------------------------------------------------------------------------------------


@with_store
async def test_a_created_key_is_the_prefix_and_32_url_safe_random_characters(store):
    account = await store.create_account("acme", 1)
    plain, record = await store.create_key(account.id)
    other, _ = await store.create_key("acme")
    assert re.fullmatch(KEY_PATTERN, plain)
    assert plain != other
    assert record.prefix_hint == plain[len(KEY_PREFIX) : len(KEY_PREFIX) + 4]
    assert record.account_id == account.id
    assert record.state() == "active"


@with_store
async def test_a_key_is_found_by_its_sha256_hash_and_nothing_else(store):
    await store.create_account("acme", 1)
    plain, record = await store.create_key("acme")
    assert record.key_hash == hashlib.sha256(plain.encode()).hexdigest() == hash_key(plain)
    assert await store.find_key_by_hash(record.key_hash) == record
    assert await store.find_key_by_hash(plain) is None
    assert await store.find_key_by_hash(hashlib.sha256(b"other").hexdigest()) is None


def test_the_plain_key_is_never_stored(factory):
    async def body() -> list[str]:
        store = await factory.open()
        try:
            await store.create_account("acme", 1)
            keys = [(await store.create_key("acme"))[0] for _ in range(3)]
            await store.list_keys("acme")
            return keys
        finally:
            await store.close()

    keys = asyncio.run(body())
    stored = factory.stored_bytes()
    assert hash_key(keys[0]).encode() in stored  # the scan does see what the store wrote
    for plain in keys:
        assert plain.encode() not in stored
        assert plain[len(KEY_PREFIX) :].encode() not in stored  # not even the random part


@with_store
async def test_a_key_keeps_its_expiry_origins_and_browser_only_setting(store):
    await store.create_account("acme", 1)
    expires = (utc_now() + timedelta(days=30)).replace(microsecond=0)
    _, record = await store.create_key(
        "acme",
        expires_at=expires,
        allowed_origins=["https://app.example.com", "http://localhost:3000"],
        browser_only=True,
    )
    fetched = await store.get_key(record.key_id)
    assert fetched == record
    assert fetched.expires_at == expires
    assert fetched.allowed_origins == ("https://app.example.com", "http://localhost:3000")
    assert fetched.browser_only is True
    assert fetched.revoked_at is None


@with_store
async def test_a_key_expiry_must_be_timezone_aware_and_in_the_future(store):
    await store.create_account("acme", 1)
    with pytest.raises(ValueError):
        await store.create_key("acme", expires_at=datetime(2099, 1, 1))
    with pytest.raises(ValueError):
        await store.create_key("acme", expires_at=utc_now() - timedelta(seconds=1))


@pytest.mark.parametrize(
    "origin",
    ["https://*.example.com", "https://example.com/", "https://example.com/app", "https://Example.com", "example.com"],
)
def test_origins_a_browser_can_never_send_are_refused(factory, origin):
    async def body() -> None:
        store = await factory.open()
        try:
            await store.create_account("acme", 1)
            with pytest.raises(ValueError):
                await store.create_key("acme", allowed_origins=[origin])
            _, record = await store.create_key("acme")
            with pytest.raises(ValueError):
                await store.update_origins(record.key_id, [origin])
        finally:
            await store.close()

    asyncio.run(body())


@with_store
async def test_a_key_for_an_unknown_account_cannot_be_created(store):
    with pytest.raises(AccountNotFound):
        await store.create_key("nobody")


def test_a_revoked_key_is_revoked_at_any_clock_and_an_expired_key_from_its_expiry_on():
    created = datetime(2030, 1, 1, tzinfo=UTC)
    record = KeyRecord("key_1", "acct_1", "0" * 64, "abcd", created, expires_at=created + timedelta(days=1))
    assert record.state(created) == "active"
    assert record.state(created + timedelta(days=1)) == "expired"  # the expiry instant itself is past
    revoked = KeyRecord(
        "key_1", "acct_1", "0" * 64, "abcd", created, expires_at=created + timedelta(days=1), revoked_at=created
    )
    assert revoked.state(created + timedelta(days=2)) == "revoked"  # revocation wins over expiry
    # A gateway whose clock runs behind the admin's still sees the revocation.
    assert revoked.state(created - timedelta(minutes=5)) == "revoked"
    assert "0" * 64 not in repr(record)  # a logged record shows no digest


@with_store
async def test_revoking_a_key_takes_effect_at_once_and_keeps_the_first_revocation_time(store):
    await store.create_account("acme", 1)
    _, record = await store.create_key("acme")
    revoked = await store.revoke_key(record.key_id)
    assert revoked.state() == "revoked"
    assert (await store.find_key_by_hash(record.key_hash)).state() == "revoked"
    again = await store.revoke_key(record.key_id)
    assert again.revoked_at == revoked.revoked_at


@with_store
async def test_revoking_an_unknown_key_raises_key_not_found(store):
    with pytest.raises(KeyNotFound):
        await store.revoke_key("key_missing")


@with_store
async def test_updating_origins_replaces_them_without_revoking_the_key(store):
    await store.create_account("acme", 1)
    _, record = await store.create_key("acme", allowed_origins=["https://old.example"])
    updated = await store.update_origins(record.key_id, ["https://new.example"])
    assert updated.allowed_origins == ("https://new.example",)
    assert updated.state() == "active"
    assert updated.key_hash == record.key_hash
    assert updated.browser_only is False  # browser_only=None leaves it as it was
    assert (await store.update_origins(record.key_id, [], browser_only=True)).browser_only is True
    assert (await store.update_origins(record.key_id, ["https://a.example"])).browser_only is True
    cleared = await store.update_origins(record.key_id, [], browser_only=False)
    assert (cleared.allowed_origins, cleared.browser_only) == ((), False)


@with_store
async def test_origins_of_a_revoked_or_unknown_key_cannot_change(store):
    await store.create_account("acme", 1)
    _, record = await store.create_key("acme")
    await store.revoke_key(record.key_id)
    with pytest.raises(KeyNotActive):
        await store.update_origins(record.key_id, ["https://a.example"])
    with pytest.raises(KeyNotFound):
        await store.update_origins("key_missing", ["https://a.example"])


@with_store
async def test_list_keys_returns_the_accounts_own_keys_oldest_first(store):
    await store.create_account("acme", 1)
    await store.create_account("other", 1)
    _, first = await store.create_key("acme")
    _, second = await store.create_key("acme")
    await store.create_key("other")
    assert [k.key_id for k in await store.list_keys("acme")] == [first.key_id, second.key_id]
    with pytest.raises(AccountNotFound):
        await store.list_keys("nobody")


# --- credits ---------------------------------------------------------------------------------


@with_store
async def test_reserve_debits_the_cost_and_returns_the_new_balance(store):
    account = await store.create_account("acme", 10)
    assert await store.reserve(account.id, 3, "req-1") == 7
    assert await store.reserve(account.id, 7, "req-2") == 0
    assert await store.balance(account.id) == 0


@with_store
async def test_reserve_refuses_a_cost_the_balance_cannot_cover_and_leaves_the_balance_alone(store):
    account = await store.create_account("acme", 4)
    with pytest.raises(InsufficientCredits) as caught:
        await store.reserve(account.id, 5, "req-1")
    assert caught.value.http_status == 402
    assert "5" in caught.value.message and "4" in caught.value.message  # states cost and balance
    assert await store.balance(account.id) == 4
    assert (await store.usage(account.id)).requests == 0  # the refused debit left no ledger row
    assert await store.reserve(account.id, 4, "req-1") == 0  # the id was not used up


@with_store
async def test_a_retried_reserve_with_the_same_request_id_charges_once(store):
    account = await store.create_account("acme", 10)
    assert await store.reserve(account.id, 2, "req-1") == 8
    assert await store.reserve(account.id, 2, "req-1") == 8
    assert (await store.usage(account.id)).credits_debited == 2


@with_store
async def test_a_request_id_reused_on_other_terms_is_a_conflict_not_a_charge(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    await store.reserve(acme.id, 2, "req-1")
    with pytest.raises(LedgerConflict):
        await store.reserve(other.id, 2, "req-1")
    with pytest.raises(LedgerConflict):
        await store.reserve(acme.id, 3, "req-1")
    assert (await store.balance(acme.id), await store.balance(other.id)) == (8, 10)


@with_store
async def test_reserve_refuses_a_non_positive_cost_and_an_unknown_account(store):
    account = await store.create_account("acme", 10)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            await store.reserve(account.id, bad, "req-x")
    with pytest.raises(AccountNotFound):
        await store.reserve("acct_missing", 1, "req-y")
    assert await store.balance(account.id) == 10


@with_store
async def test_a_refund_restores_the_credits_once_per_request_id(store):
    account = await store.create_account("acme", 10)
    await store.reserve(account.id, 3, "req-1")
    assert await store.refund(account.id, 3, "req-1") == 10
    assert await store.refund(account.id, 3, "req-1") == 10  # a second refund changes nothing
    usage = await store.usage(account.id)
    assert (usage.refunds, usage.credits_refunded, usage.credits_used) == (1, 3, 0)


@with_store
async def test_a_refund_never_exceeds_what_the_request_was_charged(store):
    account = await store.create_account("acme", 10)
    assert await store.refund(account.id, 5, "never-charged") == 10  # nothing to give back
    await store.reserve(account.id, 3, "req-1")
    with pytest.raises(ValueError):
        await store.refund(account.id, 4, "req-1")
    assert await store.refund(account.id, 1, "req-1") == 8  # a partial refund (batch)
    assert await store.balance(account.id) == 8


@with_store
async def test_a_refund_against_another_accounts_request_is_a_conflict(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    await store.reserve(acme.id, 3, "req-1")
    with pytest.raises(LedgerConflict):
        await store.refund(other.id, 3, "req-1")
    assert (await store.balance(acme.id), await store.balance(other.id)) == (7, 10)


@with_store
async def test_balance_and_usage_of_an_unknown_account_raise_account_not_found(store):
    with pytest.raises(AccountNotFound):
        await store.balance("acct_missing")
    with pytest.raises(AccountNotFound):
        await store.usage("acct_missing")


@with_store
async def test_usage_totals_come_from_the_ledger_and_since_counts_from_a_moment(store):
    account = await store.create_account("acme", 20)
    await store.reserve(account.id, 2, "req-1")
    await store.reserve(account.id, 5, "req-2")
    await store.refund(account.id, 5, "req-2")
    middle = utc_now()
    await asyncio.sleep(0.002)  # the ledger's clock must move past `middle`
    await store.reserve(account.id, 1, "req-3")
    await store.top_up(account.id, 4)
    usage = await store.usage(account.id)
    assert (usage.requests, usage.refunds) == (3, 1)
    assert (usage.credits_debited, usage.credits_refunded, usage.credits_used) == (8, 5, 3)
    assert usage.credits_topped_up == 24  # opening balance 20 plus the top-up
    # The ledger accounts for every credit: balance = top-ups - debits + refunds.
    assert await store.balance(account.id) == usage.credits_topped_up - usage.credits_used == 21
    recent = await store.usage(account.id, since=middle)
    assert (recent.requests, recent.credits_used, recent.credits_topped_up) == (1, 1, 4)


@with_store
async def test_the_store_satisfies_the_store_protocol(store):
    assert isinstance(store, Store)


def test_data_survives_closing_and_reopening_the_store(factory):
    async def first() -> tuple[str, str]:
        store = await factory.open()
        try:
            account = await store.create_account("acme", 10)
            _, record = await store.create_key("acme")
            await store.reserve(account.id, 4, "req-1")
            return account.id, record.key_hash
        finally:
            await store.close()

    async def second(account_id: str, key_hash: str) -> None:
        store = await factory.open()  # opening an existing store is idempotent
        try:
            assert await store.balance(account_id) == 6
            assert (await store.find_key_by_hash(key_hash)).account_id == account_id
            assert await store.reserve(account_id, 4, "req-1") == 6  # the retry is still known
        finally:
            await store.close()

    asyncio.run(second(*asyncio.run(first())))


# --- concurrency -----------------------------------------------------------------------------

WORKERS = 8
ATTEMPTS_PER_WORKER = 50
COST = 2
# 137 requests of 2 credits, plus 1 credit too few for another: 274 + 1.
AFFORDABLE = 137
OPENING_BALANCE = AFFORDABLE * COST + 1


async def _spend(factory, account_id: str, worker: int) -> int:
    """Return how many of ATTEMPTS_PER_WORKER reserves of COST succeeded for this worker."""
    store = await factory.open()
    try:
        succeeded = 0
        for attempt in range(ATTEMPTS_PER_WORKER):
            try:
                await store.reserve(account_id, COST, f"w{worker}-r{attempt}")
                succeeded += 1
            except InsufficientCredits:
                pass
        return succeeded
    finally:
        await store.close()


def _spend_in_process(factory, account_id: str, worker: int, barrier, results) -> None:
    try:
        barrier.wait(timeout=60)
        results.put((worker, asyncio.run(_spend(factory, account_id, worker))))
    except BaseException as exc:  # report it: the parent should fail at once, not time out
        results.put((worker, f"{type(exc).__name__}: {exc}"))


def _open_account(factory) -> str:
    async def body() -> str:
        store = await factory.open()
        try:
            return (await store.create_account("shared", OPENING_BALANCE)).id
        finally:
            await store.close()

    return asyncio.run(body())


def _check_books(factory, account_id: str, successes: int) -> None:
    async def body() -> None:
        store = await factory.open()
        try:
            usage = await store.usage(account_id)
            balance = await store.balance(account_id)
        finally:
            await store.close()
        assert successes == AFFORDABLE  # exactly what the balance covered, not one more
        assert balance == OPENING_BALANCE - AFFORDABLE * COST == 1  # never negative, nothing lost
        assert usage.requests == AFFORDABLE
        assert usage.credits_debited == AFFORDABLE * COST
        assert usage.credits_topped_up - usage.credits_used == balance

    asyncio.run(body())


def test_concurrent_reserves_from_many_threads_spend_exactly_the_balance(factory):
    account_id = _open_account(factory)
    barrier = threading.Barrier(WORKERS)
    counts: list[int | str] = []

    def worker(index: int) -> None:
        try:
            barrier.wait(timeout=60)
            counts.append(asyncio.run(_spend(factory, account_id, index)))
        except BaseException as exc:
            counts.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(counts) == WORKERS
    assert all(isinstance(count, int) for count in counts), counts
    _check_books(factory, account_id, sum(counts))


@pytest.mark.usefixtures("processes")
def test_concurrent_reserves_from_many_processes_spend_exactly_the_balance(factory):
    """Several gateway processes share one store: they must not overdraw it either."""
    account_id = _open_account(factory)
    context = multiprocessing.get_context("spawn")  # no connection or thread inherited by fork
    barrier = context.Barrier(WORKERS)
    results = context.Queue()
    processes = [
        context.Process(target=_spend_in_process, args=(factory, account_id, i, barrier, results))
        for i in range(WORKERS)
    ]
    for process in processes:
        process.start()
    try:
        counts = dict(results.get(timeout=120) for _ in range(WORKERS))
    finally:
        for process in processes:
            process.join(timeout=60)
        results.close()
        results.join_thread()
    assert [p.exitcode for p in processes] == [0] * WORKERS
    assert all(isinstance(count, int) for count in counts.values()), counts
    _check_books(factory, account_id, sum(counts.values()))


# --- limits ----------------------------------------------------------------------------------

# The start of a window near the present (a backend may expire its records by the real clock);
# every admission below passes now_s relative to it, so no test races the clock.
WINDOW_S = (int(time.time()) // RATE_WINDOW_S + 10) * RATE_WINDOW_S


@with_store
async def test_set_limits_changes_only_the_limits_given(store):
    account = await store.create_account("acme", 5)
    changed = await store.set_limits(account.id, rate_per_minute=120)
    assert (changed.rate_per_minute, changed.max_concurrent) == (120, 50)
    changed = await store.set_limits("acme", max_concurrent=3)
    assert (changed.rate_per_minute, changed.max_concurrent) == (120, 3)
    assert (changed.id, changed.name, changed.balance) == (account.id, "acme", 5)
    assert await store.get_account(account.id) == changed


@with_store
async def test_set_limits_refuses_a_limit_outside_its_range_and_an_unknown_account(store):
    await store.create_account("acme", 5, rate_per_minute=60, max_concurrent=4)
    for bad in (0, -1, 1.5, True, 2**63):
        with pytest.raises(ValueError):
            await store.set_limits("acme", rate_per_minute=bad)
        with pytest.raises(ValueError):
            await store.set_limits("acme", max_concurrent=bad)
    with pytest.raises(ValueError):
        await store.set_limits("acme", rate_per_minute=RATE_PER_MINUTE.maximum + 1)
    with pytest.raises(ValueError):
        await store.set_limits("acme", max_concurrent=MAX_CONCURRENT.maximum + 1)
    with pytest.raises(AccountNotFound):
        await store.set_limits("nobody", rate_per_minute=10)
    kept = await store.get_account("acme")
    assert (kept.rate_per_minute, kept.max_concurrent) == (60, 4)


@with_store
async def test_admit_counts_each_request_and_refuses_at_the_rate_limit_until_the_window_resets(store):
    account = await store.create_account("acme", 5, rate_per_minute=3)
    reset_at_s = WINDOW_S + RATE_WINDOW_S
    for remaining in (2, 1, 0):
        admission = await store.admit(account, f"slot-{remaining}", WINDOW_S + 15)
        assert admission == Admission(allowed=True, limit=3, remaining=remaining, reset_at_s=reset_at_s)
    refused = await store.admit(account, "slot-x", WINDOW_S + 15)
    assert refused == Admission(False, 3, 0, reset_at_s, retry_after_s=RATE_WINDOW_S - 15, reason="rate")
    last_moment = await store.admit(account, "slot-y", reset_at_s - 0.5)
    assert (last_moment.allowed, last_moment.retry_after_s) == (False, 1)  # never 0 seconds


@with_store
async def test_admit_and_reserve_admits_and_charges_as_the_two_steps_would(store):
    account = await store.create_account("acme", 10, rate_per_minute=3, max_concurrent=1)
    now_s = WINDOW_S + 5
    outcome = await store.admit_and_reserve(account, "slot-1", 4, "req-1", now_s)
    assert outcome.admission == Admission(True, 3, 2, WINDOW_S + RATE_WINDOW_S)
    assert (outcome.balance, outcome.insufficient) == (6, None)
    assert await store.balance(account.id) == 6
    assert (await store.usage(account.id)).credits_debited == 4
    # The slot is held: the account's only one.
    assert (await store.admit(account, "slot-2", now_s)).reason == "concurrency"


@with_store
async def test_admissions_asked_at_once_each_get_their_own_answer_and_a_failing_one_fails_alone(store):
    """The SQLite store commits the writes of one loop turn together (group commit): each
    admission is still decided in turn against the ones before it, and one that raises (an
    unknown account) takes none of the others with it."""
    account = await store.create_account("acme", 100, rate_per_minute=1000, max_concurrent=5)
    missing = dataclasses.replace(account, id="no-such-account")
    now_s = WINDOW_S + 5
    outcomes = await asyncio.gather(
        *(store.admit_and_reserve(account, f"slot-{index}", 2, f"req-{index}", now_s) for index in range(4)),
        store.admit_and_reserve(missing, "slot-missing", 2, "req-missing", now_s),
        *(store.admit_and_reserve(account, f"slot-{index}", 2, f"req-{index}", now_s) for index in range(4, 8)),
        return_exceptions=True,
    )
    assert isinstance(outcomes[4], AccountNotFound)
    admitted = [outcome for outcome in outcomes if not isinstance(outcome, Exception)]
    assert [outcome.admission.allowed for outcome in admitted] == [True] * 5 + [False] * 3
    assert {outcome.admission.reason for outcome in admitted[5:]} == {"concurrency"}
    assert sorted(outcome.balance for outcome in admitted[:5]) == [90, 92, 94, 96, 98]
    assert await store.balance(account.id) == 90
    assert (await store.usage(account.id)).credits_debited == 10


@with_store
async def test_admit_and_reserve_refused_by_the_limits_counts_and_charges_nothing(store):
    account = await store.create_account("acme", 10, rate_per_minute=1, max_concurrent=5)
    now_s = WINDOW_S + 5
    assert (await store.admit(account, "first", now_s)).allowed
    outcome = await store.admit_and_reserve(account, "second", 4, "req-2", now_s)
    assert (outcome.admission.allowed, outcome.admission.reason) == (False, "rate")
    assert (outcome.balance, outcome.insufficient) == (None, None)
    assert await store.balance(account.id) == 10
    assert (await store.usage(account.id)).requests == 0


@with_store
async def test_admit_and_reserve_short_of_credits_stays_admitted_and_debits_nothing(store):
    account = await store.create_account("acme", 3, rate_per_minute=5, max_concurrent=1)
    now_s = WINDOW_S + 5
    outcome = await store.admit_and_reserve(account, "slot-1", 4, "req-1", now_s)
    assert outcome.admission.allowed and outcome.admission.remaining == 4
    assert outcome.balance is None
    assert isinstance(outcome.insufficient, InsufficientCredits)
    assert "balance is 3" in outcome.insufficient.message
    assert await store.balance(account.id) == 3
    assert (await store.usage(account.id)).requests == 0
    # A later refund of that request finds no debit and mints nothing.
    assert await store.refund(account.id, 4, "req-1") == 3
    # Counted and holding its slot like any admitted request, until released.
    assert (await store.admit(account, "slot-2", now_s)).reason == "concurrency"
    await store.release(account.id, "slot-1")
    assert (await store.admit(account, "slot-3", now_s)).remaining == 3


@with_store
async def test_admit_and_reserve_retried_with_the_same_request_id_charges_once(store):
    account = await store.create_account("acme", 10, rate_per_minute=5, max_concurrent=5)
    now_s = WINDOW_S + 5
    first = await store.admit_and_reserve(account, "slot-1", 4, "req-1", now_s)
    again = await store.admit_and_reserve(account, "slot-2", 4, "req-1", now_s)
    assert (first.balance, again.balance) == (6, 6)
    assert await store.balance(account.id) == 6


@with_store
async def test_rate_windows_start_at_multiples_of_the_window_length(store):
    account = await store.create_account("acme", 5, rate_per_minute=2)
    assert (await store.admit(account, "a", WINDOW_S + 58)).allowed
    assert (await store.admit(account, "b", WINDOW_S + 59)).allowed
    assert not (await store.admit(account, "c", WINDOW_S + 59.9)).allowed
    # Fixed windows, not sliding ones: the two requests of a second ago do not count any more.
    fresh = await store.admit(account, "d", WINDOW_S + RATE_WINDOW_S)
    assert (fresh.allowed, fresh.remaining, fresh.reset_at_s) == (True, 1, WINDOW_S + 2 * RATE_WINDOW_S)


@with_store
async def test_a_refused_request_counts_nothing_and_holds_no_slot(store):
    account = await store.create_account("acme", 5, rate_per_minute=3, max_concurrent=1)
    now_s = WINDOW_S + 1
    assert (await store.admit(account, "first", now_s)).remaining == 2
    assert (await store.admit(account, "second", now_s)).reason == "concurrency"
    await store.release(account.id, "first")
    assert (await store.admit(account, "third", now_s)).remaining == 1  # "second" was not counted
    await store.release(account.id, "third")
    assert (await store.admit(account, "fourth", now_s)).remaining == 0
    await store.release(account.id, "fourth")
    assert (await store.admit(account, "fifth", now_s)).reason == "rate"
    # "fifth" took no slot (the only one is free) and did not spill into the next window.
    following = await store.admit(account, "sixth", WINDOW_S + RATE_WINDOW_S + 1)
    assert (following.allowed, following.remaining) == (True, 2)


@with_store
async def test_admit_refuses_beyond_max_concurrent_until_a_slot_is_released(store):
    account = await store.create_account("acme", 5, rate_per_minute=100, max_concurrent=2)
    now_s = WINDOW_S + 1
    assert (await store.admit(account, "a", now_s)).allowed
    assert (await store.admit(account, "b", now_s)).allowed
    refused = await store.admit(account, "c", now_s)
    # The window's real count: the two admitted requests used 2 of 100.
    assert refused == Admission(False, 100, 98, WINDOW_S + RATE_WINDOW_S, retry_after_s=1, reason="concurrency")
    await store.release(account.id, "a")
    admitted = await store.admit(account, "c", now_s)
    assert (admitted.allowed, admitted.remaining) == (True, 97)


@with_store
async def test_each_account_has_its_own_limits(store):
    acme = await store.create_account("acme", 5, rate_per_minute=1, max_concurrent=1)
    other = await store.create_account("other", 5, rate_per_minute=1, max_concurrent=1)
    now_s = WINDOW_S + 1
    assert (await store.admit(acme, "a", now_s)).allowed
    assert (await store.admit(other, "a", now_s)).allowed  # the same slot id, another account
    assert (await store.admit(acme, "b", now_s)).allowed is False


@with_store
async def test_a_charge_whose_slot_lapsed_unreleased_is_refunded_once_by_the_next_admission(store):
    account = await store.create_account("acme", 10)
    now_s = time.time()
    assert (await store.admit_and_reserve(account, "slot-dead", 3, "req-dead", now_s)).balance == 7
    assert (await store.admit_and_reserve(account, "slot-done", 2, "req-done", now_s)).balance == 5
    await store.release(account.id, "slot-done")  # a request that ran to its end: its charge stands
    later_s = now_s + SLOT_LEASE_S + 1  # the gateway holding slot-dead died mid-request
    assert (await store.admit(account, "slot-next", later_s)).allowed
    assert await store.balance(account.id) == 8
    assert (await store.admit(account, "slot-after", later_s + 1)).allowed
    assert await store.refund(account.id, 3, "req-dead") == 8  # given back once, whoever asks
    usage = await store.usage(account.id)
    assert (usage.requests, usage.refunds, usage.credits_used) == (2, 1, 2)


@with_store
async def test_charges_held_under_a_batch_slot_are_refunded_once_when_it_lapses_and_stand_when_released(store):
    account = await store.create_account("acme", 20)
    now_s = time.time()
    for slot in ("batch-dead", "batch-done"):
        assert (await store.admit(account, slot, now_s)).allowed
        for item, credits in ((1, 2), (2, 3)):
            await store.hold_charge(account.id, slot, (f"{slot}-{item}", credits))
            await store.reserve(account.id, credits, f"{slot}-{item}")
    await store.hold_charge(account.id, "batch-done", ("batch-done-1", 2))  # recorded once
    await store.release(account.id, "batch-done")
    await store.hold_charge(account.id, "batch-done", ("late", 1))  # no slot held: nothing recorded
    assert await store.balance(account.id) == 10
    later_s = now_s + SLOT_LEASE_S + 1
    assert (await store.admit(account, "next", later_s)).allowed
    assert (await store.admit(account, "after", later_s + 1)).allowed
    assert await store.balance(account.id) == 15  # the dead batch's 5 credits back, once
    usage = await store.usage(account.id)
    assert (usage.requests, usage.refunds) == (4, 2)


@with_store
async def test_releasing_a_slot_twice_or_one_never_held_is_a_no_op(store):
    acme = await store.create_account("acme", 5, max_concurrent=1)
    other = await store.create_account("other", 5, max_concurrent=1)
    now_s = WINDOW_S + 1
    assert (await store.admit(acme, "a", now_s)).allowed
    await store.release(acme.id, "a")
    await store.release(acme.id, "a")
    await store.release(acme.id, "never-held")
    await store.release("acct_missing", "a")
    assert (await store.admit(acme, "b", now_s)).allowed
    # Neither a third release of "a" nor another account's release of "b" frees acme's "b".
    await store.release(acme.id, "a")
    await store.release(other.id, "b")
    assert (await store.admit(acme, "c", now_s)).reason == "concurrency"


@with_store
async def test_a_slot_never_released_expires_after_the_slot_lease(store):
    account = await store.create_account("acme", 5, rate_per_minute=1000, max_concurrent=1)
    start_s = WINDOW_S + 1
    assert (await store.admit(account, "crashed-gateway", start_s)).allowed
    assert (await store.admit(account, "b", start_s + SLOT_LEASE_S - 1)).reason == "concurrency"
    assert (await store.admit(account, "c", start_s + SLOT_LEASE_S + 1)).allowed


def _two_gateways(factory, scenario: Callable[[Store, Store], Awaitable[None]]) -> None:
    """Run ``scenario(first, second)`` on two stores opened from ``factory``, as two gateways would."""

    async def body() -> None:
        first = await factory.open()
        try:
            second = await factory.open()
            try:
                await scenario(first, second)
            finally:
                await second.close()
        finally:
            await first.close()

    asyncio.run(body())


async def _admit_from_both(first: Store, second: Store, account, attempts_each: int) -> list[Admission]:
    """Return the admissions of ``attempts_each`` requests per gateway, asked all at once."""
    now_s = WINDOW_S + 30
    return await asyncio.gather(
        *(
            gateway.admit(account, f"{name}-{attempt}", now_s)
            for attempt in range(attempts_each)
            for name, gateway in (("first", first), ("second", second))
        )
    )


def test_two_gateways_admit_exactly_the_rate_limit_between_them(factory):
    async def scenario(first: Store, second: Store) -> None:
        account = await first.create_account("shared", 5, rate_per_minute=7, max_concurrent=1000)
        admissions = await _admit_from_both(first, second, account, 10)
        allowed = [a for a in admissions if a.allowed]
        assert sorted(a.remaining for a in allowed) == list(range(7))  # each saw the other's count
        assert {a.reason for a in admissions if not a.allowed} == {"rate"}

    _two_gateways(factory, scenario)


def test_two_gateways_hold_exactly_max_concurrent_slots_between_them(factory):
    async def scenario(first: Store, second: Store) -> None:
        account = await first.create_account("shared", 5, rate_per_minute=1000, max_concurrent=3)
        admissions = await _admit_from_both(first, second, account, 5)
        assert sum(a.allowed for a in admissions) == 3
        assert {a.reason for a in admissions if not a.allowed} == {"concurrency"}

    _two_gateways(factory, scenario)


# --- key changes -----------------------------------------------------------------------------


async def _collect(changes, seen: asyncio.Queue) -> None:
    async for key_hash in changes:
        seen.put_nowait(key_hash)


async def _until_following(admin: Store, seen: asyncio.Queue) -> None:
    """Return once the feed reports changes: change keys until one is seen (at most 10 s), so
    no test depends on when a backend's iterator starts listening."""
    deadline = time.monotonic() + 10
    while seen.empty():
        assert time.monotonic() < deadline, "key_changes reported no change within 10 s"
        await admin.create_key("acme")
        await asyncio.sleep(0.25)


async def _reported_within(seen: asyncio.Queue, key_hash: str, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while True:
        try:
            if await asyncio.wait_for(seen.get(), deadline - time.monotonic()) == key_hash:
                return
        except TimeoutError:
            pytest.fail(f"the change of key {key_hash[:8]}... was not reported within {within_s} s")


def test_key_changes_report_keys_created_updated_or_revoked_through_another_store(factory):
    async def scenario(watcher: Store, admin: Store) -> None:
        await admin.create_account("acme", 1)
        seen: asyncio.Queue = asyncio.Queue()
        follower = asyncio.create_task(_collect(watcher.key_changes(), seen))
        try:
            await _until_following(admin, seen)
            _, record = await admin.create_key("acme")
            await _reported_within(seen, record.key_hash, 1.0)
            await admin.update_origins(record.key_id, ["https://app.example.com"])
            await _reported_within(seen, record.key_hash, 1.0)
            await admin.revoke_key(record.key_id)
            await _reported_within(seen, record.key_hash, 1.0)
        finally:
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)

    _two_gateways(factory, scenario)


def test_key_changes_end_when_the_store_is_closed(factory):
    async def body() -> None:
        store = await factory.open()
        try:
            follower = asyncio.create_task(_collect(store.key_changes(), asyncio.Queue()))
            await asyncio.sleep(0.1)  # the iterator is running when the store closes
        finally:
            await store.close()
        await asyncio.wait_for(follower, 1.0)  # it ends by itself, not by cancellation

    asyncio.run(body())


@with_store
async def test_a_key_keeps_its_name_and_a_rotation_hands_it_on(store):
    from gateway.admin.operations import rotate_key

    await store.create_account("acme", 10)
    _, record = await store.create_key("acme", name="  production backend ")
    assert record.name == "production backend"
    assert (await store.get_key(record.key_id)).name == "production backend"
    assert (await store.list_keys("acme"))[0].name == "production backend"
    _, successor = await rotate_key(store, record.key_id)
    assert successor.name == "production backend"
    _, unnamed = await store.create_key("acme")
    assert unnamed.name == ""
    for bad in ("x" * 65, "tab\there", "svc_live_abcd"):
        with pytest.raises(ValueError):
            await store.create_key("acme", name=bad)


# --- daily usage: requests per UTC day, key and endpoint -------------------------------------


POSITIONS, TRANSITS = "/v1/positions", "/v1/transits"


def _today():
    """Return today's UTC date; a test whose charges straddle midnight is skipped, not failed."""
    return utc_now().date()


def _same_day(before, after) -> None:
    if before != after:
        pytest.skip("the charges straddled UTC midnight")


@with_store
async def test_daily_usage_counts_each_debit_on_its_day_under_its_key_and_endpoint(store):
    account = await store.create_account("acme", 100)
    today = _today()
    await store.reserve(account.id, 2, "c1", ChargeNote(POSITIONS, "key_a", "r1"))
    await store.reserve(account.id, 2, "c2", ChargeNote(POSITIONS, "key_a", "r2"))
    await store.reserve(account.id, 3, "c3", ChargeNote(TRANSITS, "key_a", "r3"))
    admitted = await store.admit_and_reserve(account, "slot", 5, "c4", note=ChargeNote(POSITIONS, "key_b", "r4"))
    assert admitted.balance == 100 - 2 - 2 - 3 - 5
    await store.release(account.id, "slot")
    _same_day(today, _today())
    assert await store.daily_usage(account.id, today, today) == [
        UsageRow(today, "key_a", POSITIONS, requests=2, credits=4),
        UsageRow(today, "key_a", TRANSITS, requests=1, credits=3),
        UsageRow(today, "key_b", POSITIONS, requests=1, credits=5),
    ]


@with_store
async def test_a_refunded_request_still_counts_and_costs_what_was_kept(store):
    account = await store.create_account("acme", 100)
    today = _today()
    await store.reserve(account.id, 3, "whole", ChargeNote(POSITIONS, "key_a", "r1"))
    await store.refund(account.id, 3, "whole")
    await store.reserve(account.id, 4, "part", ChargeNote(POSITIONS, "key_a", "r2"))
    await store.refund(account.id, 1, "part")
    _same_day(today, _today())
    assert await store.daily_usage(account.id, today, today) == [
        UsageRow(today, "key_a", POSITIONS, requests=2, credits=(3 - 3) + (4 - 1))
    ]


@with_store
async def test_daily_usage_of_one_key_leaves_out_every_other_key(store):
    account = await store.create_account("acme", 100)
    today = _today()
    await store.reserve(account.id, 2, "c1", ChargeNote(POSITIONS, "key_a", "r1"))
    await store.reserve(account.id, 3, "c2", ChargeNote(POSITIONS, "key_b", "r2"))
    _same_day(today, _today())
    assert await store.daily_usage(account.id, today, today, key_id="key_b") == [
        UsageRow(today, "key_b", POSITIONS, 1, 3)
    ]
    assert await store.daily_usage(account.id, today, today, key_id="key_unknown") == []


@with_store
async def test_daily_usage_has_no_row_for_days_without_debits(store):
    account = await store.create_account("acme", 100)
    await store.reserve(account.id, 2, "c1", ChargeNote(POSITIONS, "key_a", "r1"))
    today = _today()
    assert await store.daily_usage(account.id, today - timedelta(days=90), today - timedelta(days=1)) == []
    assert await store.daily_usage(account.id, today + timedelta(days=1), today + timedelta(days=2)) == []


@with_store
async def test_top_ups_and_the_opening_balance_are_not_usage(store):
    account = await store.create_account("acme", 100)
    await store.top_up(account.id, 50)
    today = _today()
    assert await store.daily_usage(account.id, today, today) == []


@with_store
async def test_a_debit_without_a_note_counts_under_no_key_and_no_endpoint(store):
    account = await store.create_account("acme", 100)
    today = _today()
    await store.reserve(account.id, 2, "c1")
    _same_day(today, _today())
    assert await store.daily_usage(account.id, today, today) == [UsageRow(today, "", "", 1, 2)]


@with_store
async def test_daily_usage_counts_only_its_own_accounts_debits(store):
    mine = await store.create_account("acme", 100)
    other = await store.create_account("other", 100)
    today = _today()
    await store.reserve(other.id, 2, "c1", ChargeNote(POSITIONS, "key_o", "r1"))
    assert await store.daily_usage(mine.id, today, today) == []


@with_store
async def test_daily_usage_of_an_unknown_account_raises_account_not_found(store):
    today = _today()
    with pytest.raises(AccountNotFound):
        await store.daily_usage("acct_0000000000000000", today, today)


@with_store
async def test_daily_usage_refuses_a_range_that_ends_before_it_starts(store):
    account = await store.create_account("acme", 100)
    today = _today()
    with pytest.raises(ValueError):
        await store.daily_usage(account.id, today, today - timedelta(days=1))
