"""Every status an operation can answer is documented, and only those (issue 49, part 3):
each operation of /v1/openapi.json is driven in process through every refusal the gateway
has for a request of its kind, and the statuses it answered are the statuses its
``responses`` list (besides 200).

The refusals driven for every operation: no key (401), a parameter it does not take (400),
a browser-only key without an Origin (403), a body over 1 MiB (413, a method with a body),
a key over its rate (429), an account without credits (402, a paid operation), a stored chart
or a resource's id naming nothing (404), an ``Idempotency-Key`` sent with another request
(422) and while its first request runs (409), and, from the services, a bug (500), a service
of an older release (501), a full or down service (503) and a missed deadline (504). The
refusals an account operation declares in ``account_service.proto`` beyond these (its
account full, a subscription ended, no upcoming event) are driven by their own tests
(tests/api/test_stored_charts_api.py, tests/api/test_webhooks_api.py) and counted here as
declared.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from typing import Any

import httpx
import pytest

from gateway.endpoints import account_operations, discover_endpoints
from gateway.reference.examples import load_examples
from gateway.reference.openapi import build_openapi
from gateway.reference.operation_text import PASTES, RESOURCE_PASTES
from shared.errors import DeadlineExceeded, InternalError, ServiceUnavailable
from store.errors import StoreUnavailable
from tests.api.in_process_pool import InProcessPool, in_process_pools

DOCUMENT = build_openapi(discover_endpoints(), version="test")
OPERATIONS = [
    (path, method)
    for path, item in DOCUMENT["paths"].items()
    for method in item
    if method in ("get", "post", "patch", "delete")
]
MIB = 1024 * 1024


class FaultPool(InProcessPool):
    """A service pool that computes as its service does, or fails as :attr:`fault` says:
    an error to raise, ``"unbuilt"`` (an older release), or ``"hold"`` (a call that waits
    for :attr:`released`)."""

    def __init__(self, pool: InProcessPool):
        super().__init__(pool.name, pool._handlers)
        self.fault: Any = None
        self.held = threading.Event()
        self.released = threading.Event()

    async def call(self, method_path, request, response_cls, *, timeout_s, request_id):
        if isinstance(self.fault, Exception):
            raise self.fault
        if self.fault == "hold":
            self.held.set()
            while not self.released.is_set():
                await asyncio.sleep(0.01)
        return await super().call(method_path, request, response_cls, timeout_s=timeout_s, request_id=request_id)

    async def implements(self, method_path: str) -> bool:
        return self.fault != "unbuilt" and await super().implements(method_path)


@pytest.fixture(scope="module")
def fault_pools() -> dict[str, FaultPool]:
    return {name: FaultPool(pool) for name, pool in in_process_pools().items()}


@pytest.fixture(scope="module")
def faults(module_stacks, fault_pools):
    return module_stacks.in_process("faults", pools=fault_pools)


def documented(path: str, method: str) -> set[int]:
    """Return the refusals an operation's ``responses`` list."""
    return {int(status) for status in DOCUMENT["paths"][path][method]["responses"] if int(status) >= 400}


def valid_request(path: str, method: str) -> tuple[str, dict[str, Any]]:
    """Return the URL path and the parameters of a request the operation serves."""
    if (path, method) in RESOURCE_PASTES:
        return RESOURCE_PASTES[path, method]
    examples = load_examples()
    if path in examples:
        return path, dict(examples[path].request)
    return path, dict(PASTES[path])


def send(client: httpx.Client, method: str, url: str, params: dict[str, Any], **headers: str) -> httpx.Response:
    """Return the answer to ``params`` sent as the query string (GET, DELETE) or the JSON body."""
    if method in ("get", "delete"):
        return client.request(method.upper(), url, params=params, headers=headers)
    return client.request(method.upper(), url, json=params, headers=headers)


def is_compute(path: str) -> bool:
    """Return whether ``path`` is a computation's (served by a service's pool)."""
    return path in PASTES


def with_unknown(params: dict[str, Any]) -> dict[str, Any]:
    """Return ``params`` with one parameter no operation takes."""
    return {**params, "zz_not_a_parameter": "1"}


class Driver:
    """Drives one operation through every refusal of its kind; :attr:`answered` collects the
    refusals it answered (a refusal that does not apply to it answers 2xx or another's)."""

    def __init__(self, stack, faults, fault_pools, path: str, method: str):
        self.stack, self.faults, self.fault_pools = stack, faults, fault_pools
        self.path, self.method = path, method
        self.url, self.params = valid_request(path, method)
        self.answered: set[int] = set()

    def note(self, response: httpx.Response) -> httpx.Response:
        if response.status_code >= 400:
            self.answered.add(response.status_code)
        return response

    def key(self, stack=None, *args: str, **limits) -> str:
        stack = stack or self.stack
        if args:
            name, _ = stack.new_key(**limits)
            return stack.admin("key", "create", "--account", name, *args).stdout.strip()
        return stack.new_key(**limits)[1]

    def drive(self) -> set[int]:
        stack, method, url, params = self.stack, self.method, self.url, self.params
        with stack.client() as anonymous:
            self.note(send(anonymous, method, url, params))
        with stack.client(self.key()) as client:
            self.note(send(client, method, url, with_unknown(params)))
            self.note(client.request(method.upper(), url, params={"zz_not_a_parameter": "1"}))
            if method in ("post", "patch"):
                self.note(
                    client.request(
                        method.upper(),
                        url,
                        content=b'{"a": "' + b"x" * MIB + b'"}',
                        headers={"Content-Type": "application/json"},
                    )
                )
            charts = {name for name in parameter_names(self.path, method) if re.fullmatch(r"chart(_[ab])?", name)}
            if is_compute(self.path) and charts:
                # The birth's parameters left out: the stored chart stands in for them.
                self.note(send(client, method, url, dict.fromkeys(charts, "chart_" + "0" * 21)))
        with stack.client(self.key(None, "--browser-only")) as browser:
            self.note(send(browser, method, url, params))
        with stack.client(self.key(rate_per_minute=1)) as limited:
            self.note(send(limited, method, url, with_unknown(params)))
            self.note(send(limited, method, url, with_unknown(params)))
        with stack.client(self.key(credits=0)) as broke:
            self.note(send(broke, method, url, params))
        if "Idempotency-Key" in parameter_names(self.path, method):
            self.idempotency()
        if is_compute(self.path):
            self.service_faults()
        self.store_down()
        return self.answered

    def store_down(self) -> None:
        """503: the store out of reach when the key is looked up (a key not cached yet)."""
        store = self.faults.app.state.gateway.store
        key = self.key(self.faults)

        async def unreachable(*args, **kwargs):
            raise StoreUnavailable("down")

        store.find_key_by_hash = unreachable
        try:
            with self.faults.client(key) as client:
                self.note(send(client, self.method, self.url, self.params))
        finally:
            del store.find_key_by_hash

    def idempotency(self) -> None:
        """422: the key sent first with another request (another path); 409: sent again while
        the first request runs (a paid operation's call held in its service)."""
        with self.stack.client(self.key()) as client:
            send(client, "get", "/v1/delta-t", {"jd": "2451545"}, **{"Idempotency-Key": "k-422"})
            self.note(send(client, self.method, self.url, self.params, **{"Idempotency-Key": "k-422"}))
        if not is_compute(self.path):
            return
        pools = self.fault_pools.values()
        for pool in pools:
            pool.held.clear()
            pool.released.clear()
            pool.fault = "hold"
        with self.faults.client(self.key(self.faults)) as client:
            first = threading.Thread(
                target=send, args=(client, self.method, self.url, self.params), kwargs={"Idempotency-Key": "k-409"}
            )
            first.start()
            try:
                assert wait_for(lambda: any(pool.held.is_set() for pool in pools))
                self.note(send(client, self.method, self.url, self.params, **{"Idempotency-Key": "k-409"}))
            finally:
                for pool in pools:
                    pool.released.set()
                first.join()
                for pool in pools:
                    pool.fault = None

    def service_faults(self) -> None:
        """500, 501, 503, 504: the services failing as a bug, an older release, full or down,
        past the deadline."""
        faults = (InternalError("a bug"), "unbuilt", ServiceUnavailable("full"), DeadlineExceeded("late"))
        with self.faults.client(self.key(self.faults)) as client:
            for fault in faults:
                for pool in self.fault_pools.values():
                    pool.fault = fault
                try:
                    self.note(send(client, self.method, self.url, self.params))
                finally:
                    for pool in self.fault_pools.values():
                        pool.fault = None


def wait_for(condition, timeout_s: float = 30.0) -> bool:
    """Return whether ``condition()`` became true within ``timeout_s`` (polled)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def parameter_names(path: str, method: str) -> set[str]:
    """Return the names of an operation's parameters: query, path, header and body members."""
    operation = DOCUMENT["paths"][path][method]
    names = {parameter["name"] for parameter in operation.get("parameters", ())}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    return names | set(body.get("properties", {}))


def declared_elsewhere(path: str, method: str) -> set[int]:
    """Return the statuses an account operation declares in account_service.proto beyond the
    refusals this module drives (their own tests drive them)."""
    for endpoint in account_operations():
        if endpoint.path == path and endpoint.http.gateway.method.lower() == method:
            return {refusal.status for refusal in endpoint.http.gateway.refusals} - {400, 404, 413}
    return set()


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_an_operation_documents_every_status_it_answers_and_no_other(stack, faults, fault_pools, path, method):
    answered = Driver(stack, faults, fault_pools, path, method).drive()
    answered |= declared_elsewhere(path, method)
    listed = documented(path, method)
    assert answered == listed, f"undocumented {sorted(answered - listed)}, never answered {sorted(listed - answered)}"
