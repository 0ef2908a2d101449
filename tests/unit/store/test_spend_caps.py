"""store/spend_caps.py: the arithmetic of spend caps over an account's book, against instants
and calendar facts written out by hand (UTC midnights, month lengths, leap February)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared.errors import SpendCapReached
from store.spend_caps import SpendBook, SpendCap, period_labels, resets_at, validate_cap

NOON = datetime(2028, 2, 28, 12, 0, tzinfo=UTC).timestamp()  # 2028 is a leap year
NEXT_DAY = datetime(2028, 2, 29, 0, 0, tzinfo=UTC).timestamp()
NEXT_MONTH = datetime(2028, 3, 1, 0, 0, tzinfo=UTC).timestamp()


def capped(daily=None, monthly=None, key_id: str = "") -> SpendBook:
    return SpendBook().with_cap(key_id, SpendCap(daily, monthly), NOON)


def test_periods_are_the_utc_day_and_month_of_the_instant():
    assert period_labels(NOON) == ("2028-02-28", "2028-02")
    assert period_labels(NEXT_MONTH - 1) == ("2028-02-29", "2028-02")


@pytest.mark.parametrize(
    "period, label, expected",
    [
        ("daily", "2028-02-28", datetime(2028, 2, 29, tzinfo=UTC)),
        ("daily", "2028-12-31", datetime(2029, 1, 1, tzinfo=UTC)),
        ("monthly", "2028-02", datetime(2028, 3, 1, tzinfo=UTC)),
        ("monthly", "2027-12", datetime(2028, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_period_resets_at_the_next_utc_midnight_or_first_of_the_month(period, label, expected):
    assert resets_at(period, label) == expected


def test_a_debit_up_to_the_cap_passes_and_one_past_it_is_refused_with_the_figures():
    book, _ = capped(daily=5).debit("acct", "", 5, NOON)
    with pytest.raises(SpendCapReached) as caught:
        book.debit("acct", "", 1, NOON)
    assert caught.value.cap == {
        "scope": "account",
        "period": "daily",
        "cap": 5,
        "spent": 5,
        "resets_at": "2028-02-29T00:00:00.000Z",
    }


def test_of_two_caps_passed_the_one_that_resets_last_is_reported():
    with pytest.raises(SpendCapReached) as caught:
        capped(daily=1, monthly=1).debit("acct", "", 2, NOON)
    assert caught.value.cap["period"] == "monthly"


def test_a_key_spends_against_its_own_cap_and_the_accounts():
    book = capped(daily=10).with_cap("key_a", SpendCap(daily=2), NOON)
    book, _ = book.debit("acct", "key_a", 2, NOON)
    with pytest.raises(SpendCapReached) as caught:
        book.debit("acct", "key_a", 1, NOON)
    assert caught.value.cap["key_id"] == "key_a"
    book, _ = book.debit("acct", "key_b", 8, NOON)
    assert (book.spent_of("", "daily"), book.spent_of("key_b", "monthly")) == (10, 8)


def test_a_new_day_starts_at_nothing_spent_and_a_new_month_too():
    book, _ = capped(daily=3, monthly=10).debit("acct", "", 3, NOON)
    book, _ = book.debit("acct", "", 3, NEXT_DAY)
    assert (book.spent_of("", "daily"), book.spent_of("", "monthly")) == (3, 6)
    book = book.at(NEXT_MONTH)
    assert (book.day, book.month, book.spent) == ("2028-03-01", "2028-03", {})


def test_a_book_never_moves_back_to_an_earlier_period():
    book, _ = capped(daily=3).debit("acct", "", 3, NEXT_DAY)
    with pytest.raises(SpendCapReached):  # a writer whose clock runs behind counts into the later day
        book.debit("acct", "", 1, NOON)


def test_a_refund_frees_the_current_period_only_and_never_below_nothing():
    book, _ = capped(daily=5).debit("acct", "key_a", 4, NOON)
    assert book.refund("key_a", 9, NOON, NOON).spent == {"": (0, 0), "key_a": (0, 0)}
    later = book.refund("key_a", 4, NOON, NEXT_DAY)  # yesterday's debit: frees the month, not the new day
    assert (later.spent_of("", "daily"), later.spent_of("", "monthly")) == (0, 0)
    moved, _ = later.debit("acct", "", 1, NEXT_DAY)
    assert moved.spent_of("", "daily") == 1


def test_the_80_percent_warning_comes_once_per_cap_and_period():
    book, warnings = capped(daily=10).debit("acct", "", 7, NOON)
    assert warnings == ()
    book, (warning,) = book.debit("acct", "", 1, NOON)
    assert (warning.period, warning.cap, warning.spent, warning.resets_at) == (
        "daily",
        10,
        8,
        datetime(2028, 2, 29, tzinfo=UTC),
    )
    book = book.refund("", 8, NOON, NOON)
    book, again = book.debit("acct", "", 9, NOON)
    assert again == ()
    _, next_day = book.debit("acct", "", 8, NEXT_DAY)
    assert [w.period for w in next_day] == ["daily"]


def test_a_cap_of_zero_lets_nothing_through_and_gives_no_warning():
    with pytest.raises(SpendCapReached):
        capped(daily=0).debit("acct", "", 1, NOON)


def test_the_book_survives_its_stored_form():
    book, _ = capped(daily=10, monthly=100, key_id="key_a").debit("acct", "key_a", 9, NOON)
    assert SpendBook.from_json(book.to_json()) == book
    assert SpendBook.from_json(None) == SpendBook.from_json({}) == SpendBook()


def test_clearing_a_cap_removes_it_and_the_status_lists_keys_with_caps_or_spend():
    book = capped(daily=1, key_id="key_a").with_cap("key_a", SpendCap(), NOON)
    assert book.caps == {}
    book, _ = book.debit("acct", "key_b", 2, NOON)
    status = book.status("acct", NOON)
    assert [line.key_id for line in status.keys] == ["key_b"] and status.key("key_c").daily_spent == 0


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", 10**12 + 1])
def test_a_cap_is_a_whole_number_of_credits_within_range(bad):
    with pytest.raises(ValueError):
        validate_cap(SpendCap(daily=bad))
