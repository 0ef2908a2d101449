"""Two gateways on one NATS JetStream store, over real HTTP: propagation, shared credits and
limits, and faults (the NATS server stopped and restarted under traffic).

The stack's own nats-server runs on a free loopback port with its own storage directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import nats as nats_client
import pytest
from nats.js.errors import NotFoundError

from deploy.local_stack import Stack, free_port_block, start_gateway
from deploy.nats_server import NatsServer
from shared.runtime.config import REPO_ROOT
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


# --- a gateway killed mid-request ----------------------------------------------------------------

#: The issue's bound (48): a killed gateway's in-flight charges are refunded within this many
#: seconds of its death, by the survivors watching its heartbeat (store/nats_heartbeats.py).
REFUNDED_WITHIN_S = 15.0
IN_FLIGHT_BATCHES = 30
#: How long a retry may be refused 409 in progress: the dead gateway's claims hold their key
#: for a batch's lease (the longest deadline, a scan's 60 s, plus 10 s).
CLAIMS_LAPSE_WITHIN_S = 120.0


def _balance_and_slots(nats_url: str, account_id: str) -> tuple[int, dict]:
    """Return the account's balance and its limiter entry's slots, read from NATS with a plain
    client (the stack's prefix is the default, CELESTIAL)."""

    async def read() -> tuple[int, dict]:
        nc = await nats_client.connect(nats_url)
        try:
            js = nc.jetstream()
            last = await js.get_last_msg("CELESTIAL_LEDGER", f"celestial.ledger.{account_id}")
            try:
                slots = json.loads((await (await js.key_value("CELESTIAL_LIMITS")).get(account_id)).value)["slots"]
            except NotFoundError:  # no admission yet
                slots = {}
            return json.loads(last.data)["balance_after"], slots
        finally:
            await nc.close()

    return asyncio.run(read())


def _ledger_entries(nats_url: str, account_id: str) -> list[dict]:
    """Return the account's ledger entries in order, read from NATS with a plain client."""

    async def read() -> list[dict]:
        nc = await nats_client.connect(nats_url)
        try:
            js = nc.jetstream()
            entries, seq = [], 0
            while True:
                try:
                    message = await js.get_msg(
                        "CELESTIAL_LEDGER", seq=seq + 1, subject=f"celestial.ledger.{account_id}", next=True
                    )
                except NotFoundError:
                    return entries
                entries.append(json.loads(message.data))
                seq = message.seq
        finally:
            await nc.close()

    return asyncio.run(read())


@contextlib.contextmanager
def own_ephemeris_process(stack: Stack) -> Iterator[tuple[subprocess.Popen, int]]:
    """Yield an ephemeris service process started apart from the stack's supervisor (which
    would replace it once frozen) and its port; stop it afterwards."""
    port = free_port_block(1)
    with open(stack.log_path.with_name(f"ephemeris-{port}.log"), "wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "services.ephemeris.server", "--port", str(port)],
            cwd=REPO_ROOT,
            env=stack.env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process, port
    finally:
        os.kill(process.pid, signal.SIGCONT)
        process.kill()
        process.wait()


def test_a_killed_gateways_in_flight_batches_are_refunded_within_15_s_and_each_retry_charged_once(
    stack_a, gateway_b, nats
):
    opening = 1_000_000
    name, key, _ = new_account(stack_a, opening, rate_per_minute=1_000_000, max_concurrent=1000)
    account_id = account_json(stack_a, name)["id"]
    batches = {
        f"dead-{os.urandom(4).hex()}-{n}": {
            "requests": [
                {"endpoint": POSITIONS, "params": {"datetime": f"20{n:02d}-03-{1 + i:02d}T12:00:00Z", "bodies": "all"}}
                for i in range(5)
            ]
        }
        for n in range(IN_FLIGHT_BATCHES)
    }

    def send(url: str, idempotency_key: str) -> httpx.Response:
        return httpx.post(
            url + "/v1/batch",
            json=batches[idempotency_key],
            headers={"Authorization": f"Bearer {key}", "Idempotency-Key": idempotency_key},
            timeout=120,
        )

    # The doomed gateway's ephemeris process is frozen while its batches run, so all 30 are
    # in flight, charged and unanswered, when the gateway is killed (its keepalive pings,
    # which would drop the frozen process, are put off past the test, and its calls wait for
    # their turn instead of being refused). Its first calls find out whether the process
    # implements them: unanswered, they go on after a second, as they would.
    with own_ephemeris_process(stack_a) as (ephemeris, port), ThreadPoolExecutor(IN_FLIGHT_BATCHES) as pool:
        doomed = start_gateway(
            stack_a,
            {
                "CELESTIAL_EPHEMERIS_ADDRESSES": f"127.0.0.1:{port}",
                "CELESTIAL_SERVICE_KEEPALIVE_S": "600",
                # Its calls wait their turn rather than being refused at once (the turn waits
                # at most 6 s, a tenth of the deadline; a batch's claim lasts 70 s anyway).
                "CELESTIAL_FAST_DEADLINE_S": "60",
                "CELESTIAL_QUEUE_WAIT_S": "60",
            },
        )
        try:
            os.kill(ephemeris.pid, signal.SIGSTOP)
            sent = [pool.submit(send, doomed.base_url, idempotency_key) for idempotency_key in batches]

            def all_in_flight_and_charged() -> bool:
                slots = _balance_and_slots(nats.url, account_id)[1]
                return len(slots) == IN_FLIGHT_BATCHES and all(charges for _, charges, *_ in slots.values())

            eventually(all_in_flight_and_charged, 60)
            doomed.process.kill()  # SIGKILL: it refunds nothing, releases nothing
            doomed.process.wait()
            taken = opening - _balance_and_slots(nats.url, account_id)[0]
            assert taken >= IN_FLIGHT_BATCHES
            # Within 15 s of the kill, long before the slots' 120 s lease ends.
            eventually(lambda: _balance_and_slots(nats.url, account_id) == (opening, {}), REFUNDED_WITHIN_S)
            assert all(future.exception() is not None for future in sent)  # none was answered
        finally:
            if doomed.process.poll() is None:
                doomed.stop()

    # Each batch retried under its key through the surviving gateway: once the dead claims
    # lapse, computed and charged once.
    deadline = time.monotonic() + CLAIMS_LAPSE_WITHIN_S
    charged = 0
    for idempotency_key in batches:
        while (retried := send(gateway_b.base_url, idempotency_key)).status_code == 409:
            assert retried.json()["errors"][0]["code"] == "idempotency_key_in_progress", retried.text
            assert time.monotonic() < deadline, "the dead gateway's claims never lapsed"
            time.sleep(int(retried.headers["retry-after"]))  # as the answer asks
        assert retried.status_code == 200 and "idempotent-replayed" not in retried.headers, retried.text
        charged += retried.json()["meta"]["credits_used"]
        replay = send(gateway_b.base_url, idempotency_key)
        assert replay.headers["idempotent-replayed"] == "true" and replay.content == retried.content
    assert charged > 0 and _balance_and_slots(nats.url, account_id) == (opening - charged, {})
    entries = [entry for entry in _ledger_entries(nats.url, account_id) if entry["kind"] in ("debit", "refund")]
    refunds = [entry["request_id"] for entry in entries if entry["kind"] == "refund"]
    assert len(refunds) == len(set(refunds))  # no charge refunded twice
    assert sum(entry["credits"] * (1 if entry["kind"] == "debit" else -1) for entry in entries) == charged


def test_forty_chart_creations_at_once_through_two_gateways_under_a_cap_of_ten_make_exactly_ten(stack_a):
    cap, creations = 10, 40
    _, key, _ = new_account(stack_a, 100, rate_per_minute=1000, max_concurrent=100)
    capped = [start_gateway(stack_a, {"CELESTIAL_CHARTS_PER_ACCOUNT": str(cap)}) for _ in range(2)]
    try:
        auth = {"Authorization": f"Bearer {key}"}
        birth = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}

        def create(n: int) -> httpx.Response:
            url = capped[n % 2].base_url + "/v1/charts"
            return httpx.post(url, json={"name": f"Ada {n}", **birth}, headers=auth, timeout=60)

        with ThreadPoolExecutor(max_workers=creations) as pool:
            answers = list(pool.map(create, range(creations)))
        made = [answer for answer in answers if answer.status_code == 200]
        refused = [answer for answer in answers if answer.status_code == 409]
        assert (len(made), len(refused)) == (cap, creations - cap), [a.text for a in answers]
        for answer in refused:
            assert_error(answer, 409, "chart_limit_reached")
        listed = httpx.get(capped[0].base_url + "/v1/charts", params={"limit": 100}, headers=auth, timeout=60)
        assert len(listed.json()["data"]["charts"]) == cap, listed.text
    finally:
        for gateway in capped:
            gateway.stop()


def test_forty_webhook_subscriptions_at_once_through_two_gateways_under_a_cap_of_ten_make_exactly_ten(stack_a):
    cap, creations = 10, 40
    _, key, _ = new_account(stack_a, 100, rate_per_minute=1000, max_concurrent=100)
    capped = [start_gateway(stack_a, {"CELESTIAL_WEBHOOKS_PER_ACCOUNT": str(cap)}) for _ in range(2)]
    try:
        auth = {"Authorization": f"Bearer {key}"}

        def create(n: int) -> httpx.Response:
            body = {"url": f"http://127.0.0.1:9/hook/{n}", "events": ["ingress"]}
            return httpx.post(capped[n % 2].base_url + "/v1/webhooks", json=body, headers=auth, timeout=60)

        with ThreadPoolExecutor(max_workers=creations) as pool:
            answers = list(pool.map(create, range(creations)))
        made = [answer for answer in answers if answer.status_code == 200]
        refused = [answer for answer in answers if answer.status_code == 409]
        assert (len(made), len(refused)) == (cap, creations - cap), [a.text for a in answers]
        for answer in refused:
            assert_error(answer, 409, "webhook_limit_reached")
        listed = httpx.get(capped[1].base_url + "/v1/webhooks", headers=auth, timeout=60)
        assert len(listed.json()["data"]["webhooks"]) == cap, listed.text
    finally:
        for gateway in capped:
            gateway.stop()
