"""gateway/webhooks.py: the rules a subscription's url, events and lead follow, what the API
shows of a subscription (never its secret) and of a delivery, and an ended subscription never
changed."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from types import SimpleNamespace

import pytest

from celestial.v1 import account_service_pb2, options_pb2
from gateway.endpoints import account_operations
from gateway.reference.openapi import proto_comments
from gateway.upcoming_events import WINDOW_ENDS_DAYS
from gateway.webhooks import (
    CHART_KINDS,
    SKY_KINDS,
    WEBHOOK_DELIVERIES_PATH,
    WEBHOOK_PATH,
    WEBHOOK_ROTATE_PATH,
    WEBHOOK_TEST_PATH,
    WEBHOOKS_PATH,
    _replaced,
    check_addresses,
    check_events,
    check_lead,
    delivery_view,
    read_target,
    webhook_view,
)
from shared.errors import InvalidParameter, WebhookEnded
from store.memory_store import MemoryStore
from store.webhook_records import (
    ACTIVE,
    DEFAULT_WEBHOOKS_PER_ACCOUNT,
    END_REASONS,
    ENDED,
    KEEP_DELIVERIES,
    MAX_LEAD_MINUTES,
    MAX_URL_CHARS,
    PAUSE_REASONS,
    PAUSED,
    STATES,
    Delivery,
    Webhook,
    is_webhook_id,
    new_secret,
    new_webhook_id,
)
from tests.name_table import NameTable
from webhooks.egress import SUGGESTION
from webhooks.signing import TOLERANCE_S


def checked(url, development: bool) -> str:
    """Return the URL a subscription keeps, once read and its addresses checked (a table resolver)."""
    target = read_target(url, development)
    asyncio.run(check_addresses(target, development, NameTable()))
    return target.url


@pytest.mark.parametrize(
    "url", ["https://example.com/h", "https://example.com:8443/h?x=1", "https://[2606:4700:4700::1111]/h"]
)
def test_https_to_a_public_host_is_taken_in_either_mode(url):
    assert checked(url, development=False) == checked(url, development=True) == url


@pytest.mark.parametrize(
    "url", ["http://localhost/h", "http://127.0.0.1:9000/h", "http://[::1]/h", "http://127.0.0.2/h"]
)
def test_http_to_the_loopback_is_taken_in_development_only(url):
    assert checked(url, development=True) == url
    with pytest.raises(InvalidParameter) as refused:
        checked(url, development=False)
    assert refused.value.param == "url" and "production" in refused.value.message


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/h",
        "http://10.0.0.1/h",
        "ws://localhost/h",
        "https://u:p@e.com/",
        "https:///h",
        None,
        "",
        "https://10.0.0.1/h",
        "https://nowhere.example.com/h",
    ],
)
def test_anything_else_is_refused_naming_the_url(url):
    with pytest.raises(InvalidParameter) as refused:
        checked(url, development=True)
    assert refused.value.param == "url" and refused.value.http_status == 400


def test_a_refusal_carries_the_egress_rules_message_and_suggestion():
    with pytest.raises(InvalidParameter) as refused:
        checked("https://0177.0.0.1/h", development=False)
    assert (
        refused.value.message
        == "The url's host is 127.0.0.1, a loopback address: a webhook is delivered only to public addresses."
    )
    assert refused.value.suggestion == SUGGESTION


def test_a_chart_takes_the_forecasts_kinds_and_the_sky_its_own_in_the_forecasts_order():
    assert check_events(["return", "transit"], "chart_x") == ("transit", "return")
    assert check_events(["eclipse", "ingress"], None) == ("ingress", "eclipse")
    assert set(SKY_KINDS) < set(CHART_KINDS)
    with pytest.raises(InvalidParameter):
        check_events(["transit"], None)


@pytest.mark.parametrize("lead", [0, 1, 10080])
def test_a_lead_is_a_whole_number_of_minutes_up_to_a_week(lead):
    assert check_lead(lead) == lead


@pytest.mark.parametrize("lead", [-1, 10081, 2.0, "5", None, False])
def test_any_other_lead_is_refused(lead):
    with pytest.raises(InvalidParameter):
        check_lead(lead)


def test_the_view_never_shows_the_secret():
    webhook = Webhook(new_webhook_id(), "acct", "https://e.com/h", ("lunation",), None, 5, new_secret())
    view = webhook_view(webhook)
    assert webhook.secret not in str(view) and view["paused_reason"] is None and view["lead_minutes"] == 5


def test_a_delivery_without_answer_shows_its_error_and_no_success():
    view = delivery_view(Delivery(new_webhook_id(), "fc_1", 2, None, 10000.0, error="timeout"))
    assert (view["status"], view["succeeded"], view["error"], view["attempt"]) == (None, False, "timeout", 2)


def test_a_change_racing_the_charts_deletion_is_409_webhook_ended_and_not_written():
    async def scenario():
        store = MemoryStore()
        account = await store.create_account("acme", 10)
        chart_id = "chart_0123456789abc01234567"
        read = await store.create_webhook(
            Webhook(new_webhook_id(), account.id, "https://e.com/h", ("lunation",), chart_id, 0, new_secret()), 5
        )
        await store.end_chart_webhooks(account.id, chart_id)  # after the route read it
        with pytest.raises(WebhookEnded):
            await _replaced(SimpleNamespace(store=store), account, replace(read, state=ACTIVE))
        return await store.get_webhook(account.id, read.webhook_id)

    assert asyncio.run(scenario()).state == ENDED


# --- the subscriptions' rules, as account_service.proto declares them ------------------------------


def _rule(message, name: str):
    return message.DESCRIPTOR.fields_by_name[name].GetOptions().Extensions[options_pb2.field]


def test_the_webhook_paths_are_those_their_rpcs_declare():
    declared = {e.method.name: e.path for e in account_operations()}
    assert {declared["ListWebhooks"], declared["CreateWebhook"]} == {WEBHOOKS_PATH}
    assert {declared[rpc] for rpc in ("GetWebhook", "UpdateWebhook", "DeleteWebhook")} == {WEBHOOK_PATH}
    assert (declared["RotateWebhookSecret"], declared["TestWebhook"], declared["ListWebhookDeliveries"]) == (
        WEBHOOK_ROTATE_PATH,
        WEBHOOK_TEST_PATH,
        WEBHOOK_DELIVERIES_PATH,
    )


def test_a_subscriptions_bounds_and_kinds_are_those_the_proto_declares():
    create = account_service_pb2.CreateWebhookRequest
    assert _rule(create, "url").max_length == MAX_URL_CHARS
    lead = _rule(create, "lead_minutes")
    assert (lead.min, lead.max) == (0, MAX_LEAD_MINUTES) and check_lead(MAX_LEAD_MINUTES) == MAX_LEAD_MINUTES
    assert tuple(_rule(create, "events").choices) == CHART_KINDS
    for answer in (account_service_pb2.Webhook, account_service_pb2.WebhookWithSecret):
        assert tuple(_rule(answer, "events").choices) == CHART_KINDS
        assert tuple(_rule(answer, "state").choices) == STATES
        assert set(_rule(answer, "paused_reason").choices) == {*PAUSE_REASONS, *END_REASONS} - {""}
    assert tuple(_rule(account_service_pb2.UpdateWebhookRequest, "state").choices) == (ACTIVE, PAUSED)


def test_a_subscription_with_its_secret_is_a_subscription_and_its_secret():
    plain = [(f.name, f.type, f.number) for f in account_service_pb2.Webhook.DESCRIPTOR.fields]
    shown = [(f.name, f.type, f.number) for f in account_service_pb2.WebhookWithSecret.DESCRIPTOR.fields]
    assert shown[:-1] == plain and shown[-1][0] == "secret"


def test_the_webhook_id_pattern_of_the_proto_takes_the_ids_the_store_takes_and_no_other():
    pattern = _rule(account_service_pb2.GetWebhookRequest, "webhook_id").pattern
    for text in (new_webhook_id(), "wh_0123456789abc0123456", "wh_0123456789abc012345678", "chart_x"):
        assert (re.fullmatch(pattern, text) is not None) is is_webhook_id(text), text


def test_the_webhooks_descriptions_say_the_limits_the_gateway_applies():
    comments = {name: " ".join(text.split()) for name, text in proto_comments().items()}
    creation = comments["celestial.v1.AccountService.CreateWebhook"]
    assert f"up to {DEFAULT_WEBHOOKS_PER_ACCOUNT} subscriptions" in creation
    assert f"more than {TOLERANCE_S} s from your clock" in creation
    assert f"The last {KEEP_DELIVERIES} attempts" in comments["celestial.v1.AccountService.ListWebhookDeliveries"]
    assert f"in the next {WINDOW_ENDS_DAYS[-1] // 365} years" in comments["celestial.v1.AccountService.TestWebhook"]
