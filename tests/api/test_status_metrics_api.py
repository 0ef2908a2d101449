"""The status page's figures equal the metrics of the same window (issue 50's proof): one
gateway of its own answers a known set of requests of one class, and /v1/status's count,
percentiles and 5xx share equal what its Prometheus metrics counted in that time, read as
Prometheus' ``histogram_quantile`` reads a histogram (linear inside the bucket, the highest
finite bound past the last one: ``gateway/status_figures.py``'s rule too)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from gateway.status_figures import percentile_s
from shared.metrics_recording import DURATION_BUCKETS_S
from tests.api.in_process_stack import AppStack

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
REFUSED = "/v1/positions?datetime=nonsense&bodies=sun"


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    """A gateway of its own: its store's status records hold only this module's answers."""
    return module_stacks.in_process("status-metrics")


def positions_metrics() -> tuple[list[float], dict[str, float]]:
    """Return the positions operation's cumulative duration buckets (one per bound, then +Inf)
    and its answer counts by status, as the process's registry holds them now."""
    buckets = [
        REGISTRY.get_sample_value(
            "celestial_http_request_duration_seconds_bucket", {"operation": "positions", "le": le}
        )
        or 0.0
        for le in [*(str(float(bound)) for bound in DURATION_BUCKETS_S), "+Inf"]
    ]
    statuses = {
        status: REGISTRY.get_sample_value("celestial_http_requests_total", {"operation": "positions", "status": status})
        or 0.0
        for status in ("200", "400")
    }
    return buckets, statuses


def test_the_status_figures_equal_the_metrics_of_the_same_window(stack):
    buckets_before, statuses_before = positions_metrics()
    _, key = stack.new_key()
    with stack.client(key) as client:
        for _ in range(12):
            assert client.get(POSITIONS).status_code == 200
        for _ in range(3):
            assert client.get(REFUSED).status_code == 400
    state = stack.app.state
    stack._transport._portal.call(state.status_recorder.flush, state.gateway.store)
    state.status_reports.forget()
    buckets_after, statuses_after = positions_metrics()

    cumulative = [after - before for after, before in zip(buckets_after, buckets_before, strict=True)]
    counts = [int(c - below) for c, below in zip(cumulative, [0.0, *cumulative[:-1]], strict=True)]
    answered = {status: statuses_after[status] - statuses_before[status] for status in statuses_after}
    assert answered == {"200": 12, "400": 3} and sum(counts) == 15

    with stack.client() as visitor:
        (quick,) = [c for c in visitor.get("/v1/status").json()["data"]["classes"] if c["name"] == "quick"]
    hour = next(w for w in quick["windows"] if w["window"] == "hour")
    assert hour["requests"] == sum(counts)
    assert hour["server_error_share"] == 0
    for name, q in (("p50_ms", 0.5), ("p95_ms", 0.95), ("p99_ms", 0.99)):
        assert hour[name] == round(percentile_s(counts, DURATION_BUCKETS_S, q) * 1000, 1), name
