"""store/rules.py: the account rules every store applies, one test per rule (the in-memory
store keeping them: test_memory_store.py).

References: docs/stores.md (slots, their 120 s lease, refunds once per request id),
../shared/spec/decisions.md (Limits: requests per minute in fixed windows)."""

from __future__ import annotations

import pytest

from shared.errors import InsufficientCredits
from store import rules

NOW = 1_700_000_010.0  # 30 s into a one-minute window (1_700_000_010 % 60 == 30)


def test_an_admitted_request_counts_in_its_window():
    admission, window = rules.admit(None, 0, 10, 5, NOW)
    assert admission.allowed and admission.remaining == 9 and window == rules.Window(int(NOW // 60) * 60, 1)


def test_the_rate_limit_refuses_without_counting_and_says_when_to_retry():
    full = rules.Window(int(NOW // 60) * 60, 10)
    admission, window = rules.admit(full, 0, 10, 5, NOW)
    assert (admission.allowed, admission.reason, window) == (False, "rate", None)
    assert admission.retry_after_s == 30 and admission.remaining == 0


def test_the_concurrency_limit_refuses_without_counting():
    admission, window = rules.admit(None, 5, 10, 5, NOW)
    assert (admission.allowed, admission.reason, admission.retry_after_s, window) == (False, "concurrency", 1, None)


def test_a_request_of_several_computations_counts_them_all_or_is_refused_whole():
    start_s = int(NOW // 60) * 60
    admission, window = rules.admit(rules.Window(start_s, 10), 0, 60, 5, NOW, computations=50)
    assert (admission.allowed, admission.remaining, window) == (True, 0, rules.Window(start_s, 60))
    refused, none = rules.admit(rules.Window(start_s, 11), 0, 60, 5, NOW, computations=50)
    # What the window has left is told as it is, and Retry-After is the window's end.
    assert (refused.allowed, refused.reason, refused.remaining, refused.retry_after_s, none) == (
        False,
        "rate",
        49,
        30,
        None,
    )


def test_a_request_holding_several_slots_needs_them_all_free():
    assert rules.admit(None, 0, 60, 5, NOW, slots=5)[0].allowed
    refused, window = rules.admit(None, 1, 60, 5, NOW, slots=5)
    assert (refused.reason, window) == ("concurrency", None)


def test_a_slot_group_is_the_request_slot_and_its_numbered_companions_held_without_charges():
    assert rules.slot_group("s", 1) == ("s",)
    assert rules.slot_group("s", 3) == ("s", "s.1", "s.2")
    held = rules.hold_group({"old": rules.Slot(NOW - 1)}, rules.slot_group("s", 2), NOW)
    assert held == {"s": rules.Slot(NOW + 120), "s.1": rules.Slot(NOW + 120)}  # the lapsed one dropped
    assert rules.release(held, *rules.slot_group("s", 2)) == {}


def test_an_old_window_starts_over_and_a_newer_one_is_counted_into():
    old = rules.Window(int(NOW // 60) * 60 - 60, 10)
    assert rules.admit(old, 0, 10, 5, NOW)[1].admitted == 1
    ahead = rules.Window(int(NOW // 60) * 60 + 60, 3)
    assert rules.admit(ahead, 0, 10, 5, NOW)[1] == rules.Window(ahead.start_s, 4)


def test_a_charge_debits_or_refuses_leaving_the_balance():
    assert rules.charge(10, 3) == 7 and rules.charge(3, 3) == 0
    with pytest.raises(InsufficientCredits):
        rules.charge(2, 3)


def test_a_refund_gives_back_once_never_mints_and_never_more_than_was_charged():
    assert rules.refund_due(5, False, 5, "r") == 5
    assert rules.refund_due(5, True, 5, "r") == 0
    assert rules.refund_due(None, False, 5, "r") == 0
    with pytest.raises(ValueError):
        rules.refund_due(2, False, 5, "r")


def test_a_held_slot_lasts_its_lease_and_a_release_frees_it():
    held = rules.hold({}, "a", NOW)
    assert held == {"a": rules.Slot(NOW + rules.SLOT_LEASE_S)}
    assert rules.live_slots(held, NOW + rules.SLOT_LEASE_S - 1) == held
    assert rules.live_slots(held, NOW + rules.SLOT_LEASE_S) == {}  # a dead gateway's slot runs out
    assert rules.release(rules.hold(held, "b", NOW), "a") == {"b": rules.Slot(NOW + rules.SLOT_LEASE_S)}
    assert rules.release(held, "never-held") == held
    assert rules.release(rules.hold(rules.hold(held, "b", NOW), "c", NOW), "a", "c", "never-held") == {
        "b": rules.Slot(NOW + rules.SLOT_LEASE_S)
    }


def test_only_the_charges_of_a_slot_that_lapsed_unreleased_are_owed_back():
    slots = rules.hold({}, "dead", NOW, ("req-dead", 3))
    slots = rules.hold(slots, "live", NOW + 60, ("req-live", 2))
    slots = rules.hold(slots, "batch", NOW)  # a batch: admitted once, its items charged under it
    slots = rules.with_charge(slots, "batch", ("item-1", 1))
    slots = rules.with_charge(slots, "batch", ("item-2", 4))
    after_lease = NOW + rules.SLOT_LEASE_S
    assert rules.lapsed_charges(slots, after_lease - 1) == []
    assert sorted(rules.lapsed_charges(slots, after_lease)) == [("item-1", 1), ("item-2", 4), ("req-dead", 3)]
    released = rules.release(rules.release(slots, "dead"), "batch")
    assert rules.lapsed_charges(released, after_lease) == []  # released: the charges stand
    assert rules.with_charge(released, "batch", ("item-3", 1)) == released  # no slot, nothing recorded


def test_the_slots_of_a_holder_are_its_own_and_keep_their_holder_as_charges_are_made():
    slots = rules.hold({}, "mine", NOW, ("req-mine", 2), holder="gw-a")
    slots = rules.hold(slots, "theirs", NOW, holder="gw-b")
    slots = rules.with_charge(slots, "theirs", ("item-1", 1))
    slots = rules.hold(slots, "nobodys", NOW)  # a store that names no holder
    assert rules.held_by(slots, "gw-b") == {"theirs": rules.Slot(NOW + rules.SLOT_LEASE_S, (("item-1", 1),), "gw-b")}
    assert list(rules.held_by(slots, "gw-a")) == ["mine"]
    assert rules.held_by(slots, "") == {}  # no holder named: no slot is anyone's


def test_a_test_batchs_slots_name_their_holder_so_a_dead_gateways_batch_is_freed_whole():
    group = rules.slot_group("req-1", 3)
    slots = rules.hold_group({"other": rules.Slot(200.0, (), "gw-b")}, group, 100.0, "gw-a")
    assert set(rules.held_by(slots, "gw-a")) == set(group)
    assert set(rules.held_by(slots, "gw-b")) == {"other"}
