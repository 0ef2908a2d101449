"""Regression (issue 23, money 1): an answer nobody reads costs nothing. A client seen gone as
its computation finishes is gone: the gateway answers ClientGone (logged 499) and gives the
charge back, instead of counting an answer as delivered that no client will read."""

from __future__ import annotations

import asyncio

import pytest

from gateway.paid_requests import until_disconnected
from shared.errors import ClientGone


class _GoneRequest:
    """A Starlette request whose client has already disconnected."""

    async def receive(self) -> dict:
        return {"type": "http.disconnect"}


class _StayingRequest:
    """A Starlette request whose client waits for its answer."""

    async def receive(self) -> dict:
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}


async def _answer() -> dict:
    return {"data": "computed"}


def test_an_answer_finished_as_its_client_left_is_client_gone_not_delivered():
    with pytest.raises(ClientGone):
        asyncio.run(until_disconnected(_GoneRequest(), _answer()))


def test_an_answer_whose_client_stays_is_returned():
    assert asyncio.run(until_disconnected(_StayingRequest(), _answer())) == {"data": "computed"}


def test_a_paid_answer_nobody_reads_is_refunded(module_stacks, monkeypatch):
    """The request is computed and charged, then its client is seen gone (as until_disconnected
    reports when both happen at once): the charge goes back."""
    import gateway.paid_batches as paid_batches
    import gateway.paid_requests as paid_requests
    from tests.api.test_conventions_api import balance

    async def computed_then_gone(request, work):
        await work
        raise ClientGone("The client closed the connection before the answer was sent.")

    stack = module_stacks.in_process("abandoned-answers")
    name, key = stack.new_key(credits=10)
    monkeypatch.setattr(paid_requests, "until_disconnected", computed_then_gone)
    monkeypatch.setattr(paid_batches, "until_disconnected", computed_then_gone)
    with stack.client(key) as client:
        assert client.get("/v1/positions", params={"jd": 2451545.0}).status_code == 499
        batch = {"requests": [{"endpoint": "/v1/positions", "params": {"jd": 2451545.0}}] * 3}
        assert client.post("/v1/batch", json=batch).status_code == 499
    assert balance(stack, name) == 10
