"""The rule "idempotency keys are scoped by account and mode" (issue 48, part 1;
docs/idempotency.md), written once over any stack so that it is proven on each store: SQLite
(``tests/api/test_idempotency_modes_api.py``) and NATS JetStream
(``tests/nats/test_idempotency_modes_nats.py``), and through two gateways on real processes
(``tests/e2e/test_idempotency_retries.py``).

A test key and a live key of one account send the same request under the same
``Idempotency-Key``, in either order: each is computed once in its own mode (neither hears the
other's answer), the live one is charged once, and a retry of each replays its own answer.
"""

from __future__ import annotations

import json
import os

import httpx

POSITIONS = "/v1/positions"
MOMENT = {"datetime": "2024-03-20T12:00:00Z", "bodies": "sun,moon"}
BATCH = {"requests": [{"endpoint": "/v1/aspects", "params": {"datetime": "2024-03-20T12:00:00Z"}}] * 2}
#: The two shapes of a paid request a key covers.
SHAPES = ("single", "batch")
#: The two orders of the modes' first requests.
ORDERS = (("test", "live"), ("live", "test"))


def _send(client: httpx.Client, shape: str, key: str) -> httpx.Response:
    headers = {"Idempotency-Key": key}
    if shape == "single":
        return client.get(POSITIONS, params=MOMENT, headers=headers)
    return client.post("/v1/batch", json=BATCH, headers=headers)


def _balance(stack, name: str) -> int:
    return json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"]


def _client(stack, key: str, base_url: str | None) -> httpx.Client:
    """Return a client sending ``key`` to ``base_url`` (a gateway of the stack), or the stack's own."""
    if base_url is None:
        return stack.client(key)
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60)


def check_modes_apart(stack, shape: str, order: tuple[str, str], base_urls: tuple[str, str] | None = None) -> None:
    """Send ``shape`` under one key with a test key and a live key of one account, the modes in
    ``order``, then each again; assert each mode computed its own answer once, only the live
    one was charged (once), and each retry replayed its own mode's answer. With ``base_urls``
    (two gateways on one store) the first mode's requests go through the first gateway and the
    second's through the other."""
    urls = dict(zip(order, base_urls or (None, None), strict=True))
    name = f"modes-{os.urandom(5).hex()}"
    stack.admin("account", "create", name, "--credits", "100", "--rate-per-minute", "300", "--max-concurrent", "50")
    keys = {
        "live": stack.admin("key", "create", "--account", name).stdout.strip(),
        "test": stack.admin("key", "create", "--account", name, "--test").stdout.strip(),
    }
    idempotency_key = f"modes-{shape}-{order[0]}-first"
    firsts: dict[str, httpx.Response] = {}
    for mode in order:
        with _client(stack, keys[mode], urls[mode]) as client:
            firsts[mode] = _send(client, shape, idempotency_key)
        assert firsts[mode].status_code == 200, firsts[mode].text
        assert "idempotent-replayed" not in firsts[mode].headers, f"the {mode} key heard the other mode's answer"
    live_meta, test_meta = firsts["live"].json()["meta"], firsts["test"].json()["meta"]
    assert test_meta["mode"] == "test" and test_meta["credits_used"] == 0
    assert "mode" not in live_meta and live_meta["credits_used"] > 0
    charged = _balance(stack, name)
    assert charged == 100 - live_meta["credits_used"]
    for mode in order:
        with _client(stack, keys[mode], urls[mode]) as client:
            again = _send(client, shape, idempotency_key)
        assert again.headers.get("idempotent-replayed") == "true", (mode, again.text)
        assert again.content == firsts[mode].content
    assert _balance(stack, name) == charged
