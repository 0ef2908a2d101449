"""deploy/webhook_receiver.py: the local receiver the webhook tests and ``make examples`` POST
deliveries to records each POST (path, headers with lower-case names, body) and answers the
status it is told to."""

from __future__ import annotations

import httpx
import pytest

from deploy.webhook_receiver import Receiver


def test_a_post_is_recorded_and_answered_with_the_status_it_is_told():
    with Receiver() as receiver:
        assert receiver.url == f"http://127.0.0.1:{receiver.port}/hook"
        first = httpx.post(receiver.url, content=b'{"a": 1}', headers={"Webhook-Id": "evt_1"})
        receiver.status = 503
        second = httpx.post(receiver.url + "?again", content=b"x")

    assert (first.status_code, second.status_code) == (200, 503)
    assert [(r.path, r.body, r.answered) for r in receiver.received] == [
        ("/hook", b'{"a": 1}', 200),
        ("/hook?again", b"x", 503),
    ]
    assert receiver.received[0].headers["webhook-id"] == "evt_1" and receiver.arrived == 2


def test_a_receiver_listens_on_the_port_it_is_given_and_a_taken_one_is_refused():
    with Receiver() as first:
        with pytest.raises(OSError):
            Receiver(port=first.port)
        with Receiver(port=0) as second:
            assert second.port != first.port and second.url == f"http://127.0.0.1:{second.port}/hook"
            assert httpx.post(first.url, content=b"").status_code == 200
    with Receiver(port=first.port) as again:  # free once the first has closed
        assert again.url == first.url and httpx.post(again.url, content=b"").status_code == 200
