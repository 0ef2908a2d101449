"""gateway/dashboard/outbox.py: the development outbox opens only in development mode, to a
run of `make run` that gave the gateway its token, from loopback, with that token; and the
links of a message become pieces of their own (the page makes them clickable)."""

from __future__ import annotations

from starlette.requests import Request

from gateway.dashboard.outbox import linked_parts, outbox_open_to
from shared.runtime.config import load_settings

TOKEN = "s3cret-outbox-token"
DEVELOPMENT = load_settings({"CELESTIAL_DEV_OUTBOX_TOKEN": TOKEN})


def _request(token: str | None = TOKEN, client: str = "127.0.0.1") -> Request:
    return Request(
        {
            "type": "http",
            "method": "GET",
            "path": "/dashboard/outbox",
            "headers": [],
            "client": (client, 50000),
            "query_string": f"token={token}".encode() if token is not None else b"",
        }
    )


def test_the_operator_on_loopback_with_the_token_may_read_the_outbox():
    assert outbox_open_to(DEVELOPMENT, _request())
    assert outbox_open_to(DEVELOPMENT, _request(client="::1"))


def test_production_mode_closes_the_outbox_even_with_the_token():
    production = load_settings({"CELESTIAL_MODE": "production", "CELESTIAL_DEV_OUTBOX_TOKEN": TOKEN})
    assert not outbox_open_to(production, _request())


def test_a_gateway_given_no_token_has_no_outbox():
    assert not outbox_open_to(load_settings({}), _request(token=""))


def test_a_request_without_the_token_or_with_another_is_refused():
    assert not outbox_open_to(DEVELOPMENT, _request(token=None))
    assert not outbox_open_to(DEVELOPMENT, _request(token="guess"))


def test_a_request_from_another_machine_is_refused_even_with_the_token():
    assert not outbox_open_to(DEVELOPMENT, _request(client="192.0.2.7"))


def test_each_address_in_a_text_is_a_link_piece_and_the_rest_plain_text():
    text = "Follow this link:\n\nhttp://127.0.0.1:8080/dashboard/invite?token=own_a.b&welcome=1\n\nThanks."
    assert linked_parts(text) == [
        ("Follow this link:\n\n", False),
        ("http://127.0.0.1:8080/dashboard/invite?token=own_a.b&welcome=1", True),
        ("\n\nThanks.", False),
    ]
