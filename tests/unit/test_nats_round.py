"""One write of the NATS store's account writer, decided from the account's last ledger entry
(pure: no server). The store tests check the same rules through a real server."""

from __future__ import annotations

from gateway.store.nats_store import _decide_round, _Head, _Limits, _PendingAdmit, _PendingDebit

NOW_S = 1_800_000_030.0  # 30 s into a rate window
NO_CALLER = None  # deciding never touches the callers' futures: settling them is another step


def _admit(slot_id: str, debit: tuple[str, int] | None = None, *, rate: int = 100, max_concurrent: int = 1) -> _PendingAdmit:
    return _PendingAdmit(rate, max_concurrent, slot_id, NOW_S, NO_CALLER, debit)


def _debit(request_id: str, credits: int) -> _PendingDebit:
    return _PendingDebit(request_id, credits, NO_CALLER)


def _head(balance: int, slots: dict[str, float] | None = None, count: int = 0) -> _Head:
    return _Head(7, balance, _Limits(1_800_000_000, count, slots or {}))


def test_a_slot_released_in_the_same_write_is_free_for_its_admissions():
    decided = _decide_round(_head(10, {"old": NOW_S + 60}), [_admit("new")], [], ["old"], set())
    assert decided.admitted[0][1].allowed
    assert list(decided.limits.slots) == ["new"] and decided.changed and not decided.doubt


def test_an_admission_the_limits_refuse_charges_nothing_and_is_a_doubt_to_confirm():
    decided = _decide_round(_head(10, {"held": NOW_S + 60}), [_admit("new", ("req-1", 3))], [], [], set())
    assert not decided.admitted[0][1].allowed
    assert (decided.charged, decided.balance, decided.doubt) == ([], 10, True)


def test_debits_are_charged_in_arrival_order_and_a_short_one_charges_nothing():
    admits = [_admit("a", ("req-1", 4), max_concurrent=5), _admit("b", ("req-2", 4), max_concurrent=5)]
    decided = _decide_round(_head(10), admits, [_debit("req-3", 4)], [], set())
    assert decided.charged == [("req-1", 4), ("req-2", 4)]
    assert [after for _, _, after in decided.admitted] == [6, 2]
    assert (decided.short, decided.debited[0][1], decided.balance) == (["req-3"], None, 2)


def test_a_debit_already_in_the_ledger_is_granted_without_a_second_charge():
    decided = _decide_round(_head(1), [], [_debit("req-1", 4)], [], {"req-1"})
    assert (decided.charged, decided.short, decided.debited[0][1]) == ([], [], 1)


def test_a_release_of_a_slot_the_head_does_not_hold_is_a_doubt_and_changes_nothing():
    decided = _decide_round(_head(10), [], [], ["unknown"], set())
    assert (decided.changed, decided.doubt, decided.charged) == (False, True, [])


def test_an_admission_counts_in_the_window_of_its_moment():
    decided = _decide_round(_head(10, count=41), [_admit("a")], [], [], set())
    assert (decided.limits.window_start_s, decided.limits.count) == (1_800_000_000, 42)
    assert decided.admitted[0][1].remaining == 100 - 42
