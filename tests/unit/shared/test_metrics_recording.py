"""shared/metrics_recording.py: the metric catalogue (docs/operating.md). Every metric the
product registers is in the operating guide's table with its type and labels, and the table
lists no other; no metric is labelled by an account or anything unbounded; every duration has
the one set of buckets; every process kind's entry imports the metrics it serves."""

from __future__ import annotations

import re

import grimp
import pytest
from prometheus_client import Histogram

import gateway.credit_metrics
import gateway.pool_metrics
import gateway.request_metrics
import shared.runtime.rpc_metrics
import store.transaction_metrics
import webhooks.delivery_metrics
from shared.metrics_recording import DURATION_BUCKETS_S, catalogue, counter, gauge
from shared.runtime.config import REPO_ROOT, SERVICE_NAMES

PRODUCT_METRICS = (
    gateway.credit_metrics,
    gateway.pool_metrics,
    gateway.request_metrics,
    shared.runtime.rpc_metrics,
    store.transaction_metrics,
    webhooks.delivery_metrics,
)
#: The label names the catalogue allows: each a bounded set.
BOUNDED_LABELS = {
    "operation", "status", "pool", "lane", "reason", "key_mode", "store", "service", "method", "code", "outcome",
}  # fmt: skip
#: What each process kind's entry module must import to serve its metrics.
PROCESS_KINDS = {
    "gateway.main": (
        "gateway.request_metrics",
        "gateway.pool_metrics",
        "gateway.credit_metrics",
        "store.transaction_metrics",
        "shared.runtime.metrics_endpoint",
    ),
    **{
        f"services.{name}.server": ("shared.runtime.rpc_metrics", "shared.runtime.metrics_endpoint")
        for name in SERVICE_NAMES
    },
    "webhooks.worker": (
        "webhooks.delivery_metrics",
        "store.transaction_metrics",
        "shared.runtime.metrics_endpoint",
    ),
}
ROW = re.compile(r"^\| `(celestial_[a-z_]+)` \| (counter|gauge|histogram) \|\s*([a-z_, ]*?)\s*\| .+ \|$")


def documented() -> dict[str, tuple[str, tuple[str, ...]]]:
    text = (REPO_ROOT / "docs" / "operating.md").read_text()
    rows = {}
    for line in text.splitlines():
        match = ROW.match(line)
        if match:
            labels = tuple(label.strip() for label in match[3].split(",") if label.strip())
            rows[match[1]] = (match[2], labels)
    return rows


def product_catalogue() -> dict[str, tuple[str, tuple[str, ...]]]:
    modules = {module.__name__ for module in PRODUCT_METRICS}
    registered = catalogue()
    return {name: entry for name, entry in registered.items() if _module_of(name) in modules}


def _module_of(name: str) -> str | None:
    for module in PRODUCT_METRICS:
        for value in vars(module).values():
            if getattr(value, "_name", None) == name.removesuffix("_total"):
                return module.__name__
    return None


def test_the_operating_guide_lists_exactly_the_registered_metrics_with_their_types_and_labels():
    assert documented() == product_catalogue()


def test_no_metric_is_labelled_by_an_account_or_anything_unbounded():
    for name, (_, labels) in product_catalogue().items():
        assert set(labels) <= BOUNDED_LABELS, name


def test_a_label_naming_an_account_or_a_key_is_refused():
    for label in ("account_id", "key_id", "chart_id", "url"):
        with pytest.raises(ValueError, match=label):
            counter("celestial_refused_total", "never registered", (label,))


def test_a_metric_outside_the_catalogues_prefix_is_refused():
    with pytest.raises(ValueError, match="celestial_"):
        gauge("queue_depth", "never registered")


def test_every_duration_has_the_catalogues_buckets():
    histograms = [
        value for module in PRODUCT_METRICS for value in vars(module).values() if isinstance(value, Histogram)
    ]
    assert len(histograms) == 6
    for histogram in histograms:
        assert histogram._upper_bounds == [*map(float, DURATION_BUCKETS_S), float("inf")], histogram._name


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("gateway", "services", "webhooks", "shared", "store", "kernel", "celestial")


@pytest.mark.parametrize("entry", sorted(PROCESS_KINDS))
def test_every_process_kind_registers_its_metrics_and_serves_them(graph, entry):
    missing = [m for m in PROCESS_KINDS[entry] if not graph.chain_exists(importer=entry, imported=m)]
    assert missing == []
