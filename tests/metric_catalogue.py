"""The metric catalogue agreed for issue 50 (docs/operating.md is its table for operators): every
metric a process exports, its type and its labels. The queries of deploy/k8s (the autoscalers',
the alerts', the dashboard's) may name only these (tests/unit/deploy/test_metric_queries.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    name: str
    type: str  # counter, gauge or histogram
    labels: tuple[str, ...]


CATALOGUE = (
    # The gateway.
    Metric("celestial_http_requests_total", "counter", ("operation", "status")),
    Metric("celestial_http_request_duration_seconds", "histogram", ("operation",)),
    Metric("celestial_pool_queue_wait_seconds", "histogram", ("pool",)),
    Metric("celestial_pool_queue_depth", "gauge", ("pool", "lane")),
    Metric("celestial_pool_expected_wait_seconds", "gauge", ("pool",)),
    Metric("celestial_requests_shed_total", "counter", ("pool", "reason")),
    Metric("celestial_requests_refused_total", "counter", ("reason",)),
    Metric("celestial_credits_charged_total", "counter", ("key_mode",)),
    Metric("celestial_credits_refunded_total", "counter", ("key_mode",)),
    Metric("celestial_store_transaction_duration_seconds", "histogram", ("store", "operation")),
    Metric("celestial_store_transaction_failures_total", "counter", ("store", "operation", "reason")),
    # Each gRPC service process.
    Metric("celestial_rpc_requests_total", "counter", ("service", "method", "code")),
    Metric("celestial_rpc_duration_seconds", "histogram", ("service", "method")),
    Metric("celestial_engine_duration_seconds", "histogram", ("service", "method")),
    # The webhook worker.
    Metric("celestial_webhook_deliveries_total", "counter", ("outcome",)),
    Metric("celestial_webhook_delivery_lag_seconds", "histogram", ()),
)

#: The labels Prometheus adds to every series it scrapes from a pod (prometheus-operator's PodMonitor).
TARGET_LABELS = ("namespace", "pod", "container", "job", "instance")
#: The series each histogram exports, by the suffix added to its name (``le`` on the buckets).
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def series_names() -> dict[str, Metric]:
    """Return every series name the catalogue's metrics export (a histogram's three), with its metric."""
    found = {}
    for metric in CATALOGUE:
        suffixes = HISTOGRAM_SUFFIXES if metric.type == "histogram" else ("",)
        found.update({metric.name + suffix: metric for suffix in suffixes})
    return found
