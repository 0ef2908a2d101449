"""gateway/key_modes.py: the limits a test key's requests run under, and which requests are a
test key's.

References: docs/limits.md ("Test keys"), docs/accounts-and-keys.md ("Test keys").
"""

from __future__ import annotations

from gateway.key_modes import (
    TEST_MAX_CONCURRENT,
    TEST_RATE_PER_MINUTE,
    batch_computations,
    batch_slots,
    computations_of,
    limits_for_test_keys,
    request_computations,
)
from store.bounds import MAX_CONCURRENT, RATE_PER_MINUTE
from store.records import Account


def test_test_keys_run_under_the_stated_small_limits():
    account = Account("acct_0123456789abcdef", "acme", 100, rate_per_minute=300, max_concurrent=50)
    limited = limits_for_test_keys(account)
    assert (limited.rate_per_minute, limited.max_concurrent) == (60, 5) == (TEST_RATE_PER_MINUTE, TEST_MAX_CONCURRENT)
    assert (limited.id, limited.name, limited.balance) == (account.id, account.name, account.balance)


def test_the_test_limits_are_within_what_an_account_may_be_given():
    assert RATE_PER_MINUTE.minimum <= TEST_RATE_PER_MINUTE <= RATE_PER_MINUTE.maximum
    assert MAX_CONCURRENT.minimum <= TEST_MAX_CONCURRENT <= MAX_CONCURRENT.maximum


def test_a_test_key_never_gets_more_than_the_accounts_live_limits():
    account = Account("acct_0123456789abcdef", "acme", 100, rate_per_minute=10, max_concurrent=2)
    limited = limits_for_test_keys(account)
    assert (limited.rate_per_minute, limited.max_concurrent) == (10, 2)


ACCOUNT = Account("acct_0123456789abcdef", "acme", 100)


def test_a_test_request_counts_what_it_would_cost_a_live_key_and_at_least_one():
    assert [computations_of(credits) for credits in (0, 1, 3, 10)] == [1, 1, 3, 10]


def test_a_single_test_request_counts_at_most_the_whole_minute_so_it_always_fits_an_empty_one():
    assert request_computations(10, limits_for_test_keys(ACCOUNT)) == 10
    slow_account = Account("acct_0123456789abcdef", "acme", 100, rate_per_minute=4)
    assert request_computations(10, limits_for_test_keys(slow_account)) == 4


def test_a_test_batch_counts_the_sum_of_its_subrequests_each_at_least_one():
    assert batch_computations([1] * 50) == 50
    assert batch_computations([1, 3, 0, 10]) == 15


def test_a_test_batch_holds_a_slot_per_subrequest_it_runs_at_once_up_to_the_test_concurrency():
    limits = limits_for_test_keys(ACCOUNT)
    assert [batch_slots(count, limits) for count in (1, 3, TEST_MAX_CONCURRENT, 50)] == [1, 3, 5, 5]
