"""The pools' autoscalers (deploy/k8s/base/autoscaling.yaml, issue 50): KEDA scales each pool on
its queue's expected wait, with CPU as a second trigger, to targets the gateway's own refusal
rule sets; rendered by both overlays for their own namespace."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from gateway.endpoints import discover_endpoints
from gateway.paid_requests import Gateway
from shared.runtime.config import load_settings
from tests.unit.deploy.test_k8s_manifests import OVERLAYS, POOLS, objects

pytestmark = pytest.mark.usefixtures("processes")


def triggers(overlay: str, pool: str) -> dict[str, dict]:
    return {t["type"]: t for t in objects(overlay, "ScaledObject")[pool]["spec"]["triggers"]}


def refusal_wait_s(overlay: str, pool: str) -> float:
    """Return the shortest expected wait (seconds) at which the gateway refuses a call of
    ``pool`` at once, under the overlay's settings (the gateway's own rule, wait_allowed_s)."""
    settings = load_settings(objects(overlay, "ConfigMap")["celestial-config"]["data"])
    gateway = SimpleNamespace(settings=settings)
    gateway.deadline_s = lambda endpoint: Gateway.deadline_s(gateway, endpoint)
    return min(Gateway.wait_allowed_s(gateway, e) for e in discover_endpoints() if e.service == pool)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_pool_scales_on_the_worst_gateways_expected_wait_as_a_value(overlay):
    for pool in POOLS:
        prometheus = triggers(overlay, pool)["prometheus"]
        query = prometheus["metadata"]["query"]
        assert query.startswith("max(") and f'pool="{pool}"' in query, pool
        # Value: ceil(replicas x wait / target); AverageValue would divide the wait by the replicas.
        assert prometheus["metricType"] == "Value", pool


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_cpu_at_70_percent_is_each_pools_second_trigger(overlay):
    for pool in POOLS:
        cpu = triggers(overlay, pool)["cpu"]
        assert cpu == {"type": "cpu", "metricType": "Utilization", "metadata": {"value": "70"}}, pool


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_target_is_half_the_wait_at_which_the_gateway_refuses_the_pools_calls(overlay):
    targets = {pool: float(triggers(overlay, pool)["prometheus"]["metadata"]["threshold"]) for pool in POOLS}
    assert targets == {pool: refusal_wait_s(overlay, pool) / 2 for pool in POOLS}
    assert targets == {"ephemeris": 0.5, "timelords": 0.5, "search": 0.125, "astrocartography": 2.5}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_query_reads_the_gateways_of_its_own_namespace(overlay):
    (namespace,) = objects(overlay, "Namespace")
    for pool in POOLS:
        query = triggers(overlay, pool)["prometheus"]["metadata"]["query"]
        assert re.findall(r'namespace="([^"]*)"', query) == [namespace], pool


def test_every_scaler_asks_the_same_prometheus():
    addresses = {t["prometheus"]["metadata"]["serverAddress"] for t in map(lambda p: triggers("prod", p), POOLS)}
    assert addresses == {"http://prometheus-operated.monitoring.svc:9090"}
