"""gateway/key_modes.py: the limits a test key's requests run under, and which requests are a
test key's.

References: docs/limits.md ("Test keys"), docs/accounts-and-keys.md ("Test keys").
"""

from __future__ import annotations

from gateway.key_modes import TEST_MAX_CONCURRENT, TEST_RATE_PER_MINUTE, limits_for_test_keys
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
