"""The key and credit store's transactions: how long each of the store's methods took, by
store (``sqlite``, ``nats``) and method, and which failed (the ledger's errors), counted around
the methods of the store a process opens (``store/choice.py``)."""

from __future__ import annotations

import functools
import inspect
import time

from shared.metrics_recording import counter, duration_histogram, recording
from store.errors import StoreBusy, StoreUnavailable

DURATION = duration_histogram(
    "celestial_store_transaction_duration_seconds",
    "Seconds a store method (one transaction) took, by store and method.",
    ("store", "operation"),
)

FAILURES = counter(
    "celestial_store_transaction_failures_total",
    "Store methods (transactions) that failed, by store, method and reason: unavailable, busy or unexpected.",
    ("store", "operation", "reason"),
)

#: The failures counted, by the exception a method raised: the store unreachable (or a write's
#: outcome unknown), the store locked past its wait, anything else that is not an answer.
#: A refusal the store answers with (no such account, a balance ceiling: a ValueError or
#: LookupError) is the method's result, not a failure.
UNAVAILABLE, BUSY, UNEXPECTED = "unavailable", "busy", "unexpected"

#: Methods that are not one transaction: they follow the store, wait for work, or close it.
UNTIMED_PREFIXES = ("follow", "take_", "close")


def timed_methods(store: object) -> list[str]:
    """Return the names of ``store``'s public coroutine methods timed as transactions."""
    return sorted(
        name
        for name, method in inspect.getmembers(type(store), inspect.iscoroutinefunction)
        if not name.startswith("_") and not name.startswith(UNTIMED_PREFIXES)
    )


def time_transactions(store: object, store_name: str) -> object:
    """Return ``store`` with each of its :func:`timed_methods` timed into :data:`DURATION`
    (wrapped on the instance: it stays what it is for ``isinstance``); as it is when this
    process records no metric."""
    if not recording():
        return store
    for name in timed_methods(store):
        setattr(store, name, _timed(getattr(store, name), store_name, name))
    return store


def failure_kind(exception: BaseException) -> str | None:
    """Return the ``reason`` label a store method's ``exception`` counts under, or None when
    it is an answer (a refusal) or a cancellation, not a failure."""
    if isinstance(exception, StoreUnavailable):
        return UNAVAILABLE
    if isinstance(exception, StoreBusy):
        return BUSY
    if isinstance(exception, (ValueError, LookupError)) or not isinstance(exception, Exception):
        return None
    return UNEXPECTED


def _timed(method, store_name: str, name: str):
    histogram = DURATION.labels(store_name, name)

    @functools.wraps(method)
    async def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        except BaseException as exception:
            kind = failure_kind(exception)
            if kind is not None:
                FAILURES.labels(store_name, name, kind).inc()
            raise
        finally:
            histogram.observe(time.perf_counter() - started)

    return timed
