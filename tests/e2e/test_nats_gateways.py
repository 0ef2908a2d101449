"""Two gateways on one NATS JetStream store, over real HTTP: propagation, shared credits and
limits, and faults (the NATS server stopped and restarted under traffic).

The stack's own nats-server runs on a free loopback port with its own storage directory.
"""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from tests.api.test_conventions_api import assert_error

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"}
ADMIN_TOKEN = "adm-" + os.urandom(16).hex()
#: How long a gateway trusts a key record it read: far longer than the module runs, so a change
#: made through one gateway reaches the other only by the store's change feed.
KEY_CACHE_S = 3600
#: How long a test waits for a change to reach the other gateway before it fails.
PROPAGATION_WAIT_S = 30.0


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack_a(nats, module_real_stacks) -> Stack:
    env = {
        "CELESTIAL_NATS_URL": nats.url,
        "CELESTIAL_ADMIN_TOKEN": ADMIN_TOKEN,
        "CELESTIAL_EPHEMERIS_PROCESSES": "1",
        "CELESTIAL_KEY_CACHE_S": str(KEY_CACHE_S),
    }
    return module_real_stacks.real("nats-stack", env)


@pytest.fixture(scope="module")
def gateway_b(stack_a):
    extra = start_gateway(stack_a)
    yield extra
    extra.stop()


def new_account(stack: Stack, credits: int, **limits: int) -> tuple[str, str, str]:
    """Return (account name, key, key id) of a fresh account in the NATS store."""
    name = f"acct-{os.urandom(5).hex()}"
    args = ["account", "create", name, "--credits", str(credits)]
    for option, value in limits.items():
        args += [f"--{option.replace('_', '-')}", str(value)]
    stack.admin(*args)
    key = stack.admin("key", "create", "--account", name).stdout.strip()
    (record,) = json.loads(stack.admin("key", "list", "--account", name, "--json").stdout)
    return name, key, record["key_id"]


def account_json(stack: Stack, name: str) -> dict:
    return json.loads(stack.admin("account", "show", name, "--json").stdout)


def usage_json(stack: Stack, name: str) -> dict:
    return json.loads(stack.admin("usage", name, "--json").stdout)


def get(base_url: str, key: str, **headers: str) -> httpx.Response:
    return httpx.get(
        base_url + POSITIONS, params=MOMENT, headers={"Authorization": f"Bearer {key}", **headers}, timeout=30
    )


def admin_post(base_url: str, path: str, payload: dict | None = None) -> httpx.Response:
    return httpx.post(
        f"{base_url}/admin/v1{path}", json=payload or {}, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=30
    )


def eventually(predicate, within_s: float) -> None:
    """Return once ``predicate()`` holds, polling every 20 ms; fail after ``within_s`` seconds."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    pytest.fail(f"not within {within_s} s")


# --- propagation -------------------------------------------------------------------------------


def test_a_key_revoked_through_one_gateway_is_refused_by_the_other_while_its_record_is_cached(stack_a, gateway_b):
    _, key, key_id = new_account(stack_a, 100)
    assert get(gateway_b.base_url, key).status_code == 200  # B now holds the record in its cache
    assert admin_post(stack_a.base_url, f"/keys/{key_id}/revoke").status_code == 200
    eventually(lambda: get(gateway_b.base_url, key).status_code == 401, PROPAGATION_WAIT_S)
    assert_error(get(gateway_b.base_url, key), 401, "invalid_api_key")


def test_an_origin_update_through_one_gateway_applies_on_the_other_while_its_record_is_cached(stack_a, gateway_b):
    _, key, key_id = new_account(stack_a, 100)
    origin = {"Origin": "https://app.example"}
    assert get(gateway_b.base_url, key, **origin).status_code == 200
    response = httpx.put(
        f"{stack_a.base_url}/admin/v1/keys/{key_id}/origins",
        json={"allowed_origins": ["https://other.example"]},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
    )
    assert response.status_code == 200, response.text
    eventually(lambda: get(gateway_b.base_url, key, **origin).status_code == 403, PROPAGATION_WAIT_S)
    assert_error(get(gateway_b.base_url, key, **origin), 403, "origin_not_allowed")
    assert get(gateway_b.base_url, key, Origin="https://other.example").status_code == 200


# --- credits and limits across replicas ------------------------------------------------------


def test_a_chart_stored_through_one_gateway_is_named_and_deleted_through_the_other(stack_a, gateway_b):
    _, key, _ = new_account(stack_a, 100)
    auth = {"Authorization": f"Bearer {key}"}
    birth = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}
    stored = httpx.post(stack_a.base_url + "/v1/charts", json={"name": "Ada", **birth}, headers=auth, timeout=30)
    assert stored.status_code == 200, stored.text
    chart = stored.json()["data"]["id"]
    by_id = httpx.get(gateway_b.base_url + "/v1/natal-chart", params={"chart": chart}, headers=auth, timeout=30)
    by_birth = httpx.get(stack_a.base_url + "/v1/natal-chart", params=birth, headers=auth, timeout=30)
    assert by_id.status_code == 200, by_id.text
    assert by_id.json()["data"] == by_birth.json()["data"]
    assert (
        httpx.delete(f"{gateway_b.base_url}/v1/charts/{chart}", headers=auth, timeout=30).json()["data"]["deleted"]
        is True
    )
    gone = httpx.get(stack_a.base_url + "/v1/natal-chart", params={"chart": chart}, headers=auth, timeout=30)
    assert_error(gone, 404, "chart_not_found", "chart")


def test_concurrent_requests_on_two_gateways_spend_exactly_the_balance(stack_a, gateway_b):
    covered, sent = 12, 40
    name, key, _ = new_account(stack_a, covered)
    urls = [stack_a.base_url, gateway_b.base_url] * (sent // 2)
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda url: get(url, key), urls))
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) == covered, [answer.text for answer in answers if answer.status_code not in (200, 402)]
    assert statuses.count(402) == sent - covered, [
        answer.text for answer in answers if answer.status_code not in (200, 402)
    ]
    assert account_json(stack_a, name)["balance"] == 0
    usage = usage_json(stack_a, name)
    assert usage["credits_debited"] - usage["credits_refunded"] == covered


def test_the_rate_limit_holds_across_gateways(stack_a, gateway_b):
    _, key, _ = new_account(stack_a, 100, rate_per_minute=6)
    left = 60 - time.time() % 60
    if left < 8:
        time.sleep(left + 0.2)
    statuses = [get(url, key).status_code for url in [stack_a.base_url, gateway_b.base_url] * 5]
    assert statuses.count(200) == 6
    assert statuses.count(429) == 4


# --- faults ------------------------------------------------------------------------------------


def test_with_nats_down_requests_are_503_with_retry_after_and_cost_nothing(stack_a, gateway_b, nats):
    name, key, _ = new_account(stack_a, 50)
    assert get(stack_a.base_url, key).status_code == 200
    nats.stop()
    try:
        for url in (stack_a.base_url, gateway_b.base_url):
            response = get(url, key)
            assert_error(response, 503, "service_unavailable")
            assert int(response.headers["retry-after"]) >= 1
    finally:
        nats.start()
    eventually(lambda: get(stack_a.base_url, key).status_code == 200, 30)
    assert account_json(stack_a, name)["balance"] == 48


def test_readiness_says_the_store_is_unavailable_while_nats_is_down(stack_a, nats):
    assert httpx.get(f"{stack_a.base_url}/readyz").json()["store"] == "ready"
    nats.stop()
    try:
        response = httpx.get(f"{stack_a.base_url}/readyz", timeout=10)
        assert response.status_code == 503
        assert response.json()["status"] == "unavailable" and response.json()["store"] == "unavailable"
    finally:
        nats.start()
    eventually(lambda: httpx.get(f"{stack_a.base_url}/readyz").status_code == 200, 30)


def test_after_a_nats_restart_under_traffic_balances_and_ledger_agree(stack_a, gateway_b, nats):
    opening = 100_000
    name, key, _ = new_account(stack_a, opening, rate_per_minute=1_000_000, max_concurrent=1000)
    stop = threading.Event()
    outcomes: list[int] = []

    def traffic(url: str) -> None:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
            while not stop.is_set():
                try:
                    outcomes.append(client.get(POSITIONS, params=MOMENT).status_code)
                except httpx.HTTPError:
                    outcomes.append(-1)

    workers = [threading.Thread(target=traffic, args=(url,)) for url in (stack_a.base_url, gateway_b.base_url) * 2]
    for worker in workers:
        worker.start()
    try:
        eventually(lambda: outcomes.count(200) >= 4, 30)  # traffic flows through both gateways
        nats.stop()
        stopped_at = len(outcomes)
        eventually(lambda: 503 in outcomes[stopped_at:], 30)  # the gateways saw the store gone
        nats.start()

        # Both gateways serve again without being restarted.
        def both_serve() -> bool:
            probes = [get(url, key).status_code for url in (stack_a.base_url, gateway_b.base_url)]
            outcomes.extend(probes)
            return probes == [200, 200]

        eventually(both_serve, 30)
        served_at = len(outcomes)
        eventually(lambda: outcomes[served_at:].count(200) >= 4, 30)  # traffic flows again
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    assert outcomes.count(200) > 0 and outcomes.count(503) > 0
    assert set(outcomes) <= {200, 503}, sorted(set(outcomes))
    # Once the deferred refunds have landed the balance is the opening less what was answered;
    # then the three views of the same money agree.
    charged = outcomes.count(200)
    eventually(lambda: opening - account_json(stack_a, name)["balance"] == charged, 30)
    usage = usage_json(stack_a, name)
    assert usage["credits_debited"] - usage["credits_refunded"] == charged
