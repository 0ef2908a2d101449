"""What only the NATS JetStream store has to get right: a server that goes away and comes back,
gateways racing each other through the network, answers lost in flight.

The contract every store honours is ``test_store_contract.py``; these tests start their own
nats-server (stopped and restarted by some of them), never the session's shared one.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import time

import nats
import nats.js.errors
import pytest

from shared.kernel.errors import InsufficientCredits

from gateway.store import AccountExists, StoreUnavailable
from gateway.store.nats_store import NatsStore, open_nats_store
from deploy.nats_server import NatsServer, nats_server_binary

try:
    nats_server_binary()
except RuntimeError as missing:
    pytest.skip(str(missing), allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
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
    0, and that a batch entry's credits are the sum of its debits."""
    balance = 0
    for entry in entries:
        if entry["kind"] == "debits":
            assert entry["credits"] == sum(debit["credits"] for debit in entry["entries"]), entry
        balance += -entry["credits"] if entry["kind"] in ("debit", "debits") else entry["credits"]
        assert entry["balance_after"] == balance, entry
        assert balance >= 0
    flat = _flat(entries)
    for kind in ("debit", "refund", "topup"):
        ids = [e["request_id"] for e in flat if e["kind"] == kind]
        assert len(ids) == len(set(ids)), f"a {kind} recorded twice"


def _flat(entries: list[dict]) -> list[dict]:
    """Return the entries with each batch entry replaced by its debits, one entry each."""
    flat = []
    for entry in entries:
        if entry["kind"] == "debits":
            flat.extend({"kind": "debit", **debit} for debit in entry["entries"])
        else:
            flat.append(entry)
    return flat


# --- an unreachable server -------------------------------------------------------------------


def test_opening_a_store_while_the_server_is_down_fails_fast():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead_url = f"nats://127.0.0.1:{probe.getsockname()[1]}"
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        run(open_nats_store(dead_url, connect_timeout_s=0.3))
    assert time.monotonic() - started < 1.0


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
                started = time.monotonic()
                with pytest.raises(StoreUnavailable):
                    await call()
                assert time.monotonic() - started < 0.1, f"{name} took {time.monotonic() - started:.3f} s"
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

            outcomes = await asyncio.gather(
                *(spend(first if i % 2 else second, f"req-{i}") for i in range(attempts))
            )
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
            assert sum(e["kind"] == "debit" for e in _flat(entries)) == sum(outcomes) + extra
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


# --- debits written together -----------------------------------------------------------------


def test_debits_arriving_together_share_one_batch_entry_and_each_gets_its_own_balance(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 1000)
            costs = [1, 2, 3, 4, 5] * 4
            balances = await asyncio.gather(*(store.reserve(account.id, c, f"req-{i}") for i, c in enumerate(costs)))
            assert await store.balance(account.id) == 1000 - sum(costs)
            entries = await _ledger(server.url, prefix, account.id)
            _check_chain(entries)
            assert any(entry["kind"] == "debits" for entry in entries)  # they did share an entry
            assert len(entries) < 1 + len(costs)
            # Each caller's balance is the one right after its own debit: all distinct, and
            # every one of them a balance the ledger passed through.
            passed_through = set()
            balance = 0
            for entry in _flat(entries):
                balance += -entry["credits"] if entry["kind"] == "debit" else entry["credits"]
                passed_through.add(balance)
            assert len(set(balances)) == len(costs) and set(balances) <= passed_through
            usage = await store.usage(account.id)
            assert (usage.requests, usage.credits_debited) == (len(costs), sum(costs))
        finally:
            await store.close()

    run(body())


def test_a_batch_the_balance_covers_in_part_debits_what_fits_and_refuses_the_rest(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10)
            await store.balance(account.id)
            outcomes = await asyncio.gather(
                *(store.reserve(account.id, 3, f"req-{i}") for i in range(6)), return_exceptions=True
            )
            assert sum(isinstance(o, int) for o in outcomes) == 3
            assert all(isinstance(o, InsufficientCredits) for o in outcomes if not isinstance(o, int))
            assert await store.balance(account.id) == 1
            _check_chain(await _ledger(server.url, prefix, account.id))
        finally:
            await store.close()

    run(body())


def test_a_debit_written_in_a_batch_is_refunded_once_and_a_retry_charges_nothing(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 100)
            await asyncio.gather(*(store.reserve(account.id, 5, f"req-{i}") for i in range(8)))
            assert await store.balance(account.id) == 60
            assert await store.refund(account.id, 5, "req-6") == 65
            assert await store.refund(account.id, 5, "req-6") == 65
            assert await store.reserve(account.id, 5, "req-3") == 65  # already charged
            usage = await store.usage(account.id)
            assert (usage.requests, usage.refunds, usage.credits_used) == (8, 1, 35)
            _check_chain(await _ledger(server.url, prefix, account.id))
        finally:
            await store.close()

    run(body())


def test_a_paid_request_is_one_ledger_entry_holding_its_debit_and_the_accounts_admission_state(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, rate_per_minute=5, max_concurrent=2)
            before = await _ledger(server.url, prefix, account.id)
            charge = await store.admit_and_reserve(account, "slot-1", 3, "req-1")
            assert (charge.admission.allowed, charge.balance) == (True, 7)
            entries = await _ledger(server.url, prefix, account.id)
            assert len(entries) == len(before) + 1
            entry = entries[-1]
            assert (entry["kind"], entry["request_id"], entry["credits"], entry["balance_after"]) == ("debit", "req-1", 3, 7)
            assert entry["limits"]["count"] == 1 and list(entry["limits"]["slots"]) == ["slot-1"]
            _check_chain(entries)
        finally:
            await store.close()

    run(body())


def test_admissions_that_charge_nothing_and_lone_releases_are_limits_entries_that_are_not_usage(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            assert (await store.admit(account, "slot-1")).allowed
            assert not (await store.admit(account, "slot-2")).allowed  # the one slot is held
            await store.release(account.id, "slot-1")  # no other write comes: its own entry
            assert (await store.admit(account, "slot-2")).allowed
            entries = await _ledger(server.url, prefix, account.id)
            assert [entry["kind"] for entry in entries] == ["topup", "limits", "limits", "limits"]
            assert [list(entry["limits"]["slots"]) for entry in entries[1:]] == [["slot-1"], [], ["slot-2"]]
            usage = await store.usage(account.id)
            assert (usage.requests, usage.credits_used) == (0, 0)
            assert await store.balance(account.id) == 10
            _check_chain(entries)
        finally:
            await store.close()

    run(body())


def test_the_admission_state_lives_in_the_ledger_and_survives_a_server_restart(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, rate_per_minute=2)
            now_s = time.time()  # one moment for all three: one rate window
            assert (await store.admit_and_reserve(account, "slot-1", 1, "req-1", now_s)).admission.allowed
            assert (await store.admit_and_reserve(account, "slot-2", 1, "req-2", now_s)).admission.allowed
        finally:
            await store.close()
        server.stop()
        server.start()
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            refused = await store.admit_and_reserve(account, "slot-3", 1, "req-3", now_s)
            assert (refused.admission.allowed, refused.admission.reason, refused.balance) == (False, "rate", None)
            assert await store.balance(account.id) == 8
        finally:
            await store.close()

    run(body())


def test_a_ledger_written_before_entries_carried_the_admission_state_starts_with_none_held(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix)
        try:
            account = await store.create_account("acme", 10, max_concurrent=1)
            # An entry as the layout without admission state wrote it, last on the subject.
            nc = await nats.connect(server.url)
            try:
                entry = {"kind": "topup", "request_id": "older", "credits": 5, "balance_after": 15, "at_s": time.time()}
                await nc.jetstream().publish(f"{prefix.lower()}.ledger.{account.id}", json.dumps(entry).encode())
            finally:
                await nc.close()
            fresh = await open_nats_store(server.url, prefix=prefix)
            try:
                charge = await fresh.admit_and_reserve(account, "slot-1", 2, "req-1")
                assert (charge.admission.allowed, charge.balance) == (True, 13)
                assert not (await fresh.admit(account, "slot-2")).allowed  # the slot just taken is held
            finally:
                await fresh.close()
        finally:
            await store.close()

    run(body())


# --- answers lost in flight -------------------------------------------------------------------


def test_writes_whose_answers_were_lost_are_undone_once_the_server_answers(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix, request_timeout_s=0.25)
        try:
            account = await store.create_account("acme", 10, max_concurrent=2)
            await store.admit(account, "held")  # the head cached: the calls below are one entry
            server.pause()  # requests reach the server's socket but get no answer
            try:
                outcomes = await asyncio.gather(
                    store.release(account.id, "held"),
                    store.admit_and_reserve(account, "lost-slot", 4, "lost-debit"),
                    return_exceptions=True,
                )
                assert all(isinstance(outcome, StoreUnavailable) for outcome in outcomes)
            finally:
                server.resume()  # the server now applies the entry, answering no one
            # The store refunds the debit and frees both slots: the 503s cost nothing.
            await _until(lambda: _refunded(store, account.id), 5.0, "the lost debit being refunded")
            assert await store.balance(account.id) == 10
            await _until(lambda: _admitted_twice(store, account), 5.0, "both slots being freed")
            _check_chain(await _ledger(server.url, prefix, account.id))
        finally:
            await store.close()

    run(body())


def test_a_batch_whose_answer_was_lost_is_undone_once_the_server_answers(server, prefix):
    async def body() -> None:
        store = await open_nats_store(server.url, prefix=prefix, request_timeout_s=0.25)
        try:
            account = await store.create_account("acme", 50)
            await store.balance(account.id)  # the head cached: each debit below is one publish
            server.pause()
            try:
                outcomes = await asyncio.gather(
                    *(store.reserve(account.id, 4, f"lost-{i}") for i in range(5)), return_exceptions=True
                )
            finally:
                server.resume()
            assert all(isinstance(outcome, StoreUnavailable) for outcome in outcomes)
            entries = await _until(lambda: _ledger_once_refunded(server, prefix, account.id), 5.0, "the lost debits being refunded")
            assert any(entry["kind"] == "debits" for entry in entries)  # a batch was among them
            assert await store.balance(account.id) == 50
            _check_chain(entries)
        finally:
            await store.close()

    run(body())


async def _ledger_once_refunded(server, prefix: str, account_id: str) -> list[dict] | None:
    """Return the ledger once every debit in it has its refund, else None."""
    entries = await _ledger(server.url, prefix, account_id)
    flat = _flat(entries)
    debited = {e["request_id"] for e in flat if e["kind"] == "debit"}
    refunded = {e["request_id"] for e in flat if e["kind"] == "refund"}
    return entries if debited and debited == refunded else None


async def _admitted_twice(store: NatsStore, account) -> bool:
    first, second = secrets.token_hex(4), secrets.token_hex(4)
    if not (await store.admit(account, first)).allowed:
        return False
    allowed = (await store.admit(account, second)).allowed
    await store.release(account.id, first)
    await store.release(account.id, second)
    return allowed


async def _refunded(store: NatsStore, account_id: str) -> bool:
    usage = await store.usage(account_id)
    return usage.requests == 1 and usage.credits_refunded == 4


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
