"""The contract of the dashboard's store operations (owners, invites, sessions, sign-in
throttles, ledger rows), run against every store that the dashboard runs on (SQLite, NATS)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from store import AccountNotFound
from store.interfaces import DashboardStore
from store.owner_records import InviteNotValid, OwnerElsewhere, OwnerNotFound, digest_secret
from store.records import ChargeNote, utc_now
from tests.unit.store.test_store_contract import factory, with_store  # noqa: F401 (factory is the fixture)

INVITE = digest_secret("invite-secret")
DAY = timedelta(days=1)


@with_store
async def test_each_store_is_a_dashboard_store(store):
    assert isinstance(store, DashboardStore)


@with_store
async def test_an_invited_email_becomes_an_owner_without_a_password(store):
    account = await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "  Ada@Example.COM ", INVITE, utc_now() + DAY)
    assert (owner.account_id, owner.email, owner.has_password) == (account.id, "ada@example.com", False)
    assert await store.get_owner(owner.owner_id) == owner
    assert await store.find_owner_by_email("ADA@example.com") == owner
    assert await store.find_owner_by_email("nobody@example.com") is None
    assert await store.find_owner_by_email("not an email") is None
    assert "invite" not in repr(owner).replace("invite_expires_at", "")


@with_store
async def test_an_account_may_have_several_owners_but_an_email_owns_one_account(store):
    await store.create_account("acme", 10)
    await store.create_account("other", 10)
    first = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    second = await store.invite_owner("acme", "b@example.com", INVITE, utc_now() + DAY)
    assert [o.owner_id for o in await store.list_owners("acme")] == [first.owner_id, second.owner_id]
    assert await store.list_owners("other") == []
    with pytest.raises(OwnerElsewhere):
        await store.invite_owner("other", "A@example.com", INVITE, utc_now() + DAY)
    with pytest.raises(AccountNotFound):
        await store.invite_owner("nobody", "c@example.com", INVITE, utc_now() + DAY)
    with pytest.raises(ValueError):
        await store.invite_owner("acme", "no-at-sign", INVITE, utc_now() + DAY)


@with_store
async def test_an_invite_is_redeemed_once_and_a_reinvite_supersedes_the_last(store):
    await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "a@example.com", digest_secret("first"), utc_now() + DAY)
    again = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    assert again.owner_id == owner.owner_id
    with pytest.raises(InviteNotValid):  # superseded
        await store.redeem_invite(owner.owner_id, digest_secret("first"), "hash-1", utc_now())
    redeemed = await store.redeem_invite(owner.owner_id, INVITE, "hash-1", utc_now())
    assert (redeemed.password_hash, redeemed.invite_digest, redeemed.session_epoch) == (
        "hash-1",
        None,
        owner.session_epoch + 1,
    )
    with pytest.raises(InviteNotValid):  # used
        await store.redeem_invite(owner.owner_id, INVITE, "hash-2", utc_now())
    with pytest.raises(InviteNotValid):  # no such owner
        await store.redeem_invite("own_0000000000000000", INVITE, "hash-2", utc_now())


@with_store
async def test_an_expired_invite_is_refused(store):
    await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    with pytest.raises(InviteNotValid):
        await store.redeem_invite(owner.owner_id, INVITE, "hash", utc_now() + DAY + timedelta(seconds=1))
    assert (await store.get_owner(owner.owner_id)).password_hash is None


@with_store
async def test_two_redemptions_of_one_invite_at_once_leave_one_password(store):
    await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    outcomes = await asyncio.gather(
        *(store.redeem_invite(owner.owner_id, INVITE, f"hash-{i}", utc_now()) for i in range(4)), return_exceptions=True
    )
    winners = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(winners) == 1 and all(isinstance(o, InviteNotValid) for o in outcomes if o not in winners)
    assert (await store.get_owner(owner.owner_id)).password_hash == winners[0].password_hash


@with_store
async def test_a_password_change_moves_the_epoch_that_sessions_are_checked_against(store):
    await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    owner = await store.redeem_invite(owner.owner_id, INVITE, "hash-1", utc_now())
    session = await store.create_session(owner.owner_id, digest_secret("s"), utc_now())
    assert session.session_epoch == owner.session_epoch
    changed = await store.set_password(owner.owner_id, "hash-2")
    assert changed.session_epoch == owner.session_epoch + 1 and changed.password_hash == "hash-2"
    with pytest.raises(OwnerNotFound):
        await store.set_password("own_0000000000000000", "hash")


@with_store
async def test_a_session_is_kept_touched_and_ended(store):
    await store.create_account("acme", 10)
    owner = await store.invite_owner("acme", "a@example.com", INVITE, utc_now() + DAY)
    start = utc_now()
    session = await store.create_session(owner.owner_id, digest_secret("s"), start)
    assert session.session_id.startswith("ses_") and session.secret_digest == digest_secret("s")
    assert await store.get_session(session.session_id) == session
    await store.touch_session(session.session_id, start + timedelta(minutes=5))
    touched = await store.get_session(session.session_id)
    # Instants are kept as Unix seconds (a float), so a microsecond may be rounded away.
    assert abs((touched.last_seen_at - start).total_seconds() - 300) < 1e-3
    assert touched.created_at == session.created_at
    await store.end_session(session.session_id)
    assert await store.get_session(session.session_id) is None
    await store.end_session(session.session_id)  # twice: nothing happens
    await store.touch_session(session.session_id, start)
    assert await store.get_session(session.session_id) is None
    assert await store.get_session("ses_unknown") is None and await store.get_session("not a token!") is None
    with pytest.raises(OwnerNotFound):
        await store.create_session("own_0000000000000000", digest_secret("s"), start)


@with_store
async def test_failed_sign_ins_lock_a_subject_out_until_cleared(store):
    now_s = 1_000_000.0
    subject = "email:a@example.com"
    assert await store.get_sign_in_throttle(subject) is None
    for failure in range(1, 5):
        throttle = await store.record_sign_in_failure(subject, now_s + failure, 900, 5, 600)
        assert (throttle.failures, throttle.locked(now_s + failure)) == (failure, False)
    locked = await store.record_sign_in_failure(subject, now_s + 5, 900, 5, 600)
    assert locked.locked(now_s + 5) and locked.locked_until_s == now_s + 5 + 600
    assert await store.get_sign_in_throttle(subject) == locked
    assert await store.get_sign_in_throttle("email:b@example.com") is None
    await store.clear_sign_in_throttle(subject)
    assert await store.get_sign_in_throttle(subject) is None


@with_store
async def test_failures_at_once_from_several_callers_are_all_counted(store):
    subject = "address:203.0.113.9"
    await asyncio.gather(*(store.record_sign_in_failure(subject, 1000.0, 900, 100, 600) for _ in range(8)))
    assert (await store.get_sign_in_throttle(subject)).failures == 8


@with_store
async def test_a_debit_keeps_the_note_of_what_it_paid_for(store):
    account = await store.create_account("acme", 10)
    before = utc_now() - timedelta(seconds=1)
    await store.reserve(account.id, 2, "charge-1", ChargeNote("/v1/positions", "key_1", "req-a"))
    admitted = await store.admit_and_reserve(
        account, "slot-1", 3, "charge-2", note=ChargeNote("/v1/transits", "key_2", "req-b.3")
    )
    assert admitted.balance == 5
    await store.release(account.id, "slot-1")
    await store.reserve(account.id, 1, "charge-3")  # no note: an empty one
    await store.refund(account.id, 1, "charge-3")
    notes = {
        (e.kind, e.request_id): e.note for e in await store.ledger_entries(account.id, before) if e.kind != "topup"
    }
    assert notes == {
        ("debit", "charge-1"): ChargeNote("/v1/positions", "key_1", "req-a"),
        ("debit", "charge-2"): ChargeNote("/v1/transits", "key_2", "req-b.3"),
        ("debit", "charge-3"): ChargeNote(),
        ("refund", "charge-3"): ChargeNote(),
    }


@with_store
async def test_ledger_entries_list_each_debit_refund_and_top_up_from_a_moment(store):
    account = await store.create_account("acme", 10)
    before = utc_now() - timedelta(seconds=1)
    await store.reserve(account.id, 2, "req-1")
    await store.reserve(account.id, 3, "req-2")
    await store.refund(account.id, 3, "req-2")
    entries = await store.ledger_entries(account.id, before)
    assert [(e.kind, e.credits, e.request_id) for e in entries] == [
        ("topup", 10, entries[0].request_id),
        ("debit", 2, "req-1"),
        ("debit", 3, "req-2"),
        ("refund", 3, "req-2"),
    ]
    assert all(e.at.tzinfo is not None for e in entries)
    assert await store.ledger_entries(account.id, utc_now() + DAY) == []
    with pytest.raises(AccountNotFound):
        await store.ledger_entries("acct_0000000000000000", before)
