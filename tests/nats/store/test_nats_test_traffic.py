"""store/nats_test_traffic.py: the NATS store's test-traffic limiter, an entry of its own per
account in the limits bucket. (Its rules, shared with the SQLite store, are in
test_key_mode_contract.py.)

References: docs/limits.md ("Test keys"), store/nats_store.py (the bucket layout).
"""

from __future__ import annotations

import pytest

from store import AccountNotFound
from store.bounds import new_account_id
from store.nats_test_traffic import TEST_ENTRY_SUFFIX, traffic_entry_of_test_keys


def test_an_accounts_test_traffic_entry_is_its_id_and_the_suffix():
    assert traffic_entry_of_test_keys("acct_0123456789abcdef") == "acct_0123456789abcdef-test"


def test_no_account_id_can_name_another_accounts_test_entry():
    ids = [new_account_id() for _ in range(200)]
    assert not any(traffic_entry_of_test_keys(one) in ids for one in ids)
    assert not any(account_id.endswith(TEST_ENTRY_SUFFIX) for account_id in ids)


@pytest.mark.parametrize("account_id", ["", "acct.x", "a b", "x" * 65])
def test_an_id_that_is_no_account_id_has_no_test_entry(account_id):
    with pytest.raises(AccountNotFound):
        traffic_entry_of_test_keys(account_id)
