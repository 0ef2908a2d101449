"""A request sent from a thread of its own, for the tests that act on the stack while it runs."""

from __future__ import annotations

import threading

import httpx

from deploy.local_stack import Stack


def get_in_background(stack: Stack, key: str, path: str, params: dict) -> tuple[threading.Thread, list[httpx.Response]]:
    """Return the started thread sending ``GET path?params`` with ``key``, and the list its
    answer goes to once it has come."""
    answered: list[httpx.Response] = []

    def send() -> None:
        with stack.client(key) as client:
            answered.append(client.get(path, params=params))

    sending = threading.Thread(target=send)
    sending.start()
    return sending, answered
