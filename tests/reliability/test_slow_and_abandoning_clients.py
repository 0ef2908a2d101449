"""What a slow, hostile or impatient client can do to a real gateway process (uvicorn).

A gateway process (``python -m gateway.main``) runs with short HTTP timeouts in front of the
test-only slow service (``tests/service/slow_service.py``: ComputeDeltaT is a 60 s scan that
checks its deadline; one worker, a queue of one). Requests are real sockets.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from deploy.local_stack import _terminate, free_port_block
from shared.runtime.config import REPO_ROOT, load_settings
from tests.in_process_admin import run_admin
from tests.service.slow_service import LONGEST_SCAN_S
from tests.service.test_runtime import start_process

HEADER_TIMEOUT_S = 2.0
BODY_TIMEOUT_S = 3.0
MAX_CONNECTIONS = 12
POSITIONS = "/v1/positions?jd=2451545.0"


@dataclass
class Gateway:
    base_url: str
    port: int
    env: dict[str, str]

    def new_key(self, credits: int, max_concurrent: int = 50) -> tuple[str, str]:
        settings = load_settings(self.env)
        name = f"acct-{os.urandom(6).hex()}"
        run_admin(
            ["account", "create", name, "--credits", str(credits), "--max-concurrent", str(max_concurrent)], settings
        ).check_returncode()
        return name, run_admin(["key", "create", "--account", name], settings).stdout.strip()

    def balance(self, name: str) -> int:
        return json.loads(run_admin(["account", "show", name, "--json"], load_settings(self.env)).stdout)["balance"]

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=15)


@pytest.fixture(scope="module")
def gateway(processes, tmp_path_factory) -> Iterator[Gateway]:
    tmp = tmp_path_factory.mktemp("slow-clients")
    service, address = start_process(1, tmp / "service.log")
    port = free_port_block(1)
    unused = f"127.0.0.1:{free_port_block(1)}"
    env = {
        **os.environ,
        "CELESTIAL_HTTP_PORT": str(port),
        "CELESTIAL_DATA_DIR": str(tmp / "data"),
        "CELESTIAL_EPHEMERIS_ADDRESSES": address,
        "CELESTIAL_TIMELORDS_ADDRESSES": unused,
        "CELESTIAL_SEARCH_ADDRESSES": unused,
        "CELESTIAL_ASTROCARTOGRAPHY_ADDRESSES": unused,
        "CELESTIAL_HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        "CELESTIAL_HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
        "CELESTIAL_HTTP_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        # The slow service takes one call at a time; the gateway sends it no more than that.
        "CELESTIAL_SERVICE_QUEUE": "1",
    }
    env.pop("CELESTIAL_NATS_URL", None)
    with open(tmp / "gateway.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gateway.main"], cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base_url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and process.poll() is None, (tmp / "gateway.log").read_text()
            time.sleep(0.1)
        yield Gateway(base_url, port, env)
    finally:
        _terminate(process)
        _terminate(service)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], dict]:
    """Return (status, headers, JSON body) of the one answer the server writes before closing."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body)


def assert_error_answer(answer: tuple[int, dict[str, str], dict], status: int, code: str) -> None:
    got_status, headers, body = answer
    assert got_status == status, body
    error = body["errors"][0]
    assert error["code"] == code and error["message"] and error["suggestion"]
    assert headers["x-request-id"] == body["meta"]["request_id"]


def test_a_body_that_trickles_holds_no_concurrency_slot(gateway):
    _name, key = gateway.new_key(credits=100, max_concurrent=2)
    trickling = []
    for _ in range(2):
        sock = gateway.connect()
        sock.sendall(
            b"POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer " + key.encode() + b'\r\nContent-Length: 1000\r\n\r\n{"requests":'
        )
        trickling.append(sock)
    time.sleep(0.3)  # both have sent their headers and are inside the app, reading
    response = httpx.get(gateway.base_url + POSITIONS, headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert response.status_code == 200, response.text
    for sock in trickling:
        assert_error_answer(read_answer(sock), 408, "request_timeout")
        sock.close()


def test_headers_that_do_not_arrive_in_time_are_408_with_the_error_body(gateway):
    with gateway.connect() as sock:
        sock.sendall(b"GET /v1/positions?jd=2451545.0 HTTP/1.1\r\nHost: x\r\n")
        answer = read_answer(sock)
    assert_error_answer(answer, 408, "request_timeout")
    # The gateway's own header timeout refused it, not some other limit.
    assert f"within {HEADER_TIMEOUT_S:g} seconds" in answer[2]["errors"][0]["message"]


def test_a_connection_that_never_sends_a_request_is_closed_after_the_header_timeout(gateway):
    with gateway.connect() as sock:
        assert_error_answer(read_answer(sock), 408, "request_timeout")


def test_an_over_long_url_is_414_with_the_error_body(gateway):
    with gateway.connect() as sock:
        sock.sendall(b"GET /v1/positions?bodies=" + b"sun," * 30_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert_error_answer(read_answer(sock), 414, "uri_too_long")


@pytest.mark.parametrize("length", [b"abc", b"-1", b"10, 20"], ids=["letters", "negative", "two-values"])
def test_a_malformed_content_length_is_400_invalid_request_with_the_error_body(gateway, length):
    with gateway.connect() as sock:
        sock.sendall(b"POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + b"\r\n\r\n{}")
        assert_error_answer(read_answer(sock), 400, "invalid_request")


def test_connections_beyond_the_bound_are_answered_503_and_closed(gateway):
    held = [gateway.connect() for _ in range(MAX_CONNECTIONS)]
    try:
        # Let the server accept them all before the one too many.
        time.sleep(0.3)
        with gateway.connect() as extra:
            status, headers, body = read_answer(extra)
        assert (status, body["errors"][0]["code"]) == (503, "service_unavailable")
        assert headers["retry-after"] == "1"
    finally:
        for sock in held:
            sock.close()


def test_an_abandoned_request_is_refunded_and_its_computation_stopped(gateway):
    name, key = gateway.new_key(credits=10)
    headers = {"Authorization": f"Bearer {key}"}
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(gateway.base_url + "/v1/delta-t", params={"jd": 2451545.0}, headers=headers, timeout=0.5)
    deadline = time.monotonic() + 10
    while gateway.balance(name) != 10:
        assert time.monotonic() < deadline, "the abandoned request was not refunded"
        time.sleep(0.1)
    # The service has one worker and a queue of one: had the scan gone on, this request would
    # wait behind it past this timeout (half the scan), or be refused; answered, it proves the
    # scan was stopped.
    response = httpx.get(gateway.base_url + POSITIONS, headers=headers, timeout=LONGEST_SCAN_S / 2)
    assert response.status_code == 200, response.text
    assert gateway.balance(name) == 9


def test_an_abandoned_batch_costs_nothing_even_for_its_finished_subrequests(gateway):
    name, key = gateway.new_key(credits=10)
    headers = {"Authorization": f"Bearer {key}"}
    positions = {"endpoint": "/v1/positions", "params": {"jd": 2451545.0}}
    scan = {"endpoint": "/v1/delta-t", "params": {"jd": 2451545.0}}  # the slow service's 60 s scan
    # The service takes one call at a time, in about the order the batch lists them: the
    # positions finish (and are charged) while the scan runs; the client gives up before the
    # batch can be answered.
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(
            gateway.base_url + "/v1/batch", json={"requests": [positions] * 6 + [scan]}, headers=headers, timeout=1.5
        )
    deadline = time.monotonic() + 10
    while gateway.balance(name) != 10:
        assert time.monotonic() < deadline, f"the abandoned batch kept {10 - gateway.balance(name)} credits"
        time.sleep(0.1)
    answered = httpx.post(
        gateway.base_url + "/v1/batch",
        json={"requests": [positions, positions]},
        headers=headers,
        timeout=LONGEST_SCAN_S / 2,
    )
    assert answered.status_code == 200 and answered.json()["meta"]["credits_used"] == 2
    assert gateway.balance(name) == 8
