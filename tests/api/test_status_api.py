"""The public status page, /status and /v1/status (issue 50, part 5), in process: free and
without a key, each operation class's figures counted from the answers the gateway recorded
and flushed to its store, the uptime its probes saw, and nothing that names an account, a
key, a chart or a parameter."""

from __future__ import annotations

import time

import httpx
import jsonschema
import pytest

from gateway.reference.openapi_schemas import strict
from gateway.status_probes import probe_once
from store.status_records import ProbeResult
from tests.api.in_process_stack import AppStack

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
MAP = "/v1/astrocartography?datetime=1990-05-01T08:30:00Z&bodies=sun"


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    """A gateway of its own: its store holds only this module's answers."""
    return module_stacks.in_process("status")


@pytest.fixture(scope="module")
def visitor(stack: AppStack) -> httpx.Client:
    with stack.client() as client:
        yield client


def flushed(stack: AppStack) -> None:
    """Add what the gateway recorded to its store now and forget its cached report (what the
    flush every CELESTIAL_STATUS_FLUSH_S seconds and the cache's expiry do)."""
    state = stack.app.state
    stack._transport._portal.call(state.status_recorder.flush, state.gateway.store)
    state.status_reports.forget()


def figures(client: httpx.Client, op_class: str, window: str = "hour") -> dict:
    (found,) = [c for c in client.get("/v1/status").json()["data"]["classes"] if c["name"] == op_class]
    return next(w for w in found["windows"] if w["window"] == window)


def test_the_status_page_and_its_json_need_no_key(visitor):
    page, document = visitor.get("/status"), visitor.get("/v1/status")
    assert (page.status_code, document.status_code) == (200, 200)
    assert page.headers["content-type"].startswith("text/html")
    assert set(document.json()) == {"data", "meta"} and document.json()["meta"]["as_of"].endswith("Z")


def test_the_page_reads_without_javascript_with_its_charts_inline(visitor):
    page = visitor.get("/status").text
    assert page.count("<svg") == 2
    assert 'id="class-quick"' in page and 'id="uptime"' in page


def test_every_answered_request_counts_in_its_operations_class(stack, visitor):
    before = figures(visitor, "quick")["requests"]
    _, key = stack.new_key()
    with stack.client(key) as client:
        assert client.get(POSITIONS).status_code == 200
        assert client.get("/v1/positions?datetime=nonsense&bodies=sun").status_code == 400
    flushed(stack)
    after = figures(visitor, "quick")
    assert after["requests"] == before + 2
    assert after["p50_ms"] > 0 and after["p50_ms"] <= after["p95_ms"] <= after["p99_ms"]


def test_the_status_requests_themselves_are_not_counted(stack, visitor):
    flushed(stack)
    counted = {c["name"]: c["windows"][0]["requests"] for c in visitor.get("/v1/status").json()["data"]["classes"]}
    for _ in range(3):
        visitor.get("/v1/status")
        visitor.get("/status")
    flushed(stack)
    again = {c["name"]: c["windows"][0]["requests"] for c in visitor.get("/v1/status").json()["data"]["classes"]}
    assert again == counted


def test_the_share_of_5xx_counts_the_gateways_failures(stack, visitor, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the pool broke")

    monkeypatch.setattr(stack.app.state.gateway.pools["astrocartography"], "call", broken)
    _, key = stack.new_key()
    with stack.client(key) as client:
        assert client.get(MAP).status_code == 500
    flushed(stack)
    assert figures(visitor, "map")["server_error_share"] == 1.0


def test_the_same_answers_count_in_every_window(stack, visitor):
    flushed(stack)
    windows = [figures(visitor, "quick", window)["requests"] for window in ("hour", "day", "30_days")]
    assert windows[0] == windows[1] == windows[2] > 0


def test_a_probe_through_the_real_path_marks_its_minute_up(stack, visitor):
    portal, state = stack._transport._portal, stack.app.state
    up = portal.call(probe_once, stack.app)
    assert up is True
    state.status_recorder.record_probe(ProbeResult(time.time(), up))
    flushed(stack)
    (today,) = visitor.get("/v1/status").json()["data"]["uptime"]["days"]
    assert (today["probed_minutes"], today["down_minutes"], today["uptime"]) == (1, 0, 1.0)


def test_no_account_key_chart_or_parameter_appears_on_the_page(stack, visitor):
    name, key = stack.new_key()
    with stack.client(key) as client:
        chart = client.post(
            "/v1/charts",
            json={"name": "Secret Ada", "datetime": "1985-07-13T14:05:00Z", "lat": "45.75", "lon": "4.85"},
        )
        assert chart.status_code == 200, chart.text
        assert client.get(POSITIONS + "&sidereal=lahiri").status_code == 200
        account_id = client.get("/v1/account").json()["data"]["account"]["id"]
    flushed(stack)
    for text in (visitor.get("/status").text, visitor.get("/v1/status").text):
        for secret in (
            name,
            key,
            key[-8:],
            account_id,
            chart.json()["data"]["id"],
            "Secret Ada",
            "lahiri",
            "2024-03-20",
        ):
            assert secret not in text


def test_the_price_list_links_the_status_page(visitor):
    assert 'href="/status"' in visitor.get("/pricing").text
    assert "/status" in [route["path"] for route in visitor.get("/pricing.json").json()["free_routes"]]


def test_a_parameter_sent_to_the_status_is_refused_with_its_name(visitor):
    answer = visitor.get("/v1/status?window=day")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["param"]) == ("invalid_parameter", "window") and error["suggestion"]


def test_the_status_is_read_not_written(visitor):
    assert visitor.post("/v1/status").status_code == 405


def test_the_live_answer_and_its_refusal_hold_the_documents_strict_schemas(stack, visitor):
    document = strict(visitor.get("/v1/openapi.json").json())
    responses = document["paths"]["/v1/status"]["get"]["responses"]
    flushed(stack)
    for status, answer in (("200", visitor.get("/v1/status")), ("400", visitor.get("/v1/status?x=1"))):
        schema = responses[status]["content"]["application/json"]["schema"]
        jsonschema.Draft202012Validator({**schema, "components": document["components"]}).validate(answer.json())
