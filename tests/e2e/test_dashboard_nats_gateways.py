"""The dashboard on the NATS store behind two gateways, over real HTTP: an owner signs in on one
gateway and acts on the other; keys, revocations, sign-outs and lock-outs hold on both."""

from __future__ import annotations

import os
import re
import time

import httpx
import pytest

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from gateway.dashboard.sign_in import EMAIL_MAX_FAILURES, LOCKED_OUT
from tests.dashboard_client import DashboardClient

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
PASSWORD = "correct horse battery staple orbit"
#: How long a change may take to reach the other gateway before the test fails.
PROPAGATION_WAIT_S = 30.0


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats-dashboard"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack_a(nats, module_real_stacks) -> Stack:
    # A long key cache: a revocation reaches the other gateway only through the store's feed.
    env = {"CELESTIAL_NATS_URL": nats.url, "CELESTIAL_EPHEMERIS_PROCESSES": "1", "CELESTIAL_KEY_CACHE_S": "3600"}
    return module_real_stacks.real("nats-dashboard", env)


@pytest.fixture(scope="module")
def gateway_b(stack_a):
    extra = start_gateway(stack_a)
    yield extra
    extra.stop()


#: Every client a test opened, closed after it (an unclosed socket is an error in this suite).
_OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients():
    yield
    while _OPEN:
        _OPEN.pop().close()


def client_of(base_url: str, cookie: str | None = None) -> DashboardClient:
    """Return a new dashboard client of the gateway at ``base_url`` (with a session cookie)."""
    http = httpx.Client(base_url=base_url, timeout=30)
    _OPEN.append(http)
    if cookie:
        http.cookies.set("celestial_session", cookie)
    return DashboardClient(http)


def eventually(check, what: str) -> None:
    deadline = time.monotonic() + PROPAGATION_WAIT_S
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def new_owner(stack: Stack) -> tuple[str, str]:
    account = f"nd-{os.urandom(4).hex()}"
    stack.admin("account", "create", account, "--credits", "100")
    email = f"{account}@example.com"
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    assert client_of(stack.base_url).accept_invite(link).status_code == 303
    return account, email


def test_an_owner_signed_in_on_one_gateway_acts_on_the_other(stack_a, gateway_b):
    _, email = new_owner(stack_a)
    on_a = client_of(stack_a.base_url)
    assert on_a.sign_in(email).status_code == 303
    cookie = on_a.http.cookies.get("celestial_session")
    on_b = client_of(gateway_b.base_url, cookie)

    key = on_b.create_key()
    key_id = re.search(r'<tr id="(key_[0-9a-f]{16})"', on_a.page("/dashboard/keys")).group(1)
    with httpx.Client(base_url=stack_a.base_url, headers={"Authorization": f"Bearer {key}"}) as api_a:
        assert api_a.get(POSITIONS).status_code == 200
    with httpx.Client(base_url=gateway_b.base_url, headers={"Authorization": f"Bearer {key}"}) as api_b:
        assert api_b.get(POSITIONS).status_code == 200  # cached by gateway B from now on
        assert re.search(r'id="balance">98<', on_b.page("/dashboard/usage"))
        revoked = on_a.submit(f"/dashboard/keys/{key_id}/revoke", f"/dashboard/keys/{key_id}/revoke", {})
        assert revoked.status_code == 303
        eventually(lambda: api_b.get(POSITIONS).status_code == 401, "gateway B refuses the key revoked on A")

    out = on_b.submit("/dashboard/keys", "/dashboard/sign-out", {})
    assert out.status_code == 303
    assert on_a.http.get("/dashboard/keys").status_code == 303  # the session ended on A too


def test_failed_sign_ins_on_both_gateways_add_up_to_one_lock_out(stack_a, gateway_b):
    _, email = new_owner(stack_a)
    for attempt in range(EMAIL_MAX_FAILURES):
        base_url = stack_a.base_url if attempt % 2 else gateway_b.base_url
        assert client_of(base_url).sign_in(email, "not the password, sorry").status_code == 401
    for base_url in (stack_a.base_url, gateway_b.base_url):
        locked = client_of(base_url).sign_in(email)
        assert locked.status_code == 401 and LOCKED_OUT in locked.text
    stack_a.admin("owner", "unlock", "--email", email)
    assert client_of(gateway_b.base_url).sign_in(email).status_code == 303
