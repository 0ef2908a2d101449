"""Webhook subscriptions (issue 40, part 3), rule by rule, on the gateway in process: subscribe
with a URL, the kinds wanted, a stored chart or the sky, and a lead; the secret shown once and
rotatable; pause, resume, delete; a test delivery signed as Standard Webhooks says (the
specification's library verifies it) and the recent deliveries. Free.
Issue 46, part 5: a creation retried under its Idempotency-Key answers the first; deleting a
chart ends its subscriptions."""

from __future__ import annotations

import asyncio
import base64
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import orjson
import pytest
from jsonschema import Draft202012Validator
from standardwebhooks import Webhook as StandardWebhook
from standardwebhooks import WebhookVerificationError

from deploy.webhook_receiver import Receiver
from gateway import webhooks as gateway_webhooks
from gateway.idempotency import canonical_json, fingerprint, mode_scoped_key
from gateway.reference.openapi_schemas import strict
from store import SqliteStore
from store.webhook_records import MAX_LEAD_MINUTES, new_secret
from tests.api.in_process_stack import AppStack
from tests.api.test_conventions_api import assert_error, balance
from tests.api.test_test_keys_api import test_key
from tests.name_table import PUBLIC_NAMES, NameTable
from webhooks.egress import EgressRefused, checked_addresses, read_url
from webhooks.forecast_requests import forecast_body, sky_event
from webhooks.signing import verify_signature

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


def iso_z(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


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
        SKY["url"],
        ["lunation", "eclipse"],
        None,
        60,
        "active",
    )
    read = call(stack, key, "GET", f"/v1/webhooks/{made['id']}").json()["data"]
    assert "secret" not in read and read == {k: v for k, v in made.items() if k != "secret"}
    assert [w["id"] for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"]] == [made["id"]]
    assert all("secret" not in w for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"])


def post_keyed(stack: AppStack, key: str, path: str, body: dict, idempotency_key: str):
    with stack.client(key, {"Idempotency-Key": idempotency_key}) as client:
        return client.post(path, json=body)


def listed_ids(stack: AppStack, key: str) -> list[str]:
    return [w["id"] for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"]]


def test_a_subscription_retried_under_its_idempotency_key_answers_the_first_and_makes_one(stack, account):
    _, key = account
    first = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-retry")
    # The same body in another key order is the same request.
    again = post_keyed(stack, key, "/v1/webhooks", dict(reversed(SKY.items())), "wh-retry")
    assert first.status_code == again.status_code == 200, first.text
    assert again.content == first.content
    assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    for header in ("x-request-id", "location", "content-type", "x-ratelimit-limit", "x-ratelimit-remaining"):
        assert again.headers[header] == first.headers[header]
    assert listed_ids(stack, key) == [first.json()["data"]["id"]]


def test_the_secret_is_shown_again_only_in_the_replay_of_the_first_answer_to_its_key(stack, account):
    _, key = account
    first = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-secret").json()["data"]
    replayed = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-secret").json()["data"]
    assert replayed["secret"] == first["secret"]
    assert "secret" not in call(stack, key, "GET", f"/v1/webhooks/{first['id']}").json()["data"]
    assert all("secret" not in w for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"])
    # Another key is another subscription, with a secret of its own.
    other = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-secret-2").json()["data"]
    assert other["id"] != first["id"] and other["secret"] != first["secret"]


def test_another_body_under_the_same_key_is_422_idempotency_key_reuse_and_makes_nothing(stack, account):
    _, key = account
    made = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-reuse").json()["data"]["id"]
    assert_error(
        post_keyed(stack, key, "/v1/webhooks", {**SKY, "lead_minutes": 5}, "wh-reuse"), 422, "idempotency_key_reuse"
    )
    assert_error(
        post_keyed(stack, key, "/v1/charts", {"name": "Ada", **LYON}, "wh-reuse"), 422, "idempotency_key_reuse"
    )
    assert listed_ids(stack, key) == [made]


def test_a_retry_while_the_first_creation_runs_is_409_idempotency_key_in_progress(stack, account):
    name, key = account

    async def claim_elsewhere() -> None:
        store = SqliteStore(stack.settings.database_path)
        try:
            owner = await store.get_account(name)
            held_as = mode_scoped_key("wh-running", "live")
            await store.claim_idempotency(
                owner.id, held_as, fingerprint("POST", "/v1/webhooks", canonical_json(SKY)), "elsewhere", 60.0
            )
        finally:
            await store.close()

    asyncio.run(claim_elsewhere())
    response = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-running")
    assert_error(response, 409, "idempotency_key_in_progress")
    assert response.headers["retry-after"] == "1" and listed_ids(stack, key) == []


def test_a_refused_creation_keeps_nothing_under_its_key(stack, account):
    _, key = account
    assert_error(
        post_keyed(stack, key, "/v1/webhooks", {**SKY, "lead_minutes": -1}, "wh-refused"),
        400,
        "invalid_parameter",
        "lead_minutes",
    )
    made = post_keyed(stack, key, "/v1/webhooks", SKY, "wh-refused")
    assert made.status_code == 200 and "idempotent-replayed" not in made.headers


def test_a_body_too_deep_to_name_under_a_key_is_400_before_it_is_named(stack, account):
    _, key = account
    with stack.client(key, {"Idempotency-Key": "wh-deep", "Content-Type": "application/json"}) as client:
        response = client.post("/v1/webhooks", content='{"url": ' + "[" * 300 + "]" * 300 + "}")
    # Held to its schema first (gateway/account_bodies.py): the url is no string.
    assert_error(response, 400, "invalid_parameter", "url")


def test_a_test_keys_and_a_live_keys_creations_never_share_an_idempotency_key(stack, account):
    name, live = account
    test = test_key(stack, name)
    from_live = post_keyed(stack, live, "/v1/webhooks", SKY, "wh-modes")
    from_test = post_keyed(stack, test, "/v1/webhooks", SKY, "wh-modes")
    assert "idempotent-replayed" not in from_test.headers and from_test.json()["meta"]["mode"] == "test"
    assert from_test.json()["data"]["id"] != from_live.json()["data"]["id"]
    assert post_keyed(stack, live, "/v1/webhooks", SKY, "wh-modes").content == from_live.content
    assert post_keyed(stack, test, "/v1/webhooks", SKY, "wh-modes").content == from_test.content
    assert len(listed_ids(stack, live)) == 2


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


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/hook",
        "ftp://example.com/x",
        "example.com/hook",
        "https://",
        "https://user:pw@example.com/h",
        "https://example.com/h#frag",
        "https://example.com:99999/h",
        "",
        42,
        "https://e.com/" + "a" * 2000,
    ],
)
def test_the_url_must_be_https(stack, account, url):
    _, key = account
    assert_error(post(stack, key, "/v1/webhooks", {**SKY, "url": url}), 400, "invalid_parameter", "url")


@pytest.mark.parametrize("url", ["http://localhost:9/h", "http://127.0.0.1:9/h", "http://[::1]:9/h"])
def test_http_to_the_loopback_is_taken_in_development_mode(stack, account, url):
    _, key = account
    assert subscribe(stack, key, {**SKY, "url": url})["url"] == url


def test_http_to_the_loopback_is_refused_in_production_mode(production):
    _, key = production.new_key()
    response = post(production, key, "/v1/webhooks", {**SKY, "url": "http://127.0.0.1:9/h"})
    assert_error(response, 400, "invalid_parameter", "url")


# --- egress: a stranger cannot aim the deliveries (webhooks/egress.py) ---------------------------

#: What the production stack's resolver answers (example.com is public).
NAMES = {
    **PUBLIC_NAMES,
    "intranet.example.net": ["10.0.0.5"],
    "half.example.net": [*PUBLIC_NAMES["example.com"], "169.254.169.254"],
}

#: Hostile URLs, each refused in production naming its rule (tests/unit/webhooks/test_egress.py has them all).
HOSTILE = [
    "https://169.254.169.254/latest/meta-data/",
    "https://10.0.0.1/",
    "https://[fd00::1]/",
    "https://2130706433/",
    "https://0177.0.0.1/",
    "https://0x7f.1/",
    "https://127.1/",
    "https://127.0.0.1./",
    "https://[::ffff:127.0.0.1]/",
    "https://[fe80::1%25eth0]/",
    "https://%31%32%37.0.0.1/",
    "https://１２７．０．０．１/",
    "https://[64:ff9b::a00:1]/",
    "https://localhost/",
    "https://localhost./",
    "https://metadata.google.internal/",
    "https://printer.local/",
    "https://intranet.example.net/",
    "https://half.example.net/",
    "https://unknown.example.net/",
    "https://exa mple.com/",
    'https://example.com/a"b',
    "https://example.com/<x>",
    "https://example.com:0/",
]


@pytest.fixture(scope="module")
def production(module_stacks) -> AppStack:
    return module_stacks.in_process("webhooks-production", {"CELESTIAL_MODE": "production"}, resolve=NameTable(NAMES))


def refusal_of(url: str) -> EgressRefused:
    """Return the refusal webhooks/egress.py gives ``url`` in production, on the same names."""
    with pytest.raises(EgressRefused) as refused:
        asyncio.run(checked_addresses(read_url(url, False), False, NameTable(NAMES)))
    return refused.value


@pytest.mark.parametrize("url", HOSTILE)
def test_a_hostile_url_is_refused_with_400_naming_the_rule(production, url):
    name, key = production.new_key()
    before = balance(production, name)
    error = assert_error(post(production, key, "/v1/webhooks", {**SKY, "url": url}), 400, "invalid_parameter", "url")
    expected = refusal_of(url)
    assert (error["message"], error["suggestion"]) == (expected.message, expected.suggestion)
    assert call(production, key, "GET", "/v1/webhooks").json()["data"]["webhooks"] == []
    assert balance(production, name) == before


def test_a_literal_url_is_never_asked_of_the_resolver(production):
    _, key = production.new_key()
    asked = len(production.resolve.asked)
    hostile = [url for url in HOSTILE if "example" not in url and "local" not in url and "internal" not in url]
    public = ["https://93.184.215.14/hook", "https://1572394766/hook", "https://[2606:4700:4700::1111]:8443/hook"]
    # The table fails the request (a 500) if asked for a literal.
    assert [post(production, key, "/v1/webhooks", {**SKY, "url": url}).status_code for url in hostile + public] == (
        [400] * len(hostile) + [200] * len(public)
    )
    assert production.resolve.asked[asked:] == []


def test_a_name_resolving_only_to_public_addresses_is_taken_in_production(production):
    _, key = production.new_key()
    asked = len(production.resolve.asked)
    assert subscribe(production, key, SKY)["url"] == SKY["url"]
    assert production.resolve.asked[asked:] == ["example.com"]


def test_an_otherwise_bad_body_is_refused_before_any_resolution(production):
    _, key = production.new_key()
    asked = len(production.resolve.asked)
    assert_error(
        post(production, key, "/v1/webhooks", {**SKY, "events": ["solstice"]}), 400, "invalid_parameter", "events"
    )
    assert production.resolve.asked[asked:] == []


@pytest.mark.parametrize("lead", [-1, MAX_LEAD_MINUTES + 1, 1.5, "60", True])
def test_the_lead_is_a_whole_number_of_minutes_up_to_a_week(stack, account, lead):
    _, key = account
    assert_error(
        post(stack, key, "/v1/webhooks", {**SKY, "lead_minutes": lead}), 400, "invalid_parameter", "lead_minutes"
    )


def test_the_lead_may_be_a_week(stack, account):
    _, key = account
    assert subscribe(stack, key, {**SKY, "lead_minutes": MAX_LEAD_MINUTES})["lead_minutes"] == MAX_LEAD_MINUTES


@pytest.mark.parametrize(
    "body, code, param",
    [
        ([1, 2], "invalid_body", None),
        ({**SKY, "colour": "red"}, "invalid_parameter", "colour"),
        ({"events": ["lunation"]}, "missing_parameter", "url"),
        ({"url": SKY["url"]}, "missing_parameter", "events"),
    ],
)
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
        ("GET", f"/v1/webhooks/{theirs}", None),
        ("PATCH", f"/v1/webhooks/{theirs}", {"state": "paused"}),
        ("DELETE", f"/v1/webhooks/{theirs}", None),
        ("POST", f"/v1/webhooks/{theirs}/test", None),
        ("POST", f"/v1/webhooks/{theirs}/rotate-secret", None),
        ("GET", f"/v1/webhooks/{theirs}/deliveries", None),
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


@pytest.mark.parametrize(
    "body, param", [({"state": "asleep"}, "state"), ({"url": "https://x.com"}, "url"), ({}, "state")]
)
def test_patch_changes_only_the_state(stack, account, body, param):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert_error(call(stack, key, "PATCH", f"/v1/webhooks/{made['id']}", body), 400, "invalid_parameter", param)


def test_a_deleted_subscription_is_gone(stack, account):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert call(stack, key, "DELETE", f"/v1/webhooks/{made['id']}").json()["data"] == {
        "id": made["id"],
        "deleted": True,
    }
    assert_error(call(stack, key, "GET", f"/v1/webhooks/{made['id']}"), 404, "webhook_not_found")
    assert_error(call(stack, key, "DELETE", f"/v1/webhooks/{made['id']}"), 404, "webhook_not_found")


def test_deleting_a_chart_ends_its_subscriptions_for_the_reason_chart_deleted(stack, account):
    _, key = account
    chart, kept_chart = a_chart(stack, key), a_chart(stack, key)
    ended = subscribe(stack, key, {"url": "https://example.com/h", "events": ["lunation"], "chart": chart})["id"]
    paused = subscribe(stack, key, {"url": "https://example.com/h", "events": ["transit"], "chart": chart})["id"]
    call(stack, key, "PATCH", f"/v1/webhooks/{paused}", {"state": "paused"})
    others = [
        subscribe(stack, key, {"url": "https://example.com/h", "events": ["lunation"], "chart": kept_chart})["id"],
        subscribe(stack, key, SKY)["id"],
    ]
    assert call(stack, key, "DELETE", f"/v1/charts/{chart}").status_code == 200
    listed = {w["id"]: w for w in call(stack, key, "GET", "/v1/webhooks").json()["data"]["webhooks"]}
    for webhook_id in (ended, paused):
        assert (listed[webhook_id]["state"], listed[webhook_id]["paused_reason"]) == ("ended", "chart_deleted")
        assert call(stack, key, "GET", f"/v1/webhooks/{webhook_id}").json()["data"] == listed[webhook_id]
    assert [listed[webhook_id]["state"] for webhook_id in others] == ["active", "active"]


def test_an_ended_subscription_is_never_resumed_changed_or_tested_but_can_be_deleted(stack, account):
    _, key = account
    chart = a_chart(stack, key)
    made = subscribe(stack, key, {"url": "https://example.com/h", "events": ["lunation"], "chart": chart})["id"]
    call(stack, key, "DELETE", f"/v1/charts/{chart}")
    resumed = call(stack, key, "PATCH", f"/v1/webhooks/{made}", {"state": "active"})
    assert_error(resumed, 409, "webhook_ended")
    assert "POST /v1/webhooks" in resumed.json()["errors"][0]["suggestion"]
    assert_error(call(stack, key, "PATCH", f"/v1/webhooks/{made}", {"state": "paused"}), 409, "webhook_ended")
    assert_error(post(stack, key, f"/v1/webhooks/{made}/rotate-secret"), 409, "webhook_ended")
    assert_error(post(stack, key, f"/v1/webhooks/{made}/test"), 409, "webhook_ended")
    assert call(stack, key, "GET", f"/v1/webhooks/{made}").json()["data"]["state"] == "ended"
    assert call(stack, key, "DELETE", f"/v1/webhooks/{made}").json()["data"] == {"id": made, "deleted": True}


def test_rotation_shows_a_new_secret_once_and_the_old_one_signs_no_more(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    rotated = post(stack, key, f"/v1/webhooks/{made['id']}/rotate-secret").json()["data"]
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != made["secret"]
    post(stack, key, f"/v1/webhooks/{made['id']}/test")
    (got,) = receiver.received
    assert verify_signature(got.body, got.headers, rotated["secret"])
    assert not verify_signature(got.body, got.headers, made["secret"])


def test_a_test_delivery_is_a_signed_post_of_the_event_recorded_with_its_outcome(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    answer = post(stack, key, f"/v1/webhooks/{made['id']}/test").json()["data"]
    (got,) = receiver.received
    body = orjson.loads(got.body)
    assert verify_signature(got.body, got.headers, made["secret"])
    assert (body["webhook_id"], body["chart"], body["attempt"], body["test"]) == (made["id"], None, 1, True)
    assert body["event"]["kind"] in SKY["events"] and body["event"]["id"].startswith("test_")
    assert got.headers["webhook-id"] == body["event"]["id"] == answer["event_id"]
    assert (answer["status"], answer["succeeded"], answer["test"]) == (200, True, True) and answer["response_ms"] >= 0
    deliveries = call(stack, key, "GET", f"/v1/webhooks/{made['id']}/deliveries").json()["data"]["deliveries"]
    assert deliveries == [answer]


def assert_a_webhook_payload(stack: AppStack, key: str, body: dict) -> None:
    """Assert that ``body`` is valid against the document's webhook ``event`` (WebhookPayload,
    its event the TimelineEvent of /v1/forecast and /v1/calendar), every member declared."""
    document = strict(call(stack, key, "GET", "/v1/openapi.json").json())
    payload = document["webhooks"]["event"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    errors = list(Draft202012Validator({**payload, "components": document["components"]}).iter_errors(body))
    assert not errors, [error.message for error in errors]


def test_a_delivery_is_the_documents_webhook_payload_for_a_sky_and_a_chart_subscription(stack, account, receiver):
    _, key = account
    sky = subscribe(stack, key, {**SKY, "url": receiver.url})
    post(stack, key, f"/v1/webhooks/{sky['id']}/test")
    chart = subscribe(stack, key, {"url": receiver.url, "events": ["lunation"], "chart": a_chart(stack, key)})
    post(stack, key, f"/v1/webhooks/{chart['id']}/test")
    first, second = (orjson.loads(got.body) for got in receiver.received)
    for body in (first, second):
        assert_a_webhook_payload(stack, key, body)
    assert first["event"]["natal_house"] is None and second["event"]["natal_house"] in range(1, 13)


def test_a_test_delivery_is_verified_by_the_standard_webhooks_library(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    post(stack, key, f"/v1/webhooks/{made['id']}/test")
    (got,) = receiver.received
    assert StandardWebhook(made["secret"]).verify(got.body, got.headers) == orjson.loads(got.body)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(made["secret"]).verify(got.body.replace(b'"test":true', b'"test":false'), got.headers)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(new_secret()).verify(got.body, got.headers)


def test_a_new_secret_is_whsec_and_the_base64_of_32_bytes(stack, account):
    _, key = account
    made = subscribe(stack, key, SKY)
    assert len(base64.b64decode(made["secret"].removeprefix("whsec_"), validate=True)) == 32


def test_delivered(stack: AppStack, key: str, webhook_id: str, receiver) -> dict:
    """Return the event of the test delivery of ``webhook_id`` the receiver got."""
    answer = post(stack, key, f"/v1/webhooks/{webhook_id}/test")
    assert answer.status_code == 200, answer.text
    (got,) = receiver.received
    body = orjson.loads(got.body)
    assert body["test"] is True and body["event"]["id"] == answer.json()["data"]["event_id"]
    return body["event"]


test_delivered.__test__ = False  # a helper, not a test


def forecast_events(stack: AppStack, key: str, body: dict) -> list[dict]:
    with stack.client(key) as client:
        response = client.post("/v1/forecast", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"]["events"]


def real_id(test_event: dict) -> str:
    """Return the id of the real event a test's stands for (test_<8 hex>_<id>)."""
    prefix, _random, rest = test_event["id"].split("_", 2)
    assert prefix == "test" and len(_random) == 8
    return rest


def shape(event: dict) -> dict:
    """Return each member's JSON type, and the instant's members' types."""
    return {
        key: (
            type(value).__name__,
            {k: type(v).__name__ for k, v in value.items()} if isinstance(value, dict) else None,
        )
        for key, value in event.items()
    }


def test_a_chart_subscriptions_test_carries_its_next_event_as_the_forecast_gives_it(stack, account, receiver):
    _, key = account
    chart = a_chart(stack, key)
    made = subscribe(stack, key, {"url": receiver.url, "events": ["lunation"], "chart": chart})
    asked_from = datetime.now(UTC).replace(microsecond=0)
    event = test_delivered(stack, key, made["id"], receiver)
    instant = datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00"))
    day = datetime(instant.year, instant.month, instant.day, tzinfo=UTC)
    that_day = forecast_events(stack, key, forecast_body(day, ("lunation",), chart))
    (real,) = [e for e in that_day if e["id"] == real_id(event)]
    assert event == {**real, "id": event["id"]}
    assert shape(event) == shape(real) and "natal_house" in event and set(event["instant"]) == {"jd", "datetime"}
    # Its next: no event of its kinds between the moment it was asked and it.
    until = day + timedelta(days=1)
    ahead = forecast_events(
        stack, key, {**forecast_body(day, ("lunation",), chart), "start": iso_z(asked_from), "end": iso_z(until)}
    )
    assert ahead[0]["id"] == real["id"]


def test_a_sky_subscriptions_test_carries_its_next_event_as_a_sky_event(stack, account, receiver):
    _, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})
    asked_from = datetime.now(UTC) + timedelta(minutes=SKY["lead_minutes"])
    event = test_delivered(stack, key, made["id"], receiver)
    instant = datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00"))
    assert instant >= asked_from - timedelta(seconds=1) and event["kind"] in SKY["events"]
    day = datetime(instant.year, instant.month, instant.day, tzinfo=UTC)
    same_instant = [
        e
        for e in forecast_events(stack, key, forecast_body(day, tuple(made["events"]), None))
        if e["instant"] == event["instant"] and e["kind"] == event["kind"]
    ]
    (real,) = [sky_event(e) for e in same_instant]
    assert real["id"] == real_id(event) and event == {**real, "id": event["id"]}
    # One event schema (TimelineEvent): the forecast's members, what concerns the reference birth null.
    assert set(event) == set(same_instant[0]) and event["point"] is None and event["natal_house"] is None
    assert shape(event) == {**shape(same_instant[0]), "natal_house": ("NoneType", None)}


def test_a_test_with_no_event_of_its_kinds_ahead_is_409_no_upcoming_event_and_sends_nothing(
    stack, account, receiver, monkeypatch
):
    name, key = account
    made = subscribe(stack, key, {**SKY, "url": receiver.url})

    def nothing_ahead(*_args):
        async def ask(_body):
            return []

        return ask

    monkeypatch.setattr(gateway_webhooks, "forecast_asker", nothing_ahead)
    before = balance(stack, name)
    assert_error(post(stack, key, f"/v1/webhooks/{made['id']}/test"), 409, "no_upcoming_event")
    assert receiver.received == [] and balance(stack, name) == before
    assert call(stack, key, "GET", f"/v1/webhooks/{made['id']}/deliveries").json()["data"]["deliveries"] == []


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
    assert refused.json()["violated-policies"] == ["webhook-deliveries"]
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
