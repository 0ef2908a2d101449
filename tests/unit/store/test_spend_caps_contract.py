"""The spend caps' contract (``store.interfaces.SpendCaps``), run against every store of the
contract suite (SQLite here, NATS in ``tests/nats/store``): a debit that would
pass a cap of the account or of its key is refused in the debit's own atomic step, a refund
frees what it gives back, periods are UTC days and months, and an 80 % warning is handed to
exactly one process once per period."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from shared.errors import InsufficientCredits, SpendCapReached
from store import AccountNotFound, KeyNotFound, Store, spend_caps
from store.records import ChargeNote
from store.spend_caps import SpendCap
from tests.unit.store.test_store_contract import _two_gateways, factory, with_store  # noqa: F401 (the fixture)


def _via(key_id: str) -> ChargeNote:
    return ChargeNote("/v1/sky/positions", key_id, "")


@with_store
async def test_a_debit_that_would_pass_the_accounts_daily_cap_is_refused_and_charges_nothing(store):
    account = await store.create_account("acme", 100)
    await store.set_spend_cap(account.id, SpendCap(daily=5))
    assert await store.reserve(account.id, 3, "r1") == 97
    with pytest.raises(SpendCapReached) as caught:
        await store.reserve(account.id, 3, "r2")
    assert isinstance(caught.value, InsufficientCredits) and caught.value.http_status == 402
    today = datetime.now(UTC).date()
    assert caught.value.cap == {
        "scope": "account",
        "period": "daily",
        "cap": 5,
        "spent": 3,
        "resets_at": spend_caps.iso_instant(spend_caps.resets_at("daily", today.isoformat())),
    }
    assert await store.balance(account.id) == 97
    assert (await store.usage(account.id)).requests == 1  # the refused debit left no ledger row
    assert await store.reserve(account.id, 2, "r2") == 95  # up to the cap exactly; the id was not used up
    assert (await store.spend_status(account.id)).account.daily_spent == 5


@with_store
async def test_a_monthly_cap_refuses_as_the_daily_one_does(store):
    account = await store.create_account("acme", 100)
    status = await store.set_spend_cap("acme", SpendCap(monthly=4))
    assert status.account.cap == SpendCap(monthly=4)
    await store.reserve(account.id, 4, "r1")
    with pytest.raises(SpendCapReached) as caught:
        await store.reserve(account.id, 1, "r2")
    assert (caught.value.cap["period"], caught.value.cap["spent"]) == ("monthly", 4)


@with_store
async def test_a_cap_of_zero_lets_nothing_be_spent_and_a_cleared_cap_is_unlimited(store):
    account = await store.create_account("acme", 100)
    await store.set_spend_cap(account.id, SpendCap(daily=0, monthly=0))
    with pytest.raises(SpendCapReached):
        await store.reserve(account.id, 1, "r1")
    await store.set_spend_cap(account.id, SpendCap())
    assert await store.reserve(account.id, 60, "r1") == 40
    assert (await store.spend_status(account.id)).account.cap == SpendCap()


@with_store
async def test_a_keys_cap_limits_that_key_and_the_accounts_cap_limits_every_key(store):
    account = await store.create_account("acme", 100)
    _, capped = await store.create_key(account.id)
    _, other = await store.create_key(account.id)
    await store.set_spend_cap(account.id, SpendCap(daily=10))
    await store.set_spend_cap(account.id, SpendCap(daily=3), key_id=capped.key_id)
    await store.reserve(account.id, 3, "r1", _via(capped.key_id))
    with pytest.raises(SpendCapReached) as by_key:
        await store.reserve(account.id, 1, "r2", _via(capped.key_id))
    assert by_key.value.cap["scope"] == "key" and by_key.value.cap["key_id"] == capped.key_id
    await store.reserve(account.id, 7, "r3", _via(other.key_id))  # the other key: only the account's cap
    with pytest.raises(SpendCapReached) as by_account:
        await store.reserve(account.id, 1, "r4", _via(other.key_id))
    assert by_account.value.cap["scope"] == "account" and by_account.value.cap["spent"] == 10
    status = await store.spend_status(account.id)
    assert (status.key(capped.key_id).daily_spent, status.key(other.key_id).daily_spent) == (3, 7)
    assert status.key(capped.key_id).cap == SpendCap(daily=3)


@with_store
async def test_a_refund_frees_what_it_gives_back_of_the_period(store):
    account = await store.create_account("acme", 100)
    _, key = await store.create_key(account.id)
    await store.set_spend_cap(account.id, SpendCap(daily=5), key_id=key.key_id)
    await store.reserve(account.id, 5, "r1", _via(key.key_id))
    await store.refund(account.id, 5, "r1")
    status = await store.spend_status(account.id)
    assert (status.account.daily_spent, status.key(key.key_id).monthly_spent) == (0, 0)
    assert await store.reserve(account.id, 5, "r2", _via(key.key_id)) == 95


@with_store
async def test_admit_and_reserve_past_a_cap_stays_admitted_and_answers_the_caps_402(store):
    account = await store.create_account("acme", 100)
    await store.set_spend_cap(account.id, SpendCap(daily=2))
    outcome = await store.admit_and_reserve(account, "slot-1", 3, "r1")
    assert outcome.admission.allowed and outcome.balance is None
    assert isinstance(outcome.insufficient, SpendCapReached)
    assert await store.balance(account.id) == 100


@with_store
async def test_caps_are_set_only_on_a_known_account_or_its_own_key_and_within_range(store):
    acme = await store.create_account("acme", 10)
    other = await store.create_account("other", 10)
    _, others_key = await store.create_key(other.id)
    with pytest.raises(AccountNotFound):
        await store.set_spend_cap("nobody", SpendCap(daily=1))
    with pytest.raises(KeyNotFound):
        await store.set_spend_cap(acme.id, SpendCap(daily=1), key_id=others_key.key_id)
    with pytest.raises(KeyNotFound):
        await store.set_spend_cap(acme.id, SpendCap(daily=1), key_id="key_missing")
    for bad in (-1, 1.5, True, spend_caps.MAX_CAP + 1):
        with pytest.raises(ValueError):
            await store.set_spend_cap(acme.id, SpendCap(daily=bad))
    with pytest.raises(AccountNotFound):
        await store.spend_status("nobody")


@with_store
async def test_setting_caps_moves_no_credit_and_shows_in_no_usage(store):
    account = await store.create_account("acme", 10)
    await store.reserve(account.id, 2, "r1", _via("k1"))
    await store.set_spend_cap(account.id, SpendCap(daily=5, monthly=50))
    usage = await store.usage(account.id)
    assert (usage.requests, usage.credits_debited, usage.credits_topped_up) == (1, 2, 10)
    today = datetime.now(UTC).date()
    assert sum(row.requests for row in await store.daily_usage(account.id, today, today)) == 1
    assert await store.balance(account.id) == 8


def test_periods_are_utc_days_and_months_and_a_new_one_starts_at_nothing_spent(factory, monkeypatch):
    clock = {"now": datetime(2031, 1, 30, 23, 0, tzinfo=UTC).timestamp()}
    monkeypatch.setattr(spend_caps, "now_s", lambda: clock["now"])

    async def body() -> None:
        store = await factory.open()
        try:
            account = await store.create_account("acme", 100)
            await store.set_spend_cap(account.id, SpendCap(daily=3, monthly=5))
            await store.reserve(account.id, 3, "r1")
            with pytest.raises(SpendCapReached):
                await store.reserve(account.id, 1, "r2")
            clock["now"] = datetime(2031, 1, 31, 0, 0, tzinfo=UTC).timestamp()  # the next UTC day
            await store.reserve(account.id, 2, "r2")
            with pytest.raises(SpendCapReached) as monthly:
                await store.reserve(account.id, 1, "r3")
            assert monthly.value.cap["period"] == "monthly"
            assert monthly.value.cap["resets_at"] == "2031-02-01T00:00:00.000Z"
            clock["now"] = datetime(2031, 2, 1, 0, 0, tzinfo=UTC).timestamp()  # the next UTC month
            await store.reserve(account.id, 3, "r3")
            status = await store.spend_status(account.id)
            assert (status.day, status.month, status.account.daily_spent, status.account.monthly_spent) == (
                "2031-02-01",
                "2031-02",
                3,
                3,
            )
        finally:
            await store.close()

    asyncio.run(body())


@with_store
async def test_the_first_debit_at_80_percent_of_a_cap_gives_one_warning_in_its_period(store):
    store.take_spend_warnings()
    account = await store.create_account("acme", 100)
    await store.set_spend_cap(account.id, SpendCap(daily=10))
    await store.reserve(account.id, 7, "r1")
    assert store.take_spend_warnings() == []
    await store.reserve(account.id, 1, "r2")
    (warning,) = store.take_spend_warnings()
    assert (warning.account_id, warning.key_id, warning.period, warning.cap, warning.spent) == (
        account.id,
        "",
        "daily",
        10,
        8,
    )
    await store.refund(account.id, 1, "r2")
    await store.reserve(account.id, 2, "r3")  # at 80 % again, in the same day: no second warning
    assert store.take_spend_warnings() == []


#: The concurrency proof's figures: each gateway tries this many reserves of COST at once.
ATTEMPTS_EACH, COST, CAP = 40, 3, 50


def test_two_gateways_reserving_at_once_never_spend_past_a_cap(factory):
    """The bound on overshoot is 0 across gateways: the cap is checked in the debit's own
    atomic step (docs/limits.md, "Spend caps")."""

    async def scenario(first: Store, second: Store) -> None:
        account = await first.create_account("shared", 10_000)
        await first.set_spend_cap(account.id, SpendCap(daily=CAP))

        async def one(gateway: Store, charge_id: str) -> bool:
            try:
                await gateway.reserve(account.id, COST, charge_id)
                return True
            except SpendCapReached:
                return False

        outcomes = await asyncio.gather(
            *(
                one(gateway, f"{name}-{attempt}")
                for attempt in range(ATTEMPTS_EACH)
                for name, gateway in (("first", first), ("second", second))
            )
        )
        assert sum(outcomes) == CAP // COST  # as many as fit, not one more
        assert (await second.spend_status(account.id)).account.daily_spent == CAP // COST * COST
        assert await first.balance(account.id) == 10_000 - CAP // COST * COST
        warnings = first.take_spend_warnings() + second.take_spend_warnings()
        assert [(w.period, w.cap) for w in warnings] == [("daily", CAP)]  # one, from one gateway

    _two_gateways(factory, scenario)


def test_a_refund_through_another_gateway_frees_the_spend_of_the_debit_it_finds(factory):
    async def scenario(first: Store, second: Store) -> None:
        account = await first.create_account("shared", 100)
        _, key = await first.create_key(account.id)
        await first.set_spend_cap(account.id, SpendCap(daily=4), key_id=key.key_id)
        await first.reserve(account.id, 4, "r1", _via(key.key_id))
        await second.refund(account.id, 4, "r1")  # the other process reads the debit from the ledger
        status = await first.spend_status(account.id)
        assert (status.account.daily_spent, status.key(key.key_id).daily_spent) == (0, 0)
        assert await second.reserve(account.id, 4, "r2", _via(key.key_id)) == 96

    _two_gateways(factory, scenario)
