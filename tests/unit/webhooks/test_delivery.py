"""webhooks/delivery.py: a delivery is a signed JSON POST to an address checked at the attempt;
only a 2xx succeeds; a redirect is not followed; the whole attempt has one deadline; at most
4 KB of an answer is read; a failure's reason is a neutral phrase, never a socket's text."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest

from deploy.local_stack import free_port_block
from deploy.webhook_receiver import Receiver
from webhooks.delivery import delivery_body, error_of, open_stream, send
from webhooks.signing import verify_signature

SECRET = "whsec_" + "ab" * 32


def post(url: str, timeout_s: float = 5.0, **options):
    return asyncio.run(
        send(url, b"{}", SECRET, "fc_1", 1, timeout_s, development=options.pop("development", True), **options)
    )


def loopback_for(name: str):
    """Return a resolver answering 127.0.0.1 for ``name`` (and nothing else), and the names asked."""
    asked: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["127.0.0.1"] if host == name else []

    return resolve, asked


def test_the_body_holds_the_webhook_the_event_the_chart_the_attempt_and_whether_a_test():
    body = orjson.loads(delivery_body("wh_1", {"id": "fc_1"}, "chart_1", 3))
    assert body == {"webhook_id": "wh_1", "event": {"id": "fc_1"}, "chart": "chart_1", "attempt": 3, "test": False}


def test_a_delivery_is_a_signed_json_post_with_the_event_id_and_attempt():
    with Receiver() as receiver:
        body = delivery_body("wh_1", {"id": "fc_1"}, None, 2)
        outcome = asyncio.run(send(receiver.url + "?k=v", body, SECRET, "fc_1", 2, timeout_s=5, development=True))
        (got,) = receiver.received
    assert outcome.succeeded and outcome.status == 200 and outcome.response_ms >= 0
    assert got.body == body and got.headers["content-type"] == "application/json" and got.path == "/hook?k=v"
    assert (got.headers["webhook-id"], got.headers["celestial-attempt"]) == ("fc_1", "2")
    assert got.headers["connection"] == "close" and got.headers["content-length"] == str(len(body))
    assert verify_signature(got.body, got.headers, SECRET)


def test_only_a_2xx_succeeds():
    with Receiver() as receiver:
        for status in (204, 404, 500):
            receiver.status = status
            outcome = post(receiver.url)
            assert (outcome.status, outcome.succeeded) == (status, status == 204)
        assert len(receiver.received) == 3


def test_a_redirect_is_a_failure_and_is_not_followed():
    with Receiver() as receiver:
        receiver.status = 301
        outcome = post(receiver.url)
        assert (outcome.status, outcome.succeeded, receiver.arrived) == (301, False, 1)


def test_a_receiver_dripping_its_answer_is_cut_at_the_deadline_and_the_attempt_fails():
    with Receiver() as receiver:
        receiver.drip_s = 0.5
        started = time.monotonic()
        outcome = post(receiver.url, timeout_s=2)
        elapsed_s = time.monotonic() - started
    assert (outcome.status, outcome.error, outcome.succeeded) == (None, "timeout", False)
    assert elapsed_s < 4  # the deadline held: a bound of correctness, not a performance goal


def test_no_answer_within_the_deadline_is_a_failure():
    with Receiver() as receiver:
        receiver.delay_s = 1.0
        outcome = post(receiver.url, timeout_s=0.3)
    assert (outcome.status, outcome.error, outcome.succeeded) == (None, "timeout", False)


def test_an_answer_with_an_endless_body_succeeds_once_4_kb_of_it_are_read():
    with Receiver() as receiver:
        receiver.endless_body = True
        outcome = post(receiver.url, timeout_s=5)
    assert (outcome.status, outcome.succeeded) == (200, True)


def test_a_refused_connection_is_a_failure_with_a_neutral_reason():
    outcome = post(f"http://127.0.0.1:{free_port_block(1)}/h", timeout_s=2)
    assert (outcome.status, outcome.error) == (None, "connection refused")


def test_a_socket_error_is_recorded_as_a_phrase_that_names_no_address():
    error = OSError(113, "No route to host: 10.0.0.7:443")
    assert error_of(error) == "host unreachable"
    assert error_of(OSError(99, "Cannot assign requested address 10.1.2.3")) == "connection failed"


def test_a_destination_the_egress_refuses_is_never_connected_to_and_names_the_rule():
    connected: list[str] = []

    async def connect(address, port, tls, server_hostname):
        connected.append(address)
        raise AssertionError("connected")

    outcome = post("http://127.0.0.1:9/h", development=False, connect=connect)
    assert outcome.status is None and outcome.error.startswith("egress refused: ") and connected == []


def test_the_delivery_connects_to_the_address_the_resolver_gave_with_the_urls_host(tmp_path):
    # A name (not the loopback's own) is taken over https only, even in development mode.
    certificates = pytest.importorskip("tests.tls_certificates", reason="cryptography is not installed")
    issued = certificates.issued(tmp_path, ("hooks.example",))
    resolve, asked = loopback_for("hooks.example")

    async def trusting_the_test_authority(address, port, tls, server_hostname):
        return await open_stream(address, port, issued.client(), server_hostname)

    with Receiver(tls=issued.server) as receiver:
        outcome = post(
            f"https://hooks.example:{receiver.port}/hook", resolve=resolve, connect=trusting_the_test_authority
        )
        (got,) = receiver.received
    assert outcome.succeeded and asked == ["hooks.example"]
    assert got.headers["host"] == f"hooks.example:{receiver.port}"


def test_the_name_is_resolved_again_at_every_attempt_and_never_by_the_connector(tmp_path):
    certificates = pytest.importorskip("tests.tls_certificates", reason="cryptography is not installed")
    issued = certificates.issued(tmp_path, ("hooks.example",))
    resolve, asked = loopback_for("hooks.example")
    dialled: list[tuple[str, int]] = []

    async def connect(address, port, tls, server_hostname):
        dialled.append((address, port))
        return await open_stream(address, port, issued.client(), server_hostname)

    with Receiver(tls=issued.server) as receiver:
        for _ in range(2):
            assert post(f"https://hooks.example:{receiver.port}/hook", resolve=resolve, connect=connect).succeeded
    assert asked == ["hooks.example"] * 2 and dialled == [("127.0.0.1", receiver.port)] * 2


def test_a_receiver_whose_certificate_no_authority_signed_is_refused(tmp_path):
    certificates = pytest.importorskip("tests.tls_certificates", reason="cryptography is not installed")
    with Receiver(tls=certificates.self_signed(tmp_path)) as receiver:
        outcome = post(receiver.url)
        assert receiver.arrived == 0
    assert (outcome.status, outcome.error) == (None, "tls: certificate verify failed")


def test_https_verifies_the_certificate_against_the_urls_host_name(tmp_path):
    certificates = pytest.importorskip("tests.tls_certificates", reason="cryptography is not installed")
    issued = certificates.issued(tmp_path, ("hooks.example",))
    resolve, _asked = loopback_for("hooks.example")
    asked_names: list[str | None] = []

    async def trusting_the_test_authority(address, port, tls, server_hostname):
        asked_names.append(server_hostname)
        return await open_stream(address, port, issued.client(), server_hostname)

    with Receiver(tls=issued.server) as receiver:
        url = f"https://hooks.example:{receiver.port}/hook"
        outcome = post(url, resolve=resolve, connect=trusting_the_test_authority)
        (got,) = receiver.received
    assert (
        outcome.succeeded
        and asked_names == ["hooks.example"]
        and got.headers["host"] == f"hooks.example:{receiver.port}"
    )


class NoThreads(ThreadPoolExecutor):
    def submit(self, *args, **kwargs):
        raise AssertionError("a delivery used a thread")


def test_no_thread_is_used_for_a_delivery():
    async def delivered(url: str):
        asyncio.get_running_loop().set_default_executor(NoThreads())
        return await send(url, b"{}", SECRET, "fc_1", 1, 5.0, development=True)

    with Receiver() as receiver:
        assert asyncio.run(delivered(receiver.url)).succeeded
