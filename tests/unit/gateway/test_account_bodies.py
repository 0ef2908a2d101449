"""The account bodies' reader (gateway/account_bodies.py) without the app: which members a body
has, which text refuses to be empty, and what each kind of body reads as."""

from __future__ import annotations

import pytest

from gateway.account_bodies import NO_BODY, borrowed_request, own_members, read_account_body, refuses_empty_text
from gateway.endpoints import account_operations
from shared.errors import InvalidBody, InvalidParameter

BY_RPC = {endpoint.method.name: endpoint for endpoint in account_operations()}
LYON = {"datetime": "1985-07-13T14:05:00", "place": "2996944"}


def test_a_bodys_own_members_are_its_requests_fields_its_path_does_not_name():
    assert list(own_members(BY_RPC["UpdateStoredChart"])) == ["name"]
    assert list(own_members(BY_RPC["CreateWebhook"])) == ["url", "events", "chart", "lead_minutes"]
    assert own_members(BY_RPC["RotateWebhookSecret"]) == {}


def test_a_stored_charts_body_borrows_the_natal_charts_parameters():
    assert borrowed_request(BY_RPC["CreateStoredChart"]).name == "ComputeNatalChartRequest"
    assert borrowed_request(BY_RPC["CreateWebhook"]) is None


def test_free_text_refuses_to_be_empty_and_a_pattern_or_choices_refuse_it_by_their_own_rule():
    webhook = own_members(BY_RPC["CreateWebhook"])
    assert refuses_empty_text(own_members(BY_RPC["CreateStoredChart"])["name"]) and refuses_empty_text(webhook["url"])
    assert not refuses_empty_text(webhook["chart"]) and not refuses_empty_text(webhook["lead_minutes"])
    assert not refuses_empty_text(own_members(BY_RPC["UpdateWebhook"])["state"])


def test_no_body_reads_as_none_and_a_body_as_sent():
    assert read_account_body(BY_RPC["CreateStoredChart"], NO_BODY) is None
    assert read_account_body(BY_RPC["CreateStoredChart"], {"name": "Ada", **LYON}) == {"name": "Ada", **LYON}
    assert read_account_body(BY_RPC["TestWebhook"], {}) is None


def test_a_patch_may_remove_a_borrowed_member_with_null_but_not_its_own():
    assert read_account_body(BY_RPC["UpdateStoredChart"], {"system": None}) == {"system": None}
    with pytest.raises(InvalidParameter):
        read_account_body(BY_RPC["UpdateStoredChart"], {"name": None})
    with pytest.raises(InvalidParameter):
        read_account_body(BY_RPC["CreateStoredChart"], {"name": "Ada", **LYON, "system": None})


@pytest.mark.parametrize(
    ("rpc", "body", "refusal"),
    [
        ("CreateStoredChart", None, InvalidBody),
        ("CreateStoredChart", [], InvalidBody),
        ("CreateStoredChart", {"name": "Ada", "unknown": 1}, InvalidParameter),
        ("CreateStoredChart", {"name": 3}, InvalidParameter),
        ("CreateStoredChart", {"name": "x" * 201}, InvalidParameter),
        ("CreateWebhook", {"url": "https://example.com", "events": []}, InvalidParameter),
        ("CreateWebhook", {"url": "https://example.com", "events": ["lunation", ""]}, InvalidParameter),
        (
            "CreateWebhook",
            {"url": "https://example.com", "events": ["lunation"], "lead_minutes": "60"},
            InvalidParameter,
        ),
        (
            "CreateWebhook",
            {"url": "https://example.com", "events": ["lunation"], "lead_minutes": 10081},
            InvalidParameter,
        ),
        ("RotateWebhookSecret", None, InvalidBody),
        ("RotateWebhookSecret", [], InvalidBody),
        ("TestWebhook", {"a": 1}, InvalidParameter),
    ],
)
def test_a_body_its_schema_refuses_is_refused(rpc, body, refusal):
    with pytest.raises(refusal):
        read_account_body(BY_RPC[rpc], body)
