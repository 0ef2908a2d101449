"""Webhook subscriptions (issue 40, part 3), rule by rule, on the gateway in process: subscribe
with a URL, the kinds wanted, a stored chart or the sky, and a lead; the secret shown once and
rotatable; pause, resume, delete; a signed test delivery and the recent deliveries. Free."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import orjson
import pytest

from webhooks.signing import verify_signature
from store.webhook_records import MAX_LEAD_MINUTES
from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance
from tests.webhook_receiver import Receiver

LYON = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}
SKY = {"url": "https://example.com/hook", "events": ["lunation", "eclipse"], "lead_minutes": 60}


@pytest.fixture()
def account(stack: AppStack) -> tuple[str, str]:
    return stack.new_key()


@pytest.fixture()
def receiver():
    with Receiver() as running:
        yield running


def post(stack: AppStack, key: str, path: str, body=None):
    with stack.client(key) as client:
        return client.post(path, json=body) if body is not None else client.post(path)


def call(stack: AppStack, key: str, method: str, path: str, body=None):
    with stack.client(key) as client:
        return client.request(method, path, json=body)


def subscribe(stack: AppStack, key: str, body: dict) -> dict:
    response = post(stack, key, "/v1/webhooks", body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def a_chart(stack: AppStack, key: str) -> str:
    response = post(stack, key, "/v1/charts", {"name": "Ada", **LYON})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def test_a_subscription_is_answered_with_its_id_and_its_secret_once(stack, account):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert made["id"].startswith("wh_") and made["secret"].startswith("whsec_")
    assert (made["url"], made["events"], made["chart"], made["lead_minutes"], made["state"]) == (
        SKY["url"], ["lunation", "eclipse"], None, 60, "active"
    )
    read = call(stack, key, "GET", f"/v1/webhooks/{made['id']}").json()["data"]
    assert "secret" not in read and read == {k: v for k, v in made.items() if k != "secret"}
    assert [w["id"] for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"]] == [made["id"]]
    assert all("secret" not in w for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"])


def test_a_chart_subscription_takes_every_kind_of_the_forecast(stack, account):
    _, key = account
    chart = a_chart(stack, key)
    made = subscribe(stack, key, {"url": "https://example.com/h", "events": ["return", "transit"], "chart": chart})
    assert (made["chart"], made["events"], made["lead_minutes"]) == (chart, ["transit", "return"], 0)


def test_a_sky_subscription_takes_only_the_skys_kinds(stack, account):
    _, key = account
    response = post(stack, key, "/v1/webhooks", {**SKY, "events": ["transit"]})
    assert_error(response, 400, "invalid_parameter", "events")


@pytest.mark.parametrize("events", [[], "lunation", ["lunation", 3], ["solstice"]])
def test_events_must_be_a_non_empty_array_of_known_kinds(stack, account, events):
    _, key = account
    assert_error(post(stack, key, "/v1/webhooks", {**SKY, "events": events}), 400, "invalid_parameter", "events")


def test_a_chart_must_be_a_stored_chart_of_the_account(stack, account):
    _, key = account
    _, other_key = stack.new_key()
    theirs = a_chart(stack, other_key)
    for chart in (theirs, "chart_nope"):
        response = post(stack, key, "/v1/webhooks", {**SKY, "chart": chart})
        assert_error(response, 404, "chart_not_found", "chart")


@pytest.mark.parametrize("url", [
    "http://example.com/hook", "ftp://example.com/x", "example.com/hook", "https://", "https://user:pw@example.com/h",
    "https://example.com/h#frag", "https://example.com:99999/h", "", 42, "https://e.com/" + "a" * 2000,
])
def test_the_url_must_be_https(stack, account, url):
    _, key = account
    assert_error(post(stack, key, "/v1/webhooks", {**SKY, "url": url}), 400, "invalid_parameter", "url")


@pytest.mark.parametrize("url", ["http://localhost:9/h", "http://127.0.0.1:9/h", "http://[::1]:9/h"])
def test_http_to_the_loopback_is_taken_in_development_mode(stack, account, url):
    _, key = account
    assert subscribe(stack, key, {**SKY, "url": url})["url"] == url


def test_http_to_the_loopback_is_refused_in_production_mode(module_stacks):
    production = module_stacks.in_process("webhooks-production", {"CELESTIAL_MODE": "production"})
    _, key = production.new_key()
    response = post(production, key, "/v1/webhooks", {**SKY, "url": "http://127.0.0.1:9/h"})
    assert_error(response, 400, "invalid_parameter", "url")


@pytest.mark.parametrize("lead", [-1, MAX_LEAD_MINUTES + 1, 1.5, "60", True])
def test_the_lead_is_a_whole_number_of_minutes_up_to_a_week(stack, account, lead):
    _, key = account
    assert_error(post(stack, key, "/v1/webhooks", {**SKY, "lead_minutes": lead}), 400, "invalid_parameter", "lead_minutes")


def test_the_lead_may_be_a_week(stack, account):
    _, key = account
    assert subscribe(stack, key, {**SKY, "lead_minutes": MAX_LEAD_MINUTES})["lead_minutes"] == MAX_LEAD_MINUTES


@pytest.mark.parametrize("body, code, param", [
    ([1, 2], "invalid_body", None), ({**SKY, "colour": "red"}, "invalid_parameter", "colour"),
    ({"events": ["lunation"]}, "missing_parameter", "url"), ({"url": SKY["url"]}, "missing_parameter", "events"),
])
def test_a_body_of_any_other_shape_is_refused(stack, account, body, code, param):
    _, key = account
    assert_error(post(stack, key, "/v1/webhooks", body), 400, code, param)


def test_a_subscription_takes_no_query_parameters(stack, account):
    _, key = account
    with stack.client(key) as client:
        assert_error(client.post("/v1/webhooks?url=x", json=SKY), 400, "invalid_parameter")


def test_an_account_keeps_at_most_its_limit_of_subscriptions(module_stacks):
    small = module_stacks.in_process("webhooks-small", {"CELESTIAL_WEBHOOKS_PER_ACCOUNT": "2"})
    _, key = small.new_key()
    for _ in range(2):
        subscribe(small, key, SKY)
    assert_error(post(small, key, "/v1/webhooks", SKY), 409, "webhook_limit_reached")


def test_another_accounts_subscription_is_not_found(stack, account):
    _, key = account
    _, other_key = stack.new_key()
    theirs = subscribe(stack, other_key, SKY)["id"]
    for method, path, body in (
        ("GET", f"/v1/webhooks/{theirs}", None), ("PATCH", f"/v1/webhooks/{theirs}", {"state": "paused"}),
        ("DELETE", f"/v1/webhooks/{theirs}", None), ("POST", f"/v1/webhooks/{theirs}/test", None),
        ("POST", f"/v1/webhooks/{theirs}/rotate-secret", None), ("GET", f"/v1/webhooks/{theirs}/deliveries", None),
        ("GET", "/v1/webhooks/wh_nope", None),
    ):
        assert_error(call(stack, key, method, path, body), 404, "webhook_not_found")
    assert call(stack, other_key, "GET", f"/v1/webhooks/{theirs}").json()["data"]["state"] == "active"


def test_patch_pauses_and_resumes(stack, account):
    _, key = account
    made = subscribe(stack, key, SKY)
    paused = call(stack, key, "PATCH", f"/v1/webhooks/{made['id']}", {"state": "paused"}).json()["data"]
    assert (paused["state"], paused["paused_reason"]) == ("paused", "paused_by_owner")
    resumed = call(stack, key, "PATCH", f"/v1/webhooks/{made['id']}", {"state": "active"}).json()["data"]
    assert (resumed["state"], resumed["paused_reason"], resumed["failing_since"]) == ("active", None, None)


@pytest.mark.parametrize("body, param", [({"state": "asleep"}, "state"), ({"url": "https://x.com"}, "url"), ({}, "state")])
def test_patch_changes_only_the_state(stack, account, body, param):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert_error(call(stack, key, "PATCH", f"/v1/webhooks/{made['id']}", body), 400, "invalid_parameter", param)


def test_a_deleted_subscription_is_gone(stack, account):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert call(stack, key, "DELETE", f"/v1/webhooks/{made['id']}").json()["data"] == {"id": made["id"], "deleted": True}
    assert_error(call(stack, key, "GET", f"/v1/webhooks/{made['id']}"), 404, "webhook_not_found")
    assert_error(call(stack, key, "DELETE", f"/v1/webhooks/{made['id']}"), 404, "webhook_not_found")


def test_rotation_shows_a_new_secret_once_and_the_old_one_signs_no_more(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    rotated = post(stack, key, f"/v1/webhooks/{made['id']}/rotate-secret").json()["data"]
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != made["secret"]
    post(stack, key, f"/v1/webhooks/{made['id']}/test")
    (got,) = receiver.received
    header = got.headers["celestial-signature"]
    assert verify_signature(got.body, header, rotated["secret"])
    assert not verify_signature(got.body, header, made["secret"])


def test_a_test_delivery_is_a_signed_post_of_the_event_recorded_with_its_outcome(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    answer = post(stack, key, f"/v1/webhooks/{made['id']}/test").json()["data"]
    (got,) = receiver.received
    body = orjson.loads(got.body)
    assert verify_signature(got.body, got.headers["celestial-signature"], made["secret"])
    assert (body["webhook_id"], body["chart"], body["attempt"], body["test"], body["event"]["kind"]) == (made["id"], None, 1, True, "test")
    assert got.headers["celestial-event-id"] == body["event"]["id"] == answer["event_id"]
    assert (answer["status"], answer["succeeded"], answer["test"]) == (200, True, True) and answer["response_ms"] >= 0
    deliveries = call(stack, key, "GET", f"/v1/webhooks/{made['id']}/deliveries").json()["data"]["deliveries"]
    assert deliveries == [answer]


def test_a_failed_test_delivery_is_answered_with_its_status(stack, account, receiver):
    _, key = account
    receiver.status = 503
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    answer = post(stack, key, f"/v1/webhooks/{made['id']}/test").json()["data"]
    assert (answer["status"], answer["succeeded"]) == (503, False)


def test_a_test_delivery_to_nobody_records_the_error(stack, account):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": "http://127.0.0.1:9/nobody"})
    answer = post(stack, key, f"/v1/webhooks/{made['id']}/test").json()["data"]
    assert answer["status"] is None and answer["error"] and not answer["succeeded"]


def test_a_test_delivery_while_the_accounts_deliveries_are_all_in_flight_is_429_at_once(stack, account, receiver):
    _, key = account
    _, other_key = stack.new_key()
    held = threading.Event()
    receiver.on_arrival = lambda body: held.wait(30)  # each test delivery hangs until released
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    with Receiver() as healthy, ThreadPoolExecutor(4) as hanging:
        theirs = subscribe(stack, other_key, {**SKY, "url": healthy.url})
        try:
            in_flight = [hanging.submit(post, stack, key, f"/v1/webhooks/{made['id']}/test") for _ in range(4)]
            deadline = time.monotonic() + 10
            while receiver.arrived < 4 and time.monotonic() < deadline:
                time.sleep(0.01)
            refused = post(stack, key, f"/v1/webhooks/{made['id']}/test")
            other_account = post(stack, other_key, f"/v1/webhooks/{theirs['id']}/test")
            still_hanging = not any(answer.done() for answer in in_flight)
        finally:
            held.set()
        answers = [answer.result() for answer in in_flight]
    error = assert_error(refused, 429, "rate_limit_exceeded")
    assert int(refused.headers["retry-after"]) >= 1 and "Retry-After" in error["suggestion"]
    assert still_hanging and other_account.json()["data"]["succeeded"]  # another account's slots are its own
    assert [a.json()["data"]["succeeded"] for a in answers] == [True] * 4


def test_subscriptions_and_test_deliveries_cost_nothing(stack, account, receiver):
    name, key = account
    before = balance(stack, name)
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    post(stack, key, f"/v1/webhooks/{made['id']}/test")
    call(stack, key, "GET", f"/v1/webhooks/{made['id']}/deliveries")
    call(stack, key, "DELETE", f"/v1/webhooks/{made['id']}")
    assert balance(stack, name) == before


def test_the_routes_need_a_key(stack):
    with stack.client(None) as client:
        assert_error(client.get("/v1/webhooks"), 401, "invalid_api_key")
