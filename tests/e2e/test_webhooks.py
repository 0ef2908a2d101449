"""Webhooks (issue 40, part 3) on real processes: a NATS server, two gateways, two webhook
workers (``python -m webhooks.worker``, asking the stack's search process for their forecasts
over gRPC) and a local receiver.

Subscriptions are made with a lead that puts their first event due within a minute or so:
the test reads the next events from /v1/forecast, and sets ``lead_minutes`` so that the
event's instant less the lead falls 20 to 80 s after the subscription is made. The workers
run with short timings (CELESTIAL_WEBHOOK_*: a tick of 1 s, a receiver timeout of 5 s, an
acknowledgement wait of 8 s, retries 0.5-1, 1-2, 2-4, 2-4 ... s apart (the backoff's jitter)
for 10 minutes), so "a receiver failing for an hour" is here a receiver failing for 20 s through several retries: the
same path (failures, backoff, recovery), at a scale a test can wait for.
"""

from __future__ import annotations

import asyncio
import math
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import nats as nats_client
import orjson
import pytest
from nats.js.errors import NotFoundError

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from deploy.webhook_receiver import Receiver
from kernel.forecast import KINDS
from shared.runtime.config import REPO_ROOT
from store.nats_store import DEFAULT_PREFIX
from webhooks.forecast_requests import sky_event as as_sky_event
from webhooks.signing import verify_signature

WORKER_ENV = {
    "CELESTIAL_WEBHOOK_TICK_S": "1",
    "CELESTIAL_WEBHOOK_TIMEOUT_S": "5",
    "CELESTIAL_WEBHOOK_ACK_WAIT_S": "8",
    "CELESTIAL_WEBHOOK_FIRST_RETRY_S": "1",
    "CELESTIAL_WEBHOOK_MAX_RETRY_S": "4",
    "CELESTIAL_WEBHOOK_RETRY_FOR_S": "600",
}
#: The spec's bound: a delivery arrives within 60 s of its due time.
ON_TIME_S = 60.0
LYON = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": 45.75, "lon": 4.85}
SKY_KINDS = ["ingress", "station", "lunation", "eclipse"]
SKY_BIRTH = {"jd": "2451545.0", "lat": "0", "lon": "0"}


class Worker:
    """One webhook worker process on the stack's store."""

    def __init__(self, stack: Stack, name: str):
        self.log_path = stack.log_path.with_name(f"{name}.log")
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "webhooks.worker"],
                cwd=REPO_ROOT,
                env={**stack.env, **WORKER_ENV, **stack.search_pool_environment()},
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(nats, module_real_stacks) -> Stack:
    # The supervisor's own workers are left out: the test starts, kills and restarts its own.
    env = {"CELESTIAL_NATS_URL": nats.url, "CELESTIAL_EPHEMERIS_PROCESSES": "1", "CELESTIAL_WEBHOOK_WORKERS": "0"}
    return module_real_stacks.real("webhooks-stack", env)


@pytest.fixture(scope="module")
def gateway_b(stack):
    extra = start_gateway(stack)
    yield extra
    extra.stop()


@pytest.fixture(scope="module")
def workers(stack):
    running = {"a": Worker(stack, "worker-a"), "b": Worker(stack, "worker-b")}
    yield running
    for worker in running.values():
        worker.stop()


@pytest.fixture(scope="module")
def receiver():
    # One receiver for the module: the subscriptions of one test go on delivering in the next.
    with Receiver() as running:
        yield running


@pytest.fixture(autouse=True)
def answering(receiver):
    """Each test starts with a receiver answering 200 at once."""
    receiver.status, receiver.delay_s, receiver.on_arrival = 200, 0.0, None


@pytest.fixture(scope="module")
def account(stack):
    """The subscribing account: it pays for its deliveries and nothing else."""
    return stack.new_key(credits=1000, rate_per_minute=100_000)


@pytest.fixture(scope="module")
def reader(stack):
    """The account whose key reads the forecasts the deliveries are compared with."""
    return stack.new_key(rate_per_minute=100_000)[1]


def call(base_url: str, key: str, method: str, path: str, **kwargs) -> httpx.Response:
    return httpx.request(method, base_url + path, headers={"Authorization": f"Bearer {key}"}, timeout=60, **kwargs)


def day_iso(day: datetime) -> str:
    return day.strftime("%Y-%m-%dT%H:%M:%SZ")


def forecast(base_url: str, key: str, birth: dict, kinds: list[str], start: datetime, end: datetime) -> list[dict]:
    params = {**birth, "kinds": ",".join(kinds), "start": day_iso(start), "end": day_iso(end)}
    response = call(base_url, key, "GET", "/v1/forecast", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]["events"]


def instant_s(event: dict) -> float:
    return datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")).timestamp()


def next_events(base_url: str, key: str, birth: dict, kinds: list[str], count: int, days: int = 8) -> list[dict]:
    """Return the next ``count`` events at least two minutes away (distinct instants)."""
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    after = time.time() + 120
    found, seen = [], set()
    for event in forecast(base_url, key, birth, kinds, today, today + timedelta(days=days)):
        if instant_s(event) >= after and event["instant"]["datetime"] not in seen:
            seen.add(event["instant"]["datetime"])
            found.append(event)
    assert len(found) >= count, f"only {len(found)} events ahead"
    return found[:count]


def subscribe(
    base_url: str, key: str, url: str, event: dict, kinds: list[str], chart: str | None
) -> tuple[dict, float]:
    """Subscribe with the lead that puts ``event`` due 20 to 80 s from now; return the
    subscription (with its secret) and the event's due instant."""
    lead = math.floor((instant_s(event) - time.time() - 20) / 60)
    assert 0 <= lead <= 10080, lead
    body = {"url": url, "events": kinds, "lead_minutes": lead, **({"chart": chart} if chart else {})}
    response = call(base_url, key, "POST", "/v1/webhooks", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"], instant_s(event) - 60 * lead


def wait_for(predicate, within_s: float, what: str) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    pytest.fail(f"not within {within_s} s: {what}")


def queued(nats: NatsServer, webhook_id: str, event_id: str) -> bool:
    """Return whether the NATS delivery queue (a work queue: a message leaves it when a worker
    acknowledges it) still holds the delivery of ``event_id`` to ``webhook_id``; while it does,
    a worker may send it again, once it has left none can."""

    async def look() -> bool:
        connection = await nats_client.connect(nats.url)
        try:
            jsm = connection.jsm()
            stream = f"{DEFAULT_PREFIX}_WEBHOOK_QUEUE"
            state = (await jsm.stream_info(stream)).state
            for sequence in range(state.first_seq, state.last_seq + 1):
                try:
                    job = orjson.loads((await jsm.get_msg(stream, sequence)).data)
                except NotFoundError:
                    continue  # acknowledged (and so removed) since the stream's state was read
                if (job.get("webhook_id"), job.get("event_id")) == (webhook_id, event_id):
                    return True
            return False
        finally:
            await connection.close()

    return asyncio.run(look())


def bodies(receiver: Receiver, webhook_id: str) -> list[tuple[dict, object]]:
    return [
        (orjson.loads(r.body), r) for r in list(receiver.received) if orjson.loads(r.body)["webhook_id"] == webhook_id
    ]


def the_days_event(base_url: str, key: str, birth: dict, kinds: list[str], event: dict) -> list[dict]:
    day = datetime.fromtimestamp(instant_s(event), UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return forecast(base_url, key, birth, kinds, day, day + timedelta(days=1))


@pytest.fixture(scope="module")
def chart(stack, account) -> str:
    """The subscribing account's stored chart: LYON."""
    _, key = account
    response = call(stack.base_url, key, "POST", "/v1/charts", json={"name": "Ada", **LYON})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def test_deliveries_arrive_on_time_verify_and_equal_the_forecasts_events(
    stack, gateway_b, workers, receiver, account, chart, reader
):
    _, key = account
    kinds = list(KINDS)
    made = []
    for index, event in enumerate(next_events(stack.base_url, reader, LYON, kinds, 3)):
        base = (stack.base_url, gateway_b.base_url)[index % 2]  # through either gateway
        made.append((*subscribe(base, key, receiver.url, event, kinds, chart), event, "chart"))
    (sky_event,) = next_events(stack.base_url, reader, SKY_BIRTH, SKY_KINDS, 1)
    made.append((*subscribe(gateway_b.base_url, key, receiver.url, sky_event, SKY_KINDS, None), sky_event, "sky"))
    latest_due = max(due for _, due, _, _ in made)
    wait_for(
        lambda: all(
            any(b["event"]["instant"] == e["instant"] for b, _ in bodies(receiver, w["id"])) for w, _, e, _ in made
        ),
        latest_due - time.time() + ON_TIME_S,
        "every subscription's first event",
    )
    for webhook, due, event, which in made:
        got = bodies(receiver, webhook["id"])
        (body, received), *_ = [(b, r) for b, r in got if b["event"]["instant"] == event["instant"]]
        assert verify_signature(received.body, received.headers, webhook["secret"], now_s=received.at_s)
        assert 0 <= received.at_s - due <= ON_TIME_S, (which, received.at_s - due)
        assert body["attempt"] == 1 and body["test"] is False
        if which == "chart":
            assert body["chart"] == chart and body["event"]["id"] == event["id"]
            # The stored chart is LYON: its events are those of LYON's own parameters, ids included.
            same_day = {e["id"]: e for e in the_days_event(stack.base_url, reader, LYON, webhook["events"], event)}
            assert body["event"] == same_day[event["id"]]
        else:
            assert body["chart"] is None and body["event"]["id"].startswith("sky_")
            same_day = the_days_event(stack.base_url, reader, SKY_BIRTH, SKY_KINDS, event)
            (match,) = [
                e for e in same_day if e["instant"] == body["event"]["instant"] and e["kind"] == body["event"]["kind"]
            ]
            # The forecast's event of the reference birth as a sky event: its own id, nothing of the birth.
            assert body["event"] == {**as_sky_event(match), "id": body["event"]["id"]}
            assert body["event"]["natal_house"] is None and body["event"]["point"] is None
    for webhook, *_ in made:
        # Every delivery (the first events and any that fell due since) verifies and was on time.
        for body, received in bodies(receiver, webhook["id"]):
            assert verify_signature(received.body, received.headers, webhook["secret"], now_s=received.at_s)
            deliveries = call(stack.base_url, key, "GET", f"/v1/webhooks/{webhook['id']}/deliveries").json()["data"][
                "deliveries"
            ]
            assert any(d["event_id"] == body["event"]["id"] and d["status"] == 200 for d in deliveries)


def test_a_worker_killed_mid_delivery_leaves_the_delivery_to_another(
    stack, nats, workers, receiver, account, chart, reader
):
    _, key = account
    workers["b"].stop()  # one worker left, so the test knows which one is delivering
    receiver.delay_s = 3.0
    killed = threading.Event()

    def kill_on_first_arrival(body: bytes) -> None:
        if not killed.is_set():
            killed.set()
            workers["a"].kill()
            workers["c"] = Worker(stack, "worker-c")

    receiver.on_arrival = kill_on_first_arrival
    (event,) = next_events(stack.base_url, reader, LYON, list(KINDS), 1)
    webhook, due = subscribe(stack.base_url, key, receiver.url, event, list(KINDS), chart)
    wait_for(
        lambda: any(d["status"] == 200 for d in deliveries_of(stack, key, webhook)),
        due - time.time() + 90,
        "the delivery",
    )
    # Once acknowledged, the delivery has left the queue: nothing more may come.
    wait_for(lambda: not queued(nats, webhook["id"], event["id"]), 60, "the delivery to be acknowledged")
    posts = [b for b, _ in bodies(receiver, webhook["id"]) if b["event"]["id"] == event["id"]]
    # The first POST's 2xx reached no worker (it was killed): it came again, from the new worker, once.
    assert [b["attempt"] for b in posts] == [1, 2]
    assert [d["status"] for d in deliveries_of(stack, key, webhook) if d["event_id"] == event["id"]] == [200]


def test_a_nats_restart_mid_delivery_loses_nothing_and_duplicates_nothing(
    stack, nats, workers, receiver, account, chart, reader
):
    _, key = account
    receiver.delay_s = 3.0
    restarted = threading.Event()

    def restart_on_first_arrival(body: bytes) -> None:
        if not restarted.is_set():
            restarted.set()
            nats.stop()
            nats.start()

    receiver.on_arrival = restart_on_first_arrival
    (event,) = next_events(stack.base_url, reader, LYON, list(KINDS), 1)
    webhook, due = subscribe(stack.base_url, key, receiver.url, event, list(KINDS), chart)
    wait_for(
        lambda: any(d["status"] == 200 for d in deliveries_of(stack, key, webhook)),
        due - time.time() + 120,
        "the delivery",
    )
    # Once acknowledged, the delivery has left the queue (kept on file through the restart).
    wait_for(lambda: not queued(nats, webhook["id"], event["id"]), 60, "the delivery to be acknowledged")
    assert restarted.is_set()
    posts = [b for b, _ in bodies(receiver, webhook["id"]) if b["event"]["id"] == event["id"]]
    assert len(posts) == 1  # its 2xx was seen, so it was never sent again


def test_a_failing_receiver_that_recovers_gets_every_event(stack, workers, receiver, account, chart, reader):
    _, key = account
    receiver.status = 500
    (event,) = next_events(stack.base_url, reader, LYON, list(KINDS), 1)
    webhook, due = subscribe(stack.base_url, key, receiver.url, event, list(KINDS), chart)
    wait_for(lambda: bodies(receiver, webhook["id"]), due - time.time() + ON_TIME_S, "the first attempt")
    # Failing all along: retried 0.5-1, 1-2, 2-4, 2-4 ... s apart; recovers after the fourth failure.
    wait_for(lambda: len(bodies(receiver, webhook["id"])) >= 4, 60, "four failed attempts")
    receiver.status = 200
    wait_for(
        lambda: any(d["status"] == 200 for d in deliveries_of(stack, key, webhook)), 30, "the delivery after recovery"
    )
    statuses = [r.answered for b, r in bodies(receiver, webhook["id"]) if b["event"]["id"] == event["id"]]
    assert len(statuses) >= 5 and set(statuses[:-1]) == {500} and statuses[-1] == 200
    read = call(stack.base_url, key, "GET", f"/v1/webhooks/{webhook['id']}").json()["data"]
    assert (read["state"], read["failing_since"]) == ("active", None)


def test_each_event_delivered_cost_one_credit_and_nothing_else_did(stack, receiver, account):
    _, key = account

    def settled() -> bool:
        # Every (subscription, event) the receiver answered 2xx, against the balance; read
        # until both agree (a delivery may be under way while they are read).
        delivered = {
            (orjson.loads(r.body)["webhook_id"], orjson.loads(r.body)["event"]["id"])
            for r in list(receiver.received)
            if r.answered == 200
        }
        answer = call(stack.base_url, key, "GET", "/v1/account")
        return answer.status_code == 200 and answer.json()["data"]["account"]["balance"] == 1000 - len(delivered)

    wait_for(settled, 30, "the balance to be 1000 less one credit per event delivered")


def deliveries_of(stack: Stack, key: str, webhook: dict) -> list[dict]:
    """Return the subscription's recent deliveries; none while the store cannot answer (503
    while NATS restarts)."""
    response = call(stack.base_url, key, "GET", f"/v1/webhooks/{webhook['id']}/deliveries")
    return response.json()["data"]["deliveries"] if response.status_code == 200 else []


def test_on_sqlite_the_supervisors_two_workers_deliver_each_event_once_through_one_scheduler(
    module_real_stacks, receiver
):
    # make run's own workers (the supervisor's process kind), two of them on one SQLite file:
    # one holds the scheduler's lease, so each event is sent once.
    sqlite = module_real_stacks.real(
        "webhooks-sqlite", {**WORKER_ENV, "CELESTIAL_WEBHOOK_WORKERS": "2", "CELESTIAL_EPHEMERIS_PROCESSES": "1"}
    )
    _, key = sqlite.new_key(credits=100, rate_per_minute=100_000)
    created = call(sqlite.base_url, key, "POST", "/v1/charts", json={"name": "Ada", **LYON}).json()["data"]["id"]
    events = next_events(sqlite.base_url, key, LYON, list(KINDS), 2)
    made = [subscribe(sqlite.base_url, key, receiver.url, event, list(KINDS), created) for event in events]
    wait_for(
        lambda: all(bodies(receiver, w["id"]) for w, _ in made),
        max(due for _, due in made) - time.time() + ON_TIME_S,
        "both deliveries",
    )
    # Recorded as delivered: the scheduler's marks keep either worker from sending them again.
    wait_for(
        lambda: all(any(d["status"] == 200 for d in deliveries_of(sqlite, key, w)) for w, _ in made),
        30,
        "both deliveries recorded",
    )
    for (webhook, due), event in zip(made, events):
        (body, received), *rest = [
            (b, r) for b, r in bodies(receiver, webhook["id"]) if b["event"]["id"] == event["id"]
        ]
        assert rest == [] and 0 <= received.at_s - due <= ON_TIME_S
        assert verify_signature(received.body, received.headers, webhook["secret"], now_s=received.at_s)
    assert len(children_running(sqlite.process.pid, "webhooks.worker")) == 2


def children_running(parent_pid: int, module: str) -> list[int]:
    """Return the pids of the processes ``parent_pid`` started that run ``python -m module``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == parent_pid and module.encode() in command:
            found.append(int(entry.name))
    return found
