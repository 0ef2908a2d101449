"""What a key's mode changes for its requests: a test key (``svc_test_``) is answered exactly as
a live key would be, but its requests are never charged and run under limits of their own.

- Cost: nothing. A test request reserves no credits, writes no ledger row (so it is not in
  ``/v1/usage`` nor the dashboard's usage), and is never refused for a zero balance.
- Limits: each account's test-key requests share one rate window and one set of concurrency
  slots across every gateway (the store's ``admit_test_traffic``), apart from the live ones:
  test traffic never uses up the live limit, nor live traffic the test limit.
- Counted by computation: a live key's request is paid for by its credits, a test key's is
  not, so the test rate counts what a request would cost through a live key
  (:func:`computations_of`): a wheel counts 3 or 4, a forecast 10, a batch the sum of its
  sub-requests, each at least 1. The rule is the price list's, so it holds whatever the shape
  of a request (one call, a batch, a document, a scan): a minute of a test key computes at
  most what TEST_RATE_PER_MINUTE credits buy a live key. A batch holds a test slot for each
  sub-request it runs at once (:func:`batch_slots`), so its concurrency counts too.
- The answer: a success's ``meta.mode`` is ``"test"``; a live key's answer has no ``mode``
  member at all (its bytes are what they were before test keys existed).

docs/accounts-and-keys.md ("Test keys") and docs/limits.md say the same to users.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from store.key_format import KeyMode
from store.records import Account

#: What an account's test keys may compute per minute, all its test keys and gateways together,
#: counted in the credits it would cost through a live key (:func:`computations_of`): 60
#: single-credit requests, or 6 forecasts. Small on purpose: enough for an integration suite or
#: a developer trying the API (one call a second on average), too little to serve an
#: application for free (a live account's default is 300 requests a minute, paid for).
TEST_RATE_PER_MINUTE = 60
#: Test-key computations of an account in flight at once (a live account's default is 50
#: requests): enough for a test suite that runs a few requests in parallel, too few to stand in
#: for live traffic. A batch's sub-requests count as they run (:func:`batch_slots`).
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


def computations_of(live_credits: int) -> int:
    """Return what one test-key request, or one sub-request of a batch, counts against the test
    rate: the credits it would cost through a live key, at least 1 (a free endpoint's
    ``/v1/places``, an unknown endpoint's or a request refused for its parameters count 1, as
    every request counts against a live limit)."""
    return max(1, live_credits)


def request_computations(live_credits: int, test_limits: Account) -> int:
    """Return what a single test-key request counts against ``test_limits`` (the account's, from
    :func:`limits_for_test_keys`): :func:`computations_of` its price, at most the whole minute,
    so that any single request fits an empty window (an account whose own limit is lower
    than a forecast's price can still ask for one a minute)."""
    return min(computations_of(live_credits), test_limits.rate_per_minute)


def batch_computations(live_credits: Iterable[int]) -> int:
    """Return what a test key's batch counts against the test rate: the sum of
    :func:`computations_of` its sub-requests' prices (``live_credits``, one per sub-request)."""
    return sum(computations_of(credits) for credits in live_credits)


def batch_slots(subrequests: int, test_limits: Account) -> int:
    """Return the test slots a test key's batch of ``subrequests`` holds while it runs: one per
    sub-request it runs at once, which is all of them up to the test limit of requests in
    flight (a larger batch runs that many at a time)."""
    return max(1, min(subrequests, test_limits.max_concurrent))
