"""Metrics (issue 50, part 1) scraped by a real Prometheus server (tests/prometheus_server.py):
a stack on NATS with two gateways, every service and a webhook worker (each process serving
/metrics on its own port, from CELESTIAL_METRICS_BASE_PORT), under a short mixed load through
both gateways. The queries for request rate, p99 by operation, queue wait and webhook lag
answer what the load implies: the counts equal the requests sent."""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlencode

import httpx
import pytest

from deploy.local_stack import Stack, free_port_block, start_gateway
from deploy.metrics_ports import metrics_ports
from deploy.nats_server import NatsServer
from deploy.supervisor import plan
from deploy.webhook_receiver import Receiver
from shared.runtime.config import SERVICE_NAMES, load_settings
from tests.e2e.test_webhooks import ON_TIME_S, SKY_BIRTH, WORKER_ENV, next_events, subscribe
from tests.prometheus_server import PrometheusServer

PLACE = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.13}
#: The load: (operation, its pool, path and query, requests per gateway).
LOAD = (
    ("positions", "ephemeris", "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun,moon", 12),
    ("natal_chart", "ephemeris", "/v1/natal-chart?" + urlencode(PLACE), 4),
    ("profections", "timelords", "/v1/profections?" + urlencode({**PLACE, "at": "2030-01-01T00:00:00Z"}), 3),
    ("stations", "search", "/v1/stations?start=2024-01-01T00:00:00Z&end=2024-06-01T00:00:00Z", 2),
    ("astrocartography", "astrocartography", "/v1/astrocartography?jd=2451545.0&bodies=venus", 2),
)
REFUSED = ("/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=vulcan", 3)
P99_BY_OPERATION = (
    "histogram_quantile(0.99, sum by (operation, le) (rate(celestial_http_request_duration_seconds_bucket[5m])))"
)
#: How long Prometheus may take to have scraped what the load did (a few scrapes of 1 s).
SCRAPED_WITHIN_S = 30.0


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(nats, module_real_stacks) -> Stack:
    env = {
        "CELESTIAL_NATS_URL": nats.url,
        "CELESTIAL_EPHEMERIS_PROCESSES": "1",
        "CELESTIAL_WEBHOOK_WORKERS": "1",
        **WORKER_ENV,
    }
    count = len(plan(load_settings(env)))
    env["CELESTIAL_METRICS_BASE_PORT"] = str(free_port_block(count))
    return module_real_stacks.real("metrics-stack", env)


@pytest.fixture(scope="module")
def gateway_b(stack):
    port = free_port_block(1)
    extra = start_gateway(stack, {"CELESTIAL_METRICS_PORT": str(port)})
    extra.metrics_port = port
    yield extra
    extra.stop()


@pytest.fixture(scope="module")
def prometheus(stack, gateway_b, tmp_path_factory):
    settings = load_settings(stack.env)
    ports = metrics_ports((child.name for child in plan(settings)), settings.metrics_base_port)
    targets: dict[str, dict[str, dict[str, str]]] = {}
    for name, port in ports.items():
        job = next((s for s in SERVICE_NAMES if name.startswith(f"{s}-")), name.rsplit("-", 1)[0])
        targets.setdefault(job, {})[f"127.0.0.1:{port}"] = {"process": name}
    targets["gateway"][f"127.0.0.1:{gateway_b.metrics_port}"] = {"process": "gateway-b"}
    server = PrometheusServer(tmp_path_factory.mktemp("prometheus"), targets).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def receiver():
    with Receiver() as running:
        yield running


@pytest.fixture(scope="module")
def load(stack, gateway_b, receiver, prometheus):
    """Send the mixed load through both gateways and subscribe a webhook due within a minute;
    return the answers counted by (operation, status), the credits charged and the event's due time."""
    _, key = stack.new_key(credits=1_000_000, rate_per_minute=100_000)
    sent: Counter[tuple[str, str]] = Counter()
    charged = 0
    for base_url in (stack.base_url, gateway_b.base_url):
        with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
            for operation, _pool, path, count in LOAD:
                for _ in range(count):
                    answer = client.get(path)
                    assert answer.status_code == 200, answer.text
                    sent[operation, "200"] += 1
                    charged += answer.json()["meta"]["credits_used"]
            for _ in range(REFUSED[1]):
                assert client.get(REFUSED[0]).status_code == 400
                sent["positions", "400"] += 1
    (event,) = next_events(stack.base_url, key, SKY_BIRTH, ["lunation"], 1)
    _, due_s = subscribe(stack.base_url, key, receiver.url, event, ["lunation"], None)
    return sent, charged, due_s


def scraped(prometheus: PrometheusServer, expression: str, expected: float) -> float | None:
    """Return what ``expression`` answers once it answers ``expected`` (or what it last answered)."""
    found: list[float | None] = [None]

    def holds() -> bool:
        found[0] = prometheus.value(expression)
        return found[0] == expected

    try:
        prometheus.wait_until(holds, SCRAPED_WITHIN_S, expression)
    except TimeoutError:
        pass
    return found[0]


def test_prometheus_scrapes_every_process(prometheus, load):
    def all_up() -> bool:
        up = prometheus.targets_up()
        return len(up) == sum(len(t) for t in prometheus.targets.values()) and set(up.values()) == {1.0}

    prometheus.wait_until(all_up, SCRAPED_WITHIN_S, "every target up")
    jobs = {item["metric"]["job"] for item in prometheus.query("up")}
    assert jobs == {"gateway", *SERVICE_NAMES, "webhook-worker"}


def test_the_request_counts_equal_the_requests_sent(prometheus, load):
    sent, _, _ = load
    for (operation, status), count in sent.items():
        expression = f'sum(celestial_http_requests_total{{operation="{operation}",status="{status}"}})'
        assert scraped(prometheus, expression, count) == count, (operation, status)


def test_the_request_rate_is_seen_on_both_gateways(prometheus, load):
    sent, _, _ = load
    per_gateway = sent["positions", "200"] // 2
    for process in ("gateway", "gateway-b"):
        expression = f'sum(celestial_http_requests_total{{operation="positions",status="200",process="{process}"}})'
        assert scraped(prometheus, expression, per_gateway) == per_gateway
    rate = prometheus.value('sum(rate(celestial_http_requests_total{operation="positions"}[5m]))')
    assert rate is not None and rate > 0


def test_the_p99_by_operation_is_within_the_buckets_and_each_operation_timed_once_a_request(prometheus, load):
    sent, _, _ = load
    for operation, _pool, _path, _count in LOAD:
        timed = sum(count for (op, _status), count in sent.items() if op == operation)
        expression = f'sum(celestial_http_request_duration_seconds_count{{operation="{operation}"}})'
        assert scraped(prometheus, expression, timed) == timed, operation
    p99 = {item["metric"]["operation"]: item["value"] for item in prometheus.query(P99_BY_OPERATION)}
    for operation, *_ in LOAD:
        assert 0 < p99[operation] <= 60, operation
    assert p99["positions"] <= 1.0  # milliseconds each, on an idle machine well under a second


def test_each_pools_queue_wait_counts_the_calls_sent_to_it(prometheus, load):
    sent, _, _ = load
    for pool in SERVICE_NAMES:
        calls = sum(sent[operation, "200"] for operation, to, _path, _count in LOAD if to == pool)
        expression = f'sum(celestial_pool_queue_wait_seconds_count{{pool="{pool}"}})'
        assert scraped(prometheus, expression, calls) == calls, pool
        assert prometheus.value("celestial_pool_expected_wait_seconds", {"pool": pool}) is not None


def test_the_services_count_the_calls_the_gateways_sent(prometheus, load):
    sent, _, _ = load
    calls = sent["positions", "200"]
    expression = 'sum(celestial_rpc_requests_total{service="ephemeris",method="ComputePositions",code="OK"})'
    assert scraped(prometheus, expression, calls) == calls
    expression = 'sum(celestial_engine_duration_seconds_count{service="ephemeris",method="ComputePositions"})'
    assert scraped(prometheus, expression, calls) == calls


def test_the_credits_charged_equal_the_credits_the_answers_used(prometheus, load):
    _, charged, _ = load
    # The webhook's deliveries are the worker's charges, not a gateway's.
    expression = 'sum(celestial_credits_charged_total{job="gateway",key_mode="live"})'
    assert scraped(prometheus, expression, charged) == charged


def test_the_webhook_lag_is_the_delivery_behind_its_due_time(prometheus, load, receiver):
    _, _, due_s = load
    prometheus.wait_until(lambda: receiver.received, 120 + ON_TIME_S, "the webhook delivered")
    assert scraped(prometheus, 'sum(celestial_webhook_deliveries_total{outcome="delivered"})', 1) == 1
    assert scraped(prometheus, "sum(celestial_webhook_delivery_lag_seconds_count)", 1) == 1
    lag_s = prometheus.value("sum(celestial_webhook_delivery_lag_seconds_sum)")
    assert 0 <= lag_s <= ON_TIME_S
    assert prometheus.value("celestial_store_transaction_duration_seconds_count", {"store": "nats"}) is not None
