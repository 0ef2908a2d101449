"""store/bounds.py: the account name grammar, the bounds of credits and limits, the key name
rule and the moments a key may expire at.

References: the module's documented grammar (ACCOUNT_NAME_RE's comment), docs/stores.md,
../shared/spec/decisions.md (Limits). Expected values are written from those rules by hand.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest

from store import bounds
from store.errors import BalanceCeiling


@pytest.mark.parametrize("name", ["a", "A", "0", "acme", "acme.eu-1_test", "x" * 64])
def test_an_account_name_of_1_to_64_letters_digits_dots_dashes_underscores_starting_alphanumeric_is_accepted(name):
    assert bounds.validate_account_name(name) == name


@pytest.mark.parametrize(
    "name",
    ["", "x" * 65, ".", "..", ".acme", "-acme", "_acme", "ac me", "ac/me", "acmé", "acme\n", "tab\t", None, 42],
)
def test_an_account_name_outside_the_grammar_is_refused(name):
    with pytest.raises(ValueError, match="account name"):
        bounds.validate_account_name(name)


@pytest.mark.parametrize("name", ["acct_0123456789abcdef", "svc_live_abcd"])
def test_an_account_name_may_not_read_as_an_account_id_or_a_key(name):
    with pytest.raises(ValueError):
        bounds.validate_account_name(name)


def test_a_refused_account_name_shaped_like_a_key_is_not_repeated_in_the_message():
    key = "svc_live_" + "A" * 32
    with pytest.raises(ValueError) as refused:
        bounds.validate_account_name(key)
    assert "A" * 32 not in str(refused.value)


def test_a_new_account_id_is_acct_and_16_hex_digits_and_never_repeats():
    ids = {bounds.new_account_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(re.fullmatch(r"acct_[0-9a-f]{16}", account_id) for account_id in ids)


def test_a_new_account_id_is_itself_refused_as_a_name():
    with pytest.raises(ValueError):
        bounds.validate_account_name(bounds.new_account_id())


def test_a_key_name_is_trimmed_and_may_be_empty():
    assert bounds.validate_key_name("  production backend, EU ") == "production backend, EU"
    assert bounds.validate_key_name("") == ""


@pytest.mark.parametrize("name", ["x" * 65, "tab\there", "bell\x07", "del\x7f", "my svc_live_key", 7])
def test_a_key_name_too_long_with_control_characters_shaped_like_a_key_or_not_text_is_refused(name):
    with pytest.raises(ValueError):
        bounds.validate_key_name(name)


def test_a_key_name_of_64_characters_is_accepted():
    assert bounds.validate_key_name("k" * 64) == "k" * 64


def test_a_bound_is_inclusive_at_both_ends():
    bound = bounds.Bound("n", 1, 10)
    assert (bound.check(1), bound.check(10)) == (1, 10)
    for outside in (0, 11):
        with pytest.raises(ValueError, match="between 1 and 10"):
            bound.check(outside)


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None])
def test_a_bound_refuses_anything_but_an_integer_booleans_included(value):
    with pytest.raises(ValueError, match="must be an integer"):
        bounds.Bound("n", 0, 10).check(value)


def test_the_balance_ceiling_is_10_to_the_15_exact_in_a_json_double():
    assert bounds.MAX_BALANCE == 10**15
    assert float(bounds.MAX_BALANCE) == bounds.MAX_BALANCE and bounds.MAX_BALANCE < 2**53


def test_the_bounds_of_credits_and_limits():
    assert (bounds.OPENING_BALANCE.minimum, bounds.OPENING_BALANCE.maximum) == (0, 10**15)
    assert (bounds.CREDITS.minimum, bounds.CREDITS.maximum) == (1, 10**15)
    assert (bounds.RATE_PER_MINUTE.minimum, bounds.RATE_PER_MINUTE.maximum) == (1, 10**9)
    assert (bounds.MAX_CONCURRENT.minimum, bounds.MAX_CONCURRENT.maximum) == (1, 10**6)


def test_a_new_account_may_open_with_no_credits_but_a_top_up_moves_at_least_one():
    bounds.validate_new_account("acme", 0, 1, 1)
    with pytest.raises(ValueError):
        bounds.require_credits(0)
    assert bounds.require_credits(1) == 1


def test_limits_not_given_are_not_checked_and_limits_given_are():
    bounds.validate_limits(None, None)
    with pytest.raises(ValueError, match="rate_per_minute"):
        bounds.validate_limits(0, None)
    with pytest.raises(ValueError, match="max_concurrent"):
        bounds.validate_limits(None, 10**6 + 1)


def test_a_top_up_may_reach_the_ceiling_but_not_pass_it():
    bounds.check_balance_ceiling("acme", 10**15 - 5, 5)
    with pytest.raises(BalanceCeiling):
        bounds.check_balance_ceiling("acme", 10**15 - 5, 6)


def test_a_moment_must_be_timezone_aware_and_is_returned_in_utc():
    paris_summer = datetime(2030, 7, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    assert bounds.require_aware(paris_summer, "at") == datetime(2030, 7, 1, 12, 0, tzinfo=UTC)
    assert bounds.require_aware(None, "at") is None
    with pytest.raises(ValueError, match="timezone-aware"):
        bounds.require_aware(datetime(2030, 7, 1), "at")


def test_an_expiry_must_be_in_the_future_and_none_means_never():
    assert bounds.require_future_expiry(None) is None
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    assert bounds.require_future_expiry(tomorrow) == tomorrow
    with pytest.raises(ValueError, match="future"):
        bounds.require_future_expiry(datetime.now(UTC) - timedelta(seconds=1))
