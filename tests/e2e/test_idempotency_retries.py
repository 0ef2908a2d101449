"""Idempotency-Key on real processes (issue 39, part 1, its proof): two gateways on one store,
SQLite (one file) and NATS JetStream, and 1,000 retries of 100 paid requests fired at random
moments through either gateway, half of the requests first sent by a client that gives up
before the answer. Each store must end with one charge per distinct key, every answer to a
key byte-identical to its first (status, body, X-Request-Id), a key reused for another
request refused 422 ``idempotency_key_reuse``, and every retry that came while its first
request ran refused 409 ``idempotency_key_in_progress`` with Retry-After. And (issue 48) a
test key's answer never replays to a live key through the other gateway, nor the reverse.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from deploy.local_stack import start_gateway
from deploy.nats_server import NatsServer
from tests.api.modes_apart import ORDERS, SHAPES, check_modes_apart

POSITIONS = "/v1/positions"
REQUESTS = 100
RETRIES_PER_REQUEST = 10  # 1,000 attempts in all, the first of each included
#: Each attempt is sent at a random moment this many seconds after its request's first.
SPREAD_S = 0.4
#: The client that gives up waits this long (seconds) for an answer: less than a request takes.
GIVE_UP_AFTER_S = 0.002
THREADS = 24


@pytest.fixture(scope="module", params=["sqlite", "nats"])
def gateways(request, module_real_stacks, tmp_path_factory):
    """Two gateways on one store of each kind: [(base url), (base url)] and the stack."""
    env = {"CELESTIAL_EPHEMERIS_PROCESSES": "1"}
    server = None
    if request.param == "nats":
        server = NatsServer(tmp_path_factory.mktemp("nats"))
        server.start()
        env["CELESTIAL_NATS_URL"] = server.url
    stack = module_real_stacks.real(f"idempotency-{request.param}", env)
    second = start_gateway(stack)
    try:
        yield stack, [stack.base_url, second.base_url]
    finally:
        second.stop()
        if server is not None:
            request.addfinalizer(server.stop)  # after the stack, which module_real_stacks stops


def _balance(stack, name: str) -> int:
    return json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"]


def _moment(index: int) -> str:
    return (datetime(2000, 1, 1, tzinfo=UTC) + timedelta(days=37 * index)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_retries_through_two_gateways_charge_once_per_key_and_replay_the_first_answer(gateways):
    stack, urls = gateways
    opening = 1_000_000
    name, key = stack.new_key(credits=opening, rate_per_minute=1_000_000, max_concurrent=1000)
    auth = {"Authorization": f"Bearer {key}"}
    run = os.urandom(4).hex()
    generator = random.Random(39)
    answers: dict[int, list[httpx.Response]] = defaultdict(list)
    in_progress: list[httpx.Response] = []
    unexpected: list[tuple[int, str]] = []
    gave_up = [0]
    lock = threading.Lock()

    def attempt(index: int, delay_s: float, url: str, give_up: bool) -> None:
        time.sleep(delay_s)
        headers = {**auth, "Idempotency-Key": f"{run}-request-{index}"}
        params = {"datetime": _moment(index), "bodies": "sun"}
        try:
            response = httpx.get(
                url + POSITIONS, params=params, headers=headers, timeout=GIVE_UP_AFTER_S if give_up else 60
            )
        except httpx.TimeoutException:
            with lock:
                gave_up[0] += 1
            return
        with lock:
            if response.status_code == 200:
                answers[index].append(response)
            elif response.status_code == 409 and response.json()["errors"][0]["code"] == "idempotency_key_in_progress":
                in_progress.append(response)
            else:
                unexpected.append((response.status_code, response.text))

    plan = []
    for index in range(REQUESTS):
        give_up_first = index % 2 == 0
        for turn in range(RETRIES_PER_REQUEST):
            delay_s = 0.0 if turn == 0 else generator.uniform(0, SPREAD_S)
            plan.append(
                (index + generator.random(), index, delay_s, generator.choice(urls), give_up_first and turn == 0)
            )
    plan.sort()  # requests in order, each one's attempts at their random moments
    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(lambda step: attempt(*step[1:]), plan))
    # A request all of whose attempts were turned away (given up, or while another ran) is
    # asked once more until it answers: the proof needs every key's answer.
    for index in range(REQUESTS):
        while not answers[index]:
            time.sleep(0.1)
            attempt(index, 0.0, urls[index % 2], False)

    assert unexpected == []
    assert gave_up[0] >= 1, "some clients gave up before their answer"
    cost = answers[0][0].json()["meta"]["credits_used"]
    assert cost > 0
    # One charge per distinct key: the balance settles once every refund of an abandoned
    # first attempt is in (they run as the gateway sees the client gone).
    deadline = time.monotonic() + 10
    while _balance(stack, name) != opening - REQUESTS * cost and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _balance(stack, name) == opening - REQUESTS * cost
    for responses in answers.values():
        first = responses[0]
        for again in responses[1:]:
            assert (again.status_code, again.content) == (first.status_code, first.content)
            assert again.headers["x-request-id"] == first.headers["x-request-id"]
            assert again.headers["content-type"] == first.headers["content-type"]
        # Exactly one of a key's answers was computed; the others say they are replays.
        assert sum("idempotent-replayed" not in response.headers for response in responses) <= 1
    for refused in in_progress:
        assert refused.headers["retry-after"] == "1"
    print(
        f"\n{stack.env.get('CELESTIAL_NATS_URL') and 'nats' or 'sqlite'}: {len(plan)} attempts, "
        f"{sum(len(r) for r in answers.values())} answered 200, {len(in_progress)} 409 in progress, {gave_up[0]} "
        "given up"
    )

    # The same key with another request, through either gateway: 422 reuse, and nothing charged.
    before = _balance(stack, name)
    for index in range(10):
        other = httpx.get(
            urls[index % 2] + POSITIONS,
            params={"datetime": _moment(index), "bodies": "moon"},
            headers={**auth, "Idempotency-Key": f"{run}-request-{index}"},
            timeout=60,
        )
        assert other.status_code == 422 and other.json()["errors"][0]["code"] == "idempotency_key_reuse", other.text
    assert _balance(stack, name) == before


def test_a_retry_through_the_other_gateway_while_the_first_runs_is_409_in_progress(gateways):
    """Of one key's requests that overlap, through two gateways, exactly one is computed and the
    others are 409 in progress (or, once it is done, its replay). Which of them reaches the store
    first is the threads' race: the one sent first may lose it to a retry sent just after (the
    retry is then the one computed), so the rule is held whichever wins."""
    stack, urls = gateways
    name, key = stack.new_key(credits=1_000_000, rate_per_minute=1_000_000, max_concurrent=1000)
    auth = {"Authorization": f"Bearer {key}", "Idempotency-Key": "slow-" + os.urandom(4).hex()}
    # A batch of 50 positions of every body at 50 moments: long enough for the other gateway's
    # retry to find it running.
    batch = {
        "requests": [{"endpoint": POSITIONS, "params": {"datetime": _moment(i), "bodies": "all"}} for i in range(50)]
    }

    def send(url: str) -> httpx.Response:
        return httpx.post(url + "/v1/batch", json=batch, headers=auth, timeout=60)

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(send, urls[0])
        retries = []
        while not first.done():
            retries.append(send(urls[1]))
        overlapping = [first.result(), *retries]
    computed = [r for r in overlapping if r.status_code == 200 and "idempotent-replayed" not in r.headers]
    assert len(computed) == 1, [(r.status_code, r.text[:200]) for r in overlapping]
    (answer,) = computed
    refused = [r for r in overlapping if r.status_code == 409]
    assert refused, "a request came while another of its key ran"
    for response in refused:
        assert response.json()["errors"][0]["code"] == "idempotency_key_in_progress"
        assert response.headers["retry-after"] == "1"
    for response in overlapping:
        assert response.status_code in (200, 409), response.text
        if response.status_code == 200:
            assert response.content == answer.content
    replay = send(urls[1])
    assert replay.content == answer.content and replay.headers["idempotent-replayed"] == "true"
    assert _balance(stack, name) == 1_000_000 - answer.json()["meta"]["credits_used"]


@pytest.mark.parametrize("order", ORDERS, ids=["test-then-live", "live-then-test"])
@pytest.mark.parametrize("shape", SHAPES)
def test_a_key_is_kept_apart_per_mode_through_the_other_gateway(gateways, shape, order):
    stack, urls = gateways
    check_modes_apart(stack, shape, order, (urls[0], urls[1]))
