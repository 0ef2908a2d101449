"""webhooks/events.py: a subscription's events are asked of the search pool over gRPC and are
/v1/forecast's for the UTC day of their instant, member for member; the sky's carry ids of
their own and nothing of the reference birth; a pool that does not answer is an error the
scheduler retries, never an empty day.

The pool is a real search process (``python -m services.search.server``) on a free loopback
port; /v1/forecast is the gateway's, in process (its search pool computing in this process).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from celestial.v1 import options_pb2, search_service_pb2
from shared.runtime.config import REPO_ROOT
from store.chart_records import StoredChart
from store.choice import open_configured_store
from store.webhook_records import Webhook, new_secret, new_webhook_id
from webhooks.events import EventsUnavailable, SearchPoolEvents, forecast_request
from webhooks.forecast_requests import forecast_body, sky_event

DAY = datetime(2026, 11, 27, tzinfo=UTC)
#: The Moon's last quarter falls on 2026-12-01 (UTC).
LAST_QUARTER_DAY = datetime(2026, 12, 1, tzinfo=UTC)
BIRTH = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}
CHART_KINDS = ("transit", "lunation", "void_of_course", "ingress")
SKY_KINDS = ("ingress", "lunation")
#: Long enough for a day's forecast on a loaded machine; the pool's own deadline class is longer.
DEADLINE_S = 60.0
START_WITHIN_S = 90.0


@pytest.fixture(scope="module")
def search_address(processes, tmp_path_factory) -> Iterator[str]:
    """Start one search process on a free loopback port; return its address once serving."""
    log_path = tmp_path_factory.mktemp("search") / "search.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "services.search.server", "--host", "127.0.0.1", "--port", "0"],
            cwd=REPO_ROOT,
            env={**os.environ, "CELESTIAL_LOG_FORMAT": "json"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield f"127.0.0.1:{_serving_port(process, log_path)}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _serving_port(process: subprocess.Popen, log_path) -> int:
    deadline = time.monotonic() + START_WITHIN_S
    while time.monotonic() < deadline and process.poll() is None:
        for line in log_path.read_text(errors="replace").splitlines():
            if '"service_started"' in line:
                return json.loads(line)["port"]
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the search process did not start:\n{log_path.read_text(errors='replace')[-2000:]}")


@pytest.fixture(scope="module")
def gateway(module_stacks):
    """The gateway app in process, and a funded account's key and id on it."""
    stack = module_stacks.in_process("webhook-events")
    name, key = stack.new_key()

    async def account_id() -> str:
        store = await open_configured_store(stack.settings)
        try:
            return (await store.get_account(name)).id
        finally:
            await store.close()

    return stack, key, asyncio.run(account_id())


def subscription(account_id: str, kinds: tuple[str, ...], chart_id: str | None) -> Webhook:
    return Webhook(new_webhook_id(), account_id, "https://example.com/hook", kinds, chart_id, 0, new_secret())


def events_over_grpc(address: str, webhook: Webhook, chart: StoredChart | None, day: datetime) -> list[dict]:
    async def ask() -> list[dict]:
        events_of = SearchPoolEvents((address,), deadline_s=DEADLINE_S, keepalive_s=1.0, ping_timeout_s=2.0)
        try:
            return await events_of(webhook, chart, day)
        finally:
            await events_of.close()

    return asyncio.run(ask())


def stored_chart(stack, account_id: str, chart_id: str) -> StoredChart:
    """Return the chart as the gateway stored it."""

    async def read() -> StoredChart:
        store = await open_configured_store(stack.settings)
        try:
            return await store.get_chart(account_id, chart_id)
        finally:
            await store.close()

    return asyncio.run(read())


def forecast_of_the_api(stack, key: str, params: dict) -> list[dict]:
    with stack.client(key) as client:
        answer = client.get("/v1/forecast", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]["events"]


def test_a_charts_request_sends_the_stored_local_datetime_and_zone_for_the_service_to_resolve():
    chart = StoredChart("chart_x", "acct", "Ada", dict(BIRTH), {"bodies": "sun,moon"}, dict(BIRTH))
    request = forecast_request(DAY, CHART_KINDS, chart)
    assert (request.moment.datetime, request.moment.tz) == (BIRTH["datetime"], BIRTH["tz"])
    assert list(request.bodies) == ["sun", "moon"]


def test_the_forecast_is_asked_with_the_deadline_of_its_class_scan():
    method = search_service_pb2.DESCRIPTOR.services_by_name["SearchService"].methods_by_name["FindForecast"]
    assert method.GetOptions().Extensions[options_pb2.http].deadline == options_pb2.DEADLINE_CLASS_SCAN


def test_a_chart_subscriptions_events_over_grpc_are_the_forecasts_of_that_day_member_for_member(
    gateway, search_address
):
    stack, key, account_id = gateway
    with stack.client(key) as client:
        created = client.post("/v1/charts", json={"name": "Ada", **BIRTH, "bodies": "sun,moon,mercury,venus,mars"})
    assert created.status_code == 200, created.text
    chart = stored_chart(stack, account_id, created.json()["data"]["id"])
    webhook = subscription(account_id, CHART_KINDS, chart.chart_id)

    delivered = events_over_grpc(search_address, webhook, chart, DAY)

    answered = forecast_of_the_api(stack, key, forecast_body(DAY, CHART_KINDS, chart.chart_id))
    assert delivered and all(event["id"].startswith("fc_") for event in delivered)
    assert delivered == answered


def test_a_sky_subscriptions_events_over_grpc_are_the_reference_births_forecast_as_sky_events(gateway, search_address):
    stack, key, account_id = gateway
    webhook = subscription(account_id, SKY_KINDS, None)

    delivered = events_over_grpc(search_address, webhook, None, LAST_QUARTER_DAY)

    answered = forecast_of_the_api(stack, key, forecast_body(LAST_QUARTER_DAY, SKY_KINDS, None))
    assert [(event["kind"], event["phase"]) for event in delivered] == [("lunation", "last_quarter")]
    assert all(event["id"].startswith("sky_") and event["natal_house"] is None for event in delivered)
    assert delivered == [sky_event(event) for event in answered]


def test_a_pool_that_does_not_answer_is_an_error_never_a_day_without_events():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = f"127.0.0.1:{probe.getsockname()[1]}"  # bound, never listening: refused
        with pytest.raises(EventsUnavailable):
            events_over_grpc(nobody, subscription("acct", SKY_KINDS, None), None, DAY)
