"""webhooks/delivery.py: a delivery is a signed JSON POST; only a 2xx succeeds; a
redirect is not followed; no answer within the timeout, or no connection, is a failure with
its reason."""

from __future__ import annotations

import asyncio

import orjson

from deploy.local_stack import free_port_block
from tests.webhook_receiver import Receiver
from webhooks.delivery import delivery_body, send
from webhooks.signing import verify_signature

SECRET = "whsec_" + "ab" * 32


def test_the_body_holds_the_webhook_the_event_the_chart_the_attempt_and_whether_a_test():
    body = orjson.loads(delivery_body("wh_1", {"id": "fc_1"}, "chart_1", 3))
    assert body == {"webhook_id": "wh_1", "event": {"id": "fc_1"}, "chart": "chart_1", "attempt": 3, "test": False}


def test_a_delivery_is_a_signed_json_post_with_the_event_id_and_attempt():
    with Receiver() as receiver:
        body = delivery_body("wh_1", {"id": "fc_1"}, None, 2)
        outcome = asyncio.run(send(receiver.url, body, SECRET, "fc_1", 2, timeout_s=5))
        (got,) = receiver.received
    assert outcome.succeeded and outcome.status == 200 and outcome.response_ms >= 0
    assert got.body == body and got.headers["content-type"] == "application/json"
    assert (got.headers["webhook-id"], got.headers["celestial-attempt"]) == ("fc_1", "2")
    assert verify_signature(got.body, got.headers, SECRET)


def test_only_a_2xx_succeeds_and_a_redirect_is_not_followed():
    with Receiver() as receiver:
        for status in (204, 301, 404, 500):
            receiver.status = status
            outcome = asyncio.run(send(receiver.url, b"{}", SECRET, "fc_1", 1, timeout_s=5))
            assert (outcome.status, outcome.succeeded) == (status, status == 204)
        assert len(receiver.received) == 4


def test_no_answer_within_the_timeout_is_a_failure():
    with Receiver() as receiver:
        receiver.delay_s = 1.0
        outcome = asyncio.run(send(receiver.url, b"{}", SECRET, "fc_1", 1, timeout_s=0.3))
    assert (outcome.status, outcome.error, outcome.succeeded) == (None, "timeout", False)


def test_no_connection_is_a_failure_with_its_reason():
    outcome = asyncio.run(send(f"http://127.0.0.1:{free_port_block(1)}/h", b"{}", SECRET, "fc_1", 1, timeout_s=2))
    assert outcome.status is None and "ConnectionRefused" in outcome.error
