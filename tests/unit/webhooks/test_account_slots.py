"""webhooks/account_slots.py: an account has at most its bound of attempts in flight; taking a
slot never waits; a slot given back is free again; accounts do not share slots."""

from __future__ import annotations

import pytest

from webhooks.account_slots import AccountSlots


def test_an_account_takes_at_most_its_bound_of_slots_and_is_refused_at_once_past_it():
    slots = AccountSlots(2)
    assert [slots.take("A") for _ in range(3)] == [True, True, False]
    assert slots.held("A") == 2


def test_one_accounts_full_slots_leave_another_accounts_free():
    slots = AccountSlots(1)
    assert slots.take("A") and not slots.take("A")
    assert slots.take("B")


def test_a_slot_given_back_is_free_again():
    slots = AccountSlots(1)
    slots.take("A")
    slots.give_back("A")
    assert slots.held("A") == 0 and slots.take("A")


def test_giving_back_a_slot_not_held_is_a_bug():
    with pytest.raises(RuntimeError):
        AccountSlots(1).give_back("A")


def test_an_account_has_at_least_one_slot():
    with pytest.raises(ValueError):
        AccountSlots(0)
