"""store/errors.py: the store's own failures, how they are classed, and the messages of a
lookup in vain, which never repeat a key sent in place of a name or id.

References: docs/stores.md (an unreachable store is 503 and costs nothing; a write whose answer
was lost is refunded once the store answers), store/key_format.py (the key's format).
"""

from __future__ import annotations

import pytest

from store.errors import (
    AccountExists,
    AccountNotFound,
    BalanceCeiling,
    KeyNotActive,
    KeyNotFound,
    LedgerConflict,
    StoreBusy,
    StoreError,
    StoreOutcomeUnknown,
    StoreUnavailable,
    no_such_account,
    no_such_key,
)

A_KEY = "svc_live_" + "Q" * 32


@pytest.mark.parametrize(
    "error",
    [
        AccountNotFound,
        AccountExists,
        KeyNotFound,
        KeyNotActive,
        BalanceCeiling,
        LedgerConflict,
        StoreUnavailable,
        StoreOutcomeUnknown,
        StoreBusy,
    ],
)
def test_every_store_failure_is_a_store_error(error):
    assert issubclass(error, StoreError)


def test_a_lookup_in_vain_is_a_lookup_error_and_a_refused_value_a_value_error():
    assert issubclass(AccountNotFound, LookupError) and issubclass(KeyNotFound, LookupError)
    for refused in (AccountExists, KeyNotActive, BalanceCeiling, LedgerConflict):
        assert issubclass(refused, ValueError)


def test_a_write_whose_answer_was_lost_is_answered_as_an_unavailable_store():
    assert issubclass(StoreOutcomeUnknown, StoreUnavailable)
    assert not issubclass(StoreBusy, StoreUnavailable)


def test_no_such_account_names_what_was_looked_up():
    error = no_such_account("acme")
    assert isinstance(error, AccountNotFound) and str(error) == "no account 'acme'"


def test_no_such_account_never_repeats_a_key_sent_as_the_account():
    assert str(no_such_account(A_KEY)) == "no account 'svc_live_...'"


def test_no_such_key_names_the_id_looked_up():
    error = no_such_key("key_0123456789abcdef")
    assert isinstance(error, KeyNotFound) and str(error) == "no key 'key_0123456789abcdef'"


def test_a_key_sent_as_a_key_id_is_redacted_and_told_apart_from_an_id():
    message = str(no_such_key(A_KEY))
    assert "Q" * 32 not in message
    assert message.startswith("no key 'svc_live_...' (that is an API key, not a key id")
