"""No receiver delays another account's (issue 46, part 2), on real processes: a NATS server,
two gateways, two webhook workers, two search processes and two receivers on the loopback.

Account A subscribes 20 times to a receiver that drips its answer one byte a second (it would
hold a sender as long as it liked); account B subscribes 20 times to a healthy receiver; every
subscription is to the sky's events with the same lead, so all 40 first deliveries fall due at
the same moment. Each worker lets one account have ``CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY``
(4) attempts in flight: A's hold only A's slots, each cut at the 10 s deadline and recorded as
a failure, while B's deliveries go out at once.

The bound asserted on B's lateness is one of isolation, not of speed: a B delivery queued behind
A's would be at least one deadline (10 s) late; B's lag is printed, the issue's goal being a
p99 within 2 s.
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import httpx
import orjson
import pytest

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from deploy.webhook_receiver import Receiver
from shared.runtime.config import REPO_ROOT
from webhooks.signing import verify_signature

#: The product's deadline and account bound; a short tick so the due events are found at once.
WORKER_ENV = {
    "CELESTIAL_WEBHOOK_TICK_S": "1",
    "CELESTIAL_WEBHOOK_TIMEOUT_S": "10",
    "CELESTIAL_WEBHOOK_ACK_WAIT_S": "30",
    "CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY": "4",
    "CELESTIAL_WEBHOOK_FIRST_RETRY_S": "60",
}
SUBSCRIPTIONS_EACH = 20
SKY_KINDS = ["ingress", "station", "lunation", "eclipse"]
SKY_BIRTH = {"jd": "2451545.0", "lat": "0", "lon": "0"}
DEADLINE_S = 10.0
#: A delivery queued behind a dripping one would be at least a deadline late.
ISOLATED_S = DEADLINE_S / 2


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats-tenants"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(nats, module_real_stacks) -> Stack:
    env = {
        "CELESTIAL_NATS_URL": nats.url,
        "CELESTIAL_EPHEMERIS_PROCESSES": "1",
        "CELESTIAL_SEARCH_PROCESSES": "2",
        "CELESTIAL_WEBHOOK_WORKERS": "0",
    }
    return module_real_stacks.real("webhook-tenants", env)


@pytest.fixture(scope="module")
def gateway_b(stack):
    extra = start_gateway(stack)
    yield extra
    extra.stop()


@pytest.fixture(scope="module")
def workers(stack):
    env = {**stack.env, **stack.search_pool_environment(), **WORKER_ENV}
    running = []
    for name in ("tenant-worker-a", "tenant-worker-b"):
        with open(stack.log_path.with_name(f"{name}.log"), "ab") as log:
            running.append(
                subprocess.Popen(
                    [sys.executable, "-m", "webhooks.worker"],
                    cwd=REPO_ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
    yield running
    for process in running:
        process.terminate()
    for process in running:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def call(base_url: str, key: str, method: str, path: str, **kwargs) -> httpx.Response:
    return httpx.request(method, base_url + path, headers={"Authorization": f"Bearer {key}"}, timeout=60, **kwargs)


def instant_s(event: dict) -> float:
    return datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")).timestamp()


def next_sky_event(base_url: str, key: str, ahead_s: float) -> dict:
    """Return the sky's next event at least ``ahead_s`` seconds away."""
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    params = {
        **SKY_BIRTH,
        "kinds": ",".join(SKY_KINDS),
        "start": f"{today:%Y-%m-%dT%H:%M:%SZ}",
        "end": f"{today + timedelta(days=8):%Y-%m-%dT%H:%M:%SZ}",
    }
    answer = call(base_url, key, "GET", "/v1/forecast", params=params)
    assert answer.status_code == 200, answer.text
    return next(e for e in answer.json()["data"]["events"] if instant_s(e) >= time.time() + ahead_s)


def test_one_accounts_dripping_receivers_hold_only_its_own_slots(stack, gateway_b, workers):
    _, key_a = stack.new_key(credits=1000, rate_per_minute=100_000)
    _, key_b = stack.new_key(credits=1000, rate_per_minute=100_000)
    with Receiver() as dripping, Receiver() as healthy:
        dripping.drip_s = 1.0
        # The lead puts the event due 50 to 110 s from now: time to make 40 subscriptions.
        event = next_sky_event(stack.base_url, key_b, 170)
        lead = math.floor((instant_s(event) - time.time() - 50) / 60)
        due_s = instant_s(event) - 60 * lead
        made: dict[str, list[dict]] = {"a": [], "b": []}
        for index in range(SUBSCRIPTIONS_EACH):
            for who, key, receiver in (("a", key_a, dripping), ("b", key_b, healthy)):
                base = (stack.base_url, gateway_b.base_url)[index % 2]
                body = {"url": receiver.url, "events": SKY_KINDS, "lead_minutes": lead}
                answer = call(base, key, "POST", "/v1/webhooks", json=body)
                assert answer.status_code == 200, answer.text
                made[who].append(answer.json()["data"])
        assert time.time() < due_s, "the subscriptions took longer to make than the lead allowed"

        b_ids = {w["id"]: w for w in made["b"]}
        deadline = due_s + 60
        while time.time() < deadline and len(
            {orjson.loads(r.body)["webhook_id"] for r in list(healthy.received)}
        ) < len(b_ids):
            time.sleep(0.25)
        firsts: dict[str, float] = {}
        for received in list(healthy.received):
            body = orjson.loads(received.body)
            if (body["event"]["kind"], body["event"]["instant"]) == (event["kind"], event["instant"]) and body[
                "webhook_id"
            ] in b_ids:
                assert verify_signature(received.body, received.headers, b_ids[body["webhook_id"]]["secret"])
                firsts.setdefault(body["webhook_id"], received.at_s)
        lags = sorted(at - due_s for at in firsts.values())
        print(
            f"\nB's {len(lags)} deliveries: lag p50 {statistics.median(lags):.2f} s, p99 "
            f"{lags[math.ceil(0.99 * len(lags)) - 1]:.2f} s, max {lags[-1]:.2f} s; A's receiver got "
            f"{dripping.arrived} POSTs"
        )
        assert set(firsts) == set(b_ids), "every one of B's subscriptions got its event"
        assert lags[-1] < ISOLATED_S, lags

        # A's attempts: cut at the deadline, recorded as failures (a timeout), none a success.
        def a_recorded() -> list[dict]:
            found = []
            for webhook in made["a"]:
                answer = call(stack.base_url, key_a, "GET", f"/v1/webhooks/{webhook['id']}/deliveries")
                found += answer.json()["data"]["deliveries"]
            return found

        deadline = due_s + 2 * DEADLINE_S + 60
        while not (recorded := a_recorded()) and time.time() < deadline:
            time.sleep(0.25)
        assert recorded, "A's deliveries were attempted"
        assert all(d["status"] is None and d["error"] == "timeout" for d in recorded), recorded
        assert all(DEADLINE_S * 1000 * 0.95 <= d["response_ms"] <= DEADLINE_S * 1000 * 1.5 for d in recorded), recorded
