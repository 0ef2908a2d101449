"""What only the NATS JetStream store has to get right: a server that goes away and comes back,
gateways racing each other through the network, a request charged by one process and retried
or refunded by another (even after the first was killed).

The contract every store honours is ``test_store_contract.py``; these tests start their own
nats-server (stopped and restarted by some of them), never the session's shared one.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from pathlib import Path

import nats
import nats.js.errors
import pytest

from deploy.nats_server import NatsServer, nats_server_binary
from shared.errors import InsufficientCredits
from store import AccountExists, StoreOutcomeUnknown, StoreUnavailable
from store.nats_store import NatsStore, open_nats_store
from store.records import SLOT_LEASE_S

try:
    nats_server_binary()
except RuntimeError as missing:
    pytest.skip(str(missing), allow_module_level=True)


@pytest.fixture(scope="module")
def server(processes, tmp_path_factory):
    running = NatsServer(tmp_path_factory.mktemp("nats-store")).start()
    yield running
    running.stop()


@pytest.fixture
def prefix() -> str:
    return "N" + secrets.token_hex(6)


def run(coroutine):
    return asyncio.run(coroutine)


async def _until(predicate, within_s: float, what: str):
    """Return the first truthy value of ``await predicate()`` polled every 50 ms, ignoring
    StoreUnavailable; fail after ``within_s`` seconds."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            value = await predicate()
            if value:
                return value
        except StoreUnavailable:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {within_s} s")
        await asyncio.sleep(0.05)


async def _ledger(url: str, prefix: str, account_id: str) -> list[dict]:
    """Return the account's ledger entries in order, read with a plain client."""
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        subject = f"{prefix.lower()}.ledger.{account_id}"
        entries, seq = [], 0
        while True:
            try:
                message = await js.get_msg(f"{prefix}_LEDGER", seq=seq + 1, subject=subject, next=True)
            except nats.js.errors.NotFoundError:
                return entries
            entries.append(json.loads(message.data))
            seq = message.seq
    finally:
        await nc.close()


def _check_chain(entries: list[dict]) -> None:
    """Assert every entry moves the balance by its own credits from the one before, never below
    0, and that no request is debited, refunded or topped up twice."""
    balance = 0
    for entry in entries:
        balance += -entry["credits"] if entry["kind"] == "debit" else entry["credits"]
        assert entry["balance_after"] == balance, entry
        assert balance >= 0
    for kind in ("debit", "refund", "topup"):
        ids = [e["request_id"] for e in entries if e["kind"] == kind]
        assert len(ids) == len(set(ids)), f"a {kind} recorded twice"


async def _limiter(url: str, prefix: str, account_id: str) -> dict:
    """Return the account's limiter entry, read with a plain client."""
    nc = await nats.connect(url)
    try:
        return json.loads((await (await nc.jetstream().key_value(f"{prefix}_LIMITS")).get(account_id)).value)
    finally:
        await nc.close()


# --- an unreachable server -------------------------------------------------------------------


def test_every_call_fails_fast_while_the_server_is_down_and_works_again_when_it_is_back(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10)
            _, key = await store.create_key("acme")
            await store.reserve(account.id, 2, "before")
            server.stop()
            await _until(lambda: _is_down(store), 2.0, "the store noticing the server is gone")
            calls = {
                "create_account": lambda: store.create_account("other", 1),
                "get_account": lambda: store.get_account(account.id),
                "top_up": lambda: store.top_up(account.id, 5),
                "create_key": lambda: store.create_key("acme"),
                "find_key_by_hash": lambda: store.find_key_by_hash(key.key_hash),
                "get_key": lambda: store.get_key(key.key_id),
                "revoke_key": lambda: store.revoke_key(key.key_id),
                "update_origins": lambda: store.update_origins(key.key_id, ["https://a.example"]),
                "list_keys": lambda: store.list_keys("acme"),
                "reserve": lambda: store.reserve(account.id, 1, "during"),
                "refund": lambda: store.refund(account.id, 2, "before"),
                "balance": lambda: store.balance(account.id),
                "usage": lambda: store.usage(account.id),
                "set_limits": lambda: store.set_limits("acme", rate_per_minute=5),
                "admit": lambda: store.admit(account, "slot"),
                "release": lambda: store.release(account.id, "slot"),
                "key_changes": lambda: anext(aiter(store.key_changes())),
            }
            for name, call in calls.items():
                with pytest.raises(StoreUnavailable) as refused:
                    await call()
                # Refused before anything was sent, not after waiting for an answer in vain
                # (that would be StoreOutcomeUnknown, the timeout's error).
                assert not isinstance(refused.value, StoreOutcomeUnknown), f"{name}: {refused.value}"
            server.start()
            # The same store reconnects by itself; nothing the failed calls attempted happened.
            assert await _until(lambda: store.balance(account.id), 5.0, "the store reconnecting") == 8
            usage = await store.usage(account.id)
            assert (usage.requests, usage.refunds, usage.credits_topped_up) == (1, 0, 10)
            assert (await store.find_key_by_hash(key.key_hash)).state() == "active"
            assert [k.key_id for k in await store.list_keys("acme")] == [key.key_id]
            assert await store.get_account("other") is None
            assert await store.reserve(account.id, 1, "after") == 7
        finally:
            server.start()
            await store.close()

    run(body())


async def _is_down(store: NatsStore) -> bool:
    try:
        await store.balance("acct_probe")
    except StoreUnavailable:
        return True
    except Exception:  # any other answer came from a live server
        return False
    return False


# --- restarts --------------------------------------------------------------------------------


def test_a_crashed_and_restarted_server_keeps_balances_ledger_keys_and_retries(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 20)
            _, key = await store.create_key("acme", allowed_origins=["https://app.example"])
            await store.reserve(account.id, 3, "req-1")
            await store.reserve(account.id, 4, "req-2")
            await store.refund(account.id, 4, "req-2")
            await store.top_up(account.id, 5, request_id="invoice-1")
            changes = store.key_changes()
            follower = asyncio.ensure_future(anext(changes))
            await asyncio.sleep(0.05)
            server.stop(kill=True)  # a crash, not a clean shutdown
            server.start()
            # The feed says changes may have been missed, then goes on reporting them.
            assert await asyncio.wait_for(follower, 5.0) is None
            assert await _until(lambda: store.balance(account.id), 5.0, "reconnecting") == 22
            usage = await store.usage(account.id)
            assert (usage.requests, usage.refunds, usage.credits_used, usage.credits_topped_up) == (2, 1, 3, 25)
            # Retries of every kind are still recognised after the restart.
            assert await store.reserve(account.id, 3, "req-1") == 22
            assert await store.refund(account.id, 4, "req-2") == 22
            assert await store.top_up(account.id, 5, request_id="invoice-1") == 22
            assert (await store.find_key_by_hash(key.key_hash)).allowed_origins == ("https://app.example",)
            await store.revoke_key(key.key_id)
            assert await asyncio.wait_for(anext(changes), 2.0) == key.key_hash
            await changes.aclose()
            _check_chain(await _ledger(server.url, prefix, account.id))
        finally:
            server.start()
            await store.close()
        reopened = await open_nats_store(server.url, prefix=prefix)  # opening is idempotent
        try:
            assert (await reopened.get_account("ACME")).balance == 22
        finally:
            await reopened.close()

    run(body())


# --- gateways racing --------------------------------------------------------------------------


def test_two_stores_spending_one_balance_end_exact_never_negative_with_every_change_in_the_ledger(server, prefix):
    cost, affordable, attempts = 3, 40, 120

    async def body() -> None:
        first = await open_nats_store(server.url, prefix=prefix)
        second = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await first.create_account("shared", cost * affordable + cost - 1)

            async def spend(store: NatsStore, request_id: str) -> bool:
                try:
                    await store.reserve(account.id, cost, request_id)
                except InsufficientCredits:
                    return False
                if request_id.endswith("7"):  # some requests fail and are refunded meanwhile
                    await store.refund(account.id, cost, request_id)
                return True

            outcomes = await asyncio.gather(*(spend(first if i % 2 else second, f"req-{i}") for i in range(attempts)))
            refunded = sum(1 for i, ok in enumerate(outcomes) if ok and str(i).endswith("7"))
            # Refunds made room for more debits: spend what is left, alternating gateways.
            extra = 0
            while True:
                try:
                    await (first, second)[extra % 2].reserve(account.id, cost, f"drain-{extra}")
                except InsufficientCredits:
                    break
                extra += 1
            assert sum(outcomes) + extra - refunded == affordable  # what the credits covered, not one more
            assert await first.balance(account.id) == await second.balance(account.id) == cost - 1
            entries = await _ledger(server.url, prefix, account.id)
            _check_chain(entries)
            assert sum(e["kind"] == "debit" for e in entries) == sum(outcomes) + extra
            assert sum(e["kind"] == "refund" for e in entries) == refunded
            usage = await second.usage(account.id)
            assert usage.credits_topped_up - usage.credits_used == cost - 1
        finally:
            await first.close()
            await second.close()

    run(body())


def test_two_stores_creating_one_name_at_once_make_exactly_one_account(server, prefix):
    async def body() -> None:
        stores = [await open_nats_store(server.url, prefix=prefix) for _ in range(2)]
        try:
            results = await asyncio.gather(
                *(store.create_account(name, 1) for store in stores for name in ("acme", "ACME", "Acme")),
                return_exceptions=True,
            )
            created = [r for r in results if not isinstance(r, BaseException)]
            assert len(created) == 1
            assert all(isinstance(r, AccountExists) for r in results if isinstance(r, BaseException))
            assert (await stores[1].get_account("aCmE")).id == created[0].id
        finally:
            for store in stores:
                await store.close()

    run(body())


# --- one entry per request, any process --------------------------------------------------------


def test_a_paid_request_is_one_ledger_entry_named_by_its_request_id_and_its_slot_a_limiter_entry(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=2)
            outcome = await store.admit_and_reserve(account, "slot-1", 3, "req-1")
            assert (outcome.admission.allowed, outcome.balance) == (True, 7)
            held = await _limiter(server.url, prefix, account.id)
            assert list(held["slots"]) == ["slot-1"] and held["admitted"] == 1
            await store.release(account.id, "slot-1")
            assert (await _limiter(server.url, prefix, account.id))["slots"] == {}
            entries = await _ledger(server.url, prefix, account.id)
            assert [(e["kind"], e["request_id"], e["credits"]) for e in entries[1:]] == [("debit", "req-1", 3)]
            _check_chain(entries)
        finally:
            await store.close()

    run(body())


def test_the_limiter_entry_survives_a_server_restart(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            assert (await store.admit(account, "held")).allowed
            server.stop(kill=True)
            server.start()
            await _until(lambda: store.balance(account.id), 5.0, "reconnecting")
            reopened = await open_nats_store(server.url, prefix=prefix)
            try:
                refused = await reopened.admit(account, "second")
                assert (refused.allowed, refused.reason) == (False, "concurrency")
                await store.release(account.id, "held")
                assert (await reopened.admit(account, "second")).allowed
            finally:
                await reopened.close()
        finally:
            server.start()
            await store.close()

    run(body())


def test_a_retry_and_a_refund_through_another_process_are_recognised_by_their_request_id(server, prefix):
    async def body() -> None:
        first = await open_nats_store(server.url, prefix=prefix)
        second = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await first.create_account("acme", 10)
            assert await first.reserve(account.id, 3, "req-1") == 7
            assert await second.reserve(account.id, 3, "req-1") == 7  # the same debit, not a second
            assert await second.refund(account.id, 3, "req-1") == 10
            assert await first.refund(account.id, 3, "req-1") == 10  # refunded once, whoever asks
            assert await second.refund(account.id, 3, "never-charged") == 10
            entries = await _ledger(server.url, prefix, account.id)
            assert [e["kind"] for e in entries] == ["topup", "debit", "refund"]
            _check_chain(entries)
        finally:
            await first.close()
            await second.close()

    run(body())


_CHARGE_AND_HANG = """
import asyncio, sys
from store.nats_store import open_nats_store

async def main(url, prefix, account_id):
    store = await open_nats_store(url, prefix=prefix)
    account = await store.get_account(account_id)
    await store.admit_and_reserve(account, "slot-killed", 4, "req-killed")
    print("charged", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(*sys.argv[1:]))
"""


def test_a_request_charged_by_a_killed_gateway_process_is_refunded_once_through_others(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10)
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _CHARGE_AND_HANG,
                server.url,
                prefix,
                account.id,
                stdout=asyncio.subprocess.PIPE,
                cwd=str(Path(__file__).resolve().parents[3]),
            )
            try:
                assert (await asyncio.wait_for(process.stdout.readline(), 30.0)).strip() == b"charged"
            finally:
                process.kill()  # SIGKILL: the process that charged can refund nothing now
                await process.wait()
            assert await store.balance(account.id) == 6
            # Once the dead request's slot lapses, the next admission through any process
            # refunds its charge, once however many see it lapse.
            other = await open_nats_store(server.url, prefix=prefix)
            later_s = time.time() + SLOT_LEASE_S + 1
            try:
                admissions = await asyncio.gather(
                    store.admit(account, "next-1", later_s), other.admit(account, "next-2", later_s)
                )
                assert admissions[0].allowed and admissions[1].allowed
                assert await store.balance(account.id) == 10
                assert await other.refund(account.id, 4, "req-killed") == 10  # by request id: the same refund
            finally:
                await other.close()
            entries = await _ledger(server.url, prefix, account.id)
            assert [e["kind"] for e in entries] == ["topup", "debit", "refund"]
            _check_chain(entries)
            usage = await store.usage(account.id)
            assert usage.credits_topped_up - usage.credits_used == await store.balance(account.id)
        finally:
            await store.close()

    run(body())


def test_looking_up_debits_never_writes_to_the_ledger(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 2)
            await store.reserve(account.id, 2, "charged")
            before = await _ledger(server.url, prefix, account.id)
            assert await store.refund(account.id, 1, "never-charged") == 0
            with pytest.raises(InsufficientCredits):
                await store.reserve(account.id, 1, "too-much")
            assert await store.reserve(account.id, 2, "charged") == 0  # a retry, found by lookup
            assert await _ledger(server.url, prefix, account.id) == before
        finally:
            await store.close()

    run(body())


def test_new_limits_are_announced_as_changes_of_the_accounts_live_keys(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            await store.create_account("acme", 1)
            _, live = await store.create_key("acme")
            _, revoked = await store.create_key("acme")
            await store.revoke_key(revoked.key_id)
            changes = store.key_changes()
            await store.set_limits("acme", rate_per_minute=5)
            # Gateways cache a key with its account: the live key is reported, unchanged.
            assert await asyncio.wait_for(anext(changes), 2.0) == live.key_hash
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(anext(changes), 0.3)
            assert await store.find_key_by_hash(live.key_hash) == live
            await changes.aclose()
        finally:
            await store.close()

    run(body())


def test_a_process_remembers_its_own_debits_for_the_window_only(monkeypatch):
    from store import nats_ledger

    clock = [1000.0]
    monkeypatch.setattr(nats_ledger.time, "monotonic", lambda: clock[0])
    store = NatsStore(prefix="MEMORY")
    store._remember_debit("old", "acct_a", 1)
    clock[0] += nats_ledger.OWN_DEBITS_REMEMBERED_S / 2
    store._remember_debit("newer", "acct_a", 2)
    clock[0] += nats_ledger.OWN_DEBITS_REMEMBERED_S / 2
    store._remember_debit("newest", "acct_a", 3)
    # Past its window a debit is forgotten (a refund then looks in the ledger), so the memory
    # holds one window's debits however long the process runs.
    assert list(store._own_debits) == ["newer", "newest"]
    assert store._own_debit("old") is None and store._own_debit("newer")[:2] == ("acct_a", 2)


# --- releases folded into the next write of the entry -------------------------------------------


def _limiter_round_trips(
    store: NatsStore, held: dict[int, asyncio.Event], failing: frozenset[int] = frozenset()
) -> list:
    """Return the list each round trip of ``store`` to its limiter entries is appended to, in
    order: ("update", the slot ids written, sorted) or ("get", None). The n-th update waits
    for ``held[n]`` to be set (counting from 1), and fails as if never sent for n in ``failing``."""
    trips: list = []
    bucket = store._limits
    update, get = bucket.update, bucket.get

    async def counted_update(key, value, last=None, **kwargs):
        trips.append(("update", sorted(json.loads(value)["slots"])))
        n = sum(kind == "update" for kind, _ in trips)
        if n in held:
            await held[n].wait()
        if n in failing:
            raise nats.errors.ConnectionReconnectingError()
        return await update(key, value, last=last, **kwargs)

    async def counted_get(key, *args, **kwargs):
        trips.append(("get", None))
        return await get(key, *args, **kwargs)

    bucket.update, bucket.get = counted_update, counted_get
    return trips


async def _queued(*coroutines) -> list[asyncio.Task]:
    """Return tasks of ``coroutines`` started in order, each left waiting (for the account's lock)."""
    tasks = []
    for coroutine in coroutines:
        tasks.append(asyncio.ensure_future(coroutine))
        await asyncio.sleep(0.02)
    assert not any(task.done() for task in tasks)
    return tasks


async def _until_trips(trips: list, count: int) -> None:
    """Return once ``trips`` holds ``count`` round trips (the last may be under way)."""

    async def made() -> bool:
        return len(trips) >= count

    await _until(made, 5.0, f"{count} round trips to the limiter entries")


# Writes of an account's entry that can carry a pending release of its slot "a", each made
# while "a", "b" and "c" are held: what it does, and the slots it writes (without "a").
CARRIERS = {
    "admission": (lambda store, account: store.admit(account, "d"), ["b", "c", "d"]),
    "release": (lambda store, account: store.release(account.id, "b"), ["c"]),
    "charge": (lambda store, account: store.hold_charge(account.id, "b", ("req-b", 1)), ["b", "c"]),
}


async def _carrier_queued_behind_a_write(
    store: NatsStore, account, carrier: str, trips_held: dict[int, asyncio.Event], failing=frozenset()
):
    """Return (trips, busy, carrying, release): with "a" and "b" held, an admission of "c"
    whose write waits for ``trips_held[1]`` holds the account's lock; the carrier's call and
    then the release of "a" wait for the lock in that order."""
    assert (await store.admit(account, "a")).allowed and (await store.admit(account, "b")).allowed
    trips = _limiter_round_trips(store, held=trips_held, failing=failing)
    busy = asyncio.ensure_future(store.admit(account, "c"))
    await _until_trips(trips, 1)
    carrying, release = await _queued(CARRIERS[carrier][0](store, account), store.release(account.id, "a"))
    return trips, busy, carrying, release


@pytest.mark.parametrize("carrier", CARRIERS)
def test_a_release_waiting_behind_another_write_of_its_accounts_entry_is_written_by_that_write(server, prefix, carrier):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=10)
            let_go = asyncio.Event()
            trips, busy, carrying, release = await _carrier_queued_behind_a_write(store, account, carrier, {1: let_go})
            let_go.set()
            assert (await busy).allowed
            await carrying
            await release
            written = CARRIERS[carrier][1]
            # The release made no round trip of its own.
            assert trips == [("update", ["a", "b", "c"]), ("update", written)]
            assert sorted((await _limiter(server.url, prefix, account.id))["slots"]) == written
        finally:
            await store.close()

    run(body())


def test_the_slot_of_a_release_an_admission_writes_no_longer_counts_against_max_concurrent_for_it(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            assert (await store.admit(account, "a")).allowed
            let_go = asyncio.Event()
            trips = _limiter_round_trips(store, held={1: let_go})
            busy = asyncio.ensure_future(store.hold_charge(account.id, "a", ("req-a", 1)))
            await _until_trips(trips, 1)
            admission, release = await _queued(store.admit(account, "b"), store.release(account.id, "a"))
            let_go.set()
            await busy
            assert (await admission).allowed
            await release
            assert trips == [("update", ["a"]), ("update", ["b"])]
        finally:
            await store.close()

    run(body())


@pytest.mark.parametrize("carrier", CARRIERS)
def test_a_release_folded_into_a_write_that_fails_is_still_written_by_its_own_call(server, prefix, carrier):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=10)
            let_go = asyncio.Event()
            trips, busy, carrying, release = await _carrier_queued_behind_a_write(
                store,
                account,
                carrier,
                {1: let_go},
                failing=frozenset({2}),
            )
            let_go.set()
            assert (await busy).allowed
            with pytest.raises(StoreUnavailable):
                await carrying
            await release
            # A failed release stays pending too: the write of "a" frees "b" as well.
            left = [slot for slot in CARRIERS[carrier][1] if slot != "d"]
            assert trips == [
                ("update", ["a", "b", "c"]),
                ("update", CARRIERS[carrier][1]),
                ("get", None),
                ("update", left),
            ]
            assert sorted((await _limiter(server.url, prefix, account.id))["slots"]) == left
        finally:
            await store.close()

    run(body())


@pytest.mark.parametrize("carrier", CARRIERS)
def test_a_release_folded_into_a_write_refused_for_another_gateways_write_is_carried_by_its_retry(
    server, prefix, carrier
):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        other = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=10)
            first, second = asyncio.Event(), asyncio.Event()
            trips, busy, carrying, release = await _carrier_queued_behind_a_write(
                store, account, carrier, {1: first, 2: second}
            )
            first.set()
            assert (await busy).allowed
            await _until_trips(trips, 2)
            assert (await other.admit(account, "x")).allowed  # moves the entry under the held write
            second.set()
            await carrying
            await release
            written = CARRIERS[carrier][1]
            assert trips == [
                ("update", ["a", "b", "c"]),
                ("update", written),
                ("get", None),
                ("update", sorted(written + ["x"])),
            ]
            assert sorted((await _limiter(server.url, prefix, account.id))["slots"]) == sorted(written + ["x"])
        finally:
            await store.close()
            await other.close()

    run(body())


def test_two_gateways_racing_one_accounts_admissions_and_releases_stay_within_max_concurrent_and_end_with_no_slot(
    server, prefix
):
    max_concurrent, requests = 3, 120

    async def body() -> None:
        stores = [await open_nats_store(server.url, prefix=prefix) for _ in range(2)]
        try:
            account = await stores[0].create_account("acme", 10, rate_per_minute=1000, max_concurrent=max_concurrent)
            now_s = time.time()  # one rate window for all, however long the run
            in_flight = most = 0

            async def request(i: int) -> bool:
                nonlocal in_flight, most
                store = stores[i % 2]
                if not (await store.admit(account, f"slot-{i}", now_s)).allowed:
                    return False
                in_flight += 1
                most = max(most, in_flight)
                await asyncio.sleep(0.001 * (i % 5))
                in_flight -= 1  # free from here on: its release is pending
                await store.release(account.id, f"slot-{i}")
                return True

            admitted = sum(await asyncio.gather(*(request(i) for i in range(requests))))
            assert 0 < admitted and most <= max_concurrent
            entry = await _limiter(server.url, prefix, account.id)
            assert (entry["slots"], entry["admitted"]) == ({}, admitted)
        finally:
            for store in stores:
                await store.close()

    run(body())


# --- a lost answer ---------------------------------------------------------------------------


@pytest.mark.parametrize("step", ["admit", "admit_and_charge"])
def test_the_slot_of_an_admission_whose_answer_was_lost_is_released_beside_its_refund(server, prefix, step):
    """Issue 36: the server freezes (SIGSTOP) as the admission's write reaches it, and answers
    it only after the store gave up (StoreOutcomeUnknown, a 503): the slot it wrote is released
    as the charge is refunded, so an account whose concurrency limit is 1 is admitted again
    once the server is back, not only when the slot's lease runs out."""
    from gateway.accounting import Accounting

    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix, request_timeout_s=0.5)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            accounting = Accounting(store, store)
            write_limits = store._write_limits

            async def frozen_as_it_is_sent(account_id, limits):
                store._write_limits = write_limits
                server.pause()  # the write is sent to a server that answers it too late
                return await write_limits(account_id, limits)

            store._write_limits = frozen_as_it_is_sent
            try:
                with pytest.raises(StoreOutcomeUnknown):
                    if step == "admit":
                        await accounting.admit(account, "slot-1")
                    else:
                        await accounting.admit_and_charge(account, "slot-1", 3, "charge-1")
            finally:
                server.resume()

            # The write landed after all: the slot was taken, then released in the background.
            async def admitted() -> bool:
                return (await store.admit(account, "slot-2")).allowed

            assert await _until(admitted, 10.0, "the lost admission's slot released")
            assert SLOT_LEASE_S > 10.0
            await accounting.drain()
            assert await store.balance(account.id) == 10
        finally:
            server.resume()
            await store.close()

    run(body())
