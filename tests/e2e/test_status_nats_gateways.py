"""The status page on the NATS store behind two real gateways (issue 50, part 5): requests
through either gateway count once in the figures both show, their self-probes mark today's
minutes up, and /status looked at in Chromium (its screenshot is docs/status.png)."""

from __future__ import annotations

import time

import httpx
import pytest

from deploy.local_stack import Stack, start_gateway
from deploy.nats_server import NatsServer
from tests.e2e.browser import launched_chromium, screenshot_folder

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
NATAL = "/v1/natal-chart?datetime=1990-05-01T08:30:00Z&lat=51.5&lon=-0.12"
LUNATIONS = "/v1/lunations?start=2024-03-01T00:00:00Z&end=2024-04-01T00:00:00Z"
MAP = "/v1/astrocartography?datetime=1990-06-15T14:30:00Z&bodies=sun,moon&latitude_step=10"
#: How long the figures may take to reach the store and both gateways' caches.
PROPAGATION_WAIT_S = 30.0
SCREENSHOTS = screenshot_folder("status")


@pytest.fixture(scope="module")
def nats(processes, tmp_path_factory):
    server = NatsServer(tmp_path_factory.mktemp("nats-status"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack_a(nats, module_real_stacks) -> Stack:
    # Probes on (the stacks turn them off by default), flushes often: the test waits on both.
    env = {
        "CELESTIAL_NATS_URL": nats.url,
        "CELESTIAL_EPHEMERIS_PROCESSES": "1",
        "CELESTIAL_STATUS_PROBE_S": "1",
        "CELESTIAL_STATUS_FLUSH_S": "0.5",
    }
    return module_real_stacks.real("nats-status", env)


@pytest.fixture(scope="module")
def gateway_b(stack_a):
    extra = start_gateway(stack_a)
    yield extra
    extra.stop()


def status_of(base_url: str) -> dict:
    return httpx.get(f"{base_url}/v1/status", timeout=30).json()["data"]


def requests_by_class(data: dict) -> dict[str, int]:
    return {c["name"]: c["windows"][0]["requests"] for c in data["classes"]}


def eventually(check, what: str):
    deadline = time.monotonic() + PROPAGATION_WAIT_S
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return found


def test_two_gateways_show_the_same_figures_after_requests_through_either(stack_a, gateway_b):
    _, key = stack_a.new_key()
    headers = {"Authorization": f"Bearer {key}"}
    for base_url, path, times in ((stack_a.base_url, POSITIONS, 3), (gateway_b.base_url, POSITIONS, 2)):
        for _ in range(times):
            assert httpx.get(base_url + path, headers=headers, timeout=30).status_code == 200
    for path in (NATAL, LUNATIONS, MAP, "/v1/usage"):
        assert httpx.get(gateway_b.base_url + path, headers=headers, timeout=30).status_code == 200
    sent = {"quick": 5, "chart": 1, "search": 1, "map": 1, "account": 1, "batch": 0}

    def both_counted():
        seen = [status_of(url) for url in (stack_a.base_url, gateway_b.base_url)]
        return seen if all(requests_by_class(data) == sent for data in seen) else None

    a, b = eventually(both_counted, "both gateways count the requests sent through either, each in its class")
    assert a["classes"] == b["classes"]


def test_the_gateways_probes_mark_todays_minutes_up(stack_a, gateway_b):
    def probed():
        days = status_of(gateway_b.base_url)["uptime"]["days"]
        return days if days and days[-1]["probed_minutes"] >= 1 else None

    days = eventually(probed, "the probes of either gateway reached the store")
    assert (days[-1]["down_minutes"], days[-1]["uptime"]) == (0, 1.0)


def test_the_status_page_in_chromium(stack_a, gateway_b):
    with launched_chromium() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 1400}, java_script_enabled=False)
        page.goto(f"{stack_a.base_url}/status")
        assert page.locator("svg.chart").count() == 2
        assert page.locator("#class-quick tbody tr").count() == 3
        page.screenshot(path=str(SCREENSHOTS / "status.png"), full_page=True)
