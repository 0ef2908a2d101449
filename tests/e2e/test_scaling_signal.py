"""The autoscalers' signal on real processes (issue 50, part 3): a real Prometheus scrapes two
real gateways while several accounts load the search pool with wide transit scans; the search
pool's ScaledObject's own query, read from the rendered prod overlay, then answers a wait above
its target, and the replica count KEDA's HPA would ask for grows."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import pytest

from deploy.local_stack import free_port_block, start_gateway
from tests.api.test_transits_api import WIDEST
from tests.prometheus_server import PrometheusServer
from tests.unit.deploy.test_k8s_manifests import objects

POOL = "search"
#: The prod overlay's namespace, which its queries name.
NAMESPACE = "celestial"
#: Accounts loading the pool at once, and the scans each keeps in flight: the expected wait of a
#: newcomer is about one waiting scan per other account (the fair share's round), on one process.
ACCOUNTS = 3
SCANS_EACH = 3
#: How long the test waits for the scraped wait to pass the target before it fails.
SIGNAL_WAIT_S = 90.0
#: The HPA's tolerance: a usage ratio within 10% of 1 changes nothing (kube-controller-manager's default).
TOLERANCE = 0.1


def desired_replicas(current: int, value: float, target: float) -> int:
    """Return the replicas the HPA KEDA makes asks for on a metric of type Value: ceil(current
    x value / target), unchanged within :data:`TOLERANCE`."""
    ratio = value / target
    return current if abs(ratio - 1) <= TOLERANCE else math.ceil(current * ratio)


def scaler(pool: str) -> tuple[str, float, int]:
    """Return the pool's ScaledObject's query, target and least replicas, as prod renders them."""
    spec = objects("prod", "ScaledObject")[pool]["spec"]
    (trigger,) = [t for t in spec["triggers"] if t["type"] == "prometheus"]
    return trigger["metadata"]["query"], float(trigger["metadata"]["threshold"]), spec["minReplicaCount"]


@pytest.fixture(scope="module")
def gateways(module_real_stacks) -> Iterator[tuple[object, list]]:
    stack = module_real_stacks.real("scaling", {"CELESTIAL_SEARCH_PROCESSES": "1"})
    ports = [free_port_block(1) for _ in range(2)]
    started = [start_gateway(stack, {"CELESTIAL_METRICS_PORT": str(port)}) for port in ports]
    yield stack, list(zip(started, ports, strict=True))
    for gateway in started:
        gateway.stop()


@pytest.fixture(scope="module")
def prometheus(gateways, tmp_path_factory) -> Iterator[PrometheusServer]:
    _, started = gateways
    # The namespace label prometheus-operator's PodMonitor gives a pod's series in the prod namespace.
    targets = {"gateway": {f"127.0.0.1:{port}": {"namespace": NAMESPACE} for _, port in started}}
    server = PrometheusServer(tmp_path_factory.mktemp("prometheus"), targets).start()
    server.wait_until(lambda: set(server.targets_up().values()) == {1.0}, SIGNAL_WAIT_S, "both gateways scraped")
    yield server
    server.stop()


def test_the_search_pools_scaler_query_sees_the_wait_pass_its_target_and_asks_for_more_replicas(gateways, prometheus):
    stack, started = gateways
    query, target, least = scaler(POOL)
    assert prometheus.value(query) in (None, 0.0), "no wait before any load"
    done = threading.Event()
    statuses: list[int] = []

    def keep_scanning(key: str, base_url: str) -> None:
        with stack.client(key) as client:
            while not done.is_set():
                statuses.append(client.get(f"{base_url}/v1/transits", params=WIDEST).status_code)

    keys = [stack.new_key(credits=1_000_000)[1] for _ in range(ACCOUNTS)]
    threads = [
        threading.Thread(target=keep_scanning, args=(key, started[n % 2][0].base_url))
        for key in keys
        for n in range(SCANS_EACH)
    ]
    for thread in threads:
        thread.start()
    seen: list[float] = []

    def past_target() -> bool:
        seen.append(prometheus.value(query) or 0.0)
        return seen[-1] > target

    try:
        prometheus.wait_until(past_target, SIGNAL_WAIT_S, f"{query} above {target}")
    finally:
        done.set()
        for thread in threads:
            thread.join()
    assert desired_replicas(least, seen[-1], target) > least
    assert 200 in statuses
