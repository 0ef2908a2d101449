"""What a key's mode changes for its requests: a test key (``svc_test_``) is answered exactly as
a live key would be, but its requests are never charged and run under limits of their own.

- Cost: nothing. A test request reserves no credits, writes no ledger row (so it is not in
  ``/v1/usage`` nor the dashboard's usage), and is never refused for a zero balance.
- Limits: each account's test-key requests share one rate window and one set of concurrency
  slots across every gateway (the store's ``admit_test_traffic``), apart from the live ones:
  test traffic never uses up the live limit, nor live traffic the test limit.
- The answer: a success's ``meta.mode`` is ``"test"``; a live key's answer has no ``mode``
  member at all (its bytes are what they were before test keys existed).

docs/accounts-and-keys.md ("Test keys") and docs/limits.md say the same to users.
"""

from __future__ import annotations

from dataclasses import replace

from store.key_format import KeyMode
from store.records import Account

#: Test-key requests an account may make per minute, all its test keys and gateways together.
#: Small on purpose: enough for an integration suite or a developer trying the API (one a
#: second on average), too little to serve an application for free (a live account's default
#: is 300 a minute).
TEST_RATE_PER_MINUTE = 60
#: Test-key requests of an account in flight at once (a live account's default is 50): enough
#: for a test suite that runs a few requests in parallel, too few to stand in for live traffic.
TEST_MAX_CONCURRENT = 5
#: The ``meta.mode`` of a test key's answer (a live key's answer carries no ``mode``).
TEST_MODE: KeyMode = "test"


def limits_for_test_keys(account: Account) -> Account:
    """Return ``account`` with the limits its test-key requests run under: TEST_RATE_PER_MINUTE
    a minute and TEST_MAX_CONCURRENT at once, or the account's own live limits where those are
    lower (a test key never gets more than a live key of the same account)."""
    return replace(
        account,
        rate_per_minute=min(TEST_RATE_PER_MINUTE, account.rate_per_minute),
        max_concurrent=min(TEST_MAX_CONCURRENT, account.max_concurrent),
    )
