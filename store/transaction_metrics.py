"""The key and credit store's transactions: how long each of the store's methods took, by
store (``sqlite``, ``nats``) and method, timed around the methods of the store a process opens
(``store/choice.py``)."""

from __future__ import annotations

import functools
import inspect
import time

from shared.metrics_recording import duration_histogram, recording

DURATION = duration_histogram(
    "celestial_store_transaction_duration_seconds",
    "Seconds a store method (one transaction) took, by store and method.",
    ("store", "operation"),
)

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
        setattr(store, name, _timed(getattr(store, name), DURATION.labels(store_name, name)))
    return store


def _timed(method, histogram):
    @functools.wraps(method)
    async def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            histogram.observe(time.perf_counter() - started)

    return timed
