"""The Prometheus metrics every process kind records: the one set of histogram buckets, and
the constructors that give every metric its place in the catalogue (docs/operating.md).

Metrics live in the process's default registry (``prometheus_client.REGISTRY``), which the
``/metrics`` endpoint serves (``shared/runtime/metrics_endpoint.py``). Names carry their unit
and labels are bounded sets (an operation, a pool, a status code): never an account, a key, a
chart id, a URL or a parameter (docs/operating.md lists every metric).
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import REGISTRY, Counter, Gauge, Histogram

#: The upper bounds (seconds) of every duration histogram's buckets: from a 5 ms positions
#: call to a minute-long scan (the scan deadline, CELESTIAL_SCAN_DEADLINE_S).
DURATION_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

#: Every metric of the catalogue starts with this.
PREFIX = "celestial_"

#: Label names no metric may have: each would make a series per customer or per request.
UNBOUNDED_LABELS = frozenset({"account", "account_id", "key", "key_id", "chart_id", "url", "request_id", "webhook_id"})


_CATALOGUE: dict[str, tuple[str, tuple[str, ...]]] = {}
#: Whether this process records its metrics: a process that serves no /metrics stops (at its
#: start, :func:`stop_recording`), so metrics nobody reads cost it nothing.
_recording = True
_REFRESHES: list[Callable[[], None]] = []


def _checked(name: str, kind: str, labels: tuple[str, ...]) -> None:
    if not name.startswith(PREFIX):
        raise ValueError(f"metric {name!r} must start with {PREFIX!r}")
    unbounded = UNBOUNDED_LABELS.intersection(labels)
    if unbounded:
        raise ValueError(f"metric {name!r} may not be labelled by {', '.join(sorted(unbounded))}")
    _CATALOGUE[name] = (kind, labels)


def counter(name: str, documentation: str, labels: tuple[str, ...] = ()) -> Counter:
    """Return the counter ``name`` (ending in ``_total``) with ``labels``, registered in the default registry."""
    _checked(name, "counter", labels)
    return Counter(name, documentation, labels, registry=REGISTRY)


def duration_histogram(name: str, documentation: str, labels: tuple[str, ...] = ()) -> Histogram:
    """Return the histogram ``name`` (seconds) with ``labels`` and :data:`DURATION_BUCKETS_S`."""
    _checked(name, "histogram", labels)
    return Histogram(name, documentation, labels, buckets=DURATION_BUCKETS_S, registry=REGISTRY)


def gauge(name: str, documentation: str, labels: tuple[str, ...] = ()) -> Gauge:
    """Return the gauge ``name`` with ``labels``, registered in the default registry."""
    _checked(name, "gauge", labels)
    return Gauge(name, documentation, labels, registry=REGISTRY)


def recording() -> bool:
    """Return whether this process records its metrics."""
    return _recording


def stop_recording() -> None:
    """Record no metric from now on (a process whose /metrics is off: nobody reads them)."""
    global _recording
    _recording = False


def catalogue() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Return every metric this process has registered: its name → (type, label names)."""
    return dict(_CATALOGUE)


def before_scrape(refresh: Callable[[], None]) -> None:
    """Have ``refresh()`` called before every scrape (on the event loop serving ``/metrics``):
    a gauge read from state that changes at every call is set then, costing nothing per call."""
    _REFRESHES.append(refresh)


def refresh_gauges() -> None:
    """Call every function given to :func:`before_scrape`."""
    for refresh in _REFRESHES:
        refresh()
