"""gateway/account_resources.py: one way to serve a free account resource, on a gateway of
fakes (the same rules through the real app: tests/api/test_account_resources_api.py)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace

import orjson
import pytest

from gateway.account_resources import (
    Answer,
    Operation,
    request_fields,
    resource_route,
    serve_resource,
    single_values,
    takes_body,
)
from gateway.endpoints import account_operations
from gateway.request_state import request_state
from gateway.version import answer_version
from shared.errors import InvalidParameter, MethodNotAllowed
from store.records import Account, KeyRecord, utc_now
from tests.unit.gateway.requests_for_tests import request_to

ACCOUNT = Account("acct_1", "acme", 42)
KEY = KeyRecord("key_1", "acct_1", "h", "svc_live_abcd...", utc_now())


class FakeGateway:
    """Authenticates every request as ACCOUNT and KEY, admits it, and counts the slots held."""

    def __init__(self, mode: str = "live"):
        self.held = 0
        self.admitted = 0
        self.mode = mode
        self.store = SimpleNamespace(balance=self._balance)

    @staticmethod
    async def _balance(account_id: str) -> int:
        return ACCOUNT.balance

    async def authenticate_key(self, request):
        key = replace(KEY, mode=self.mode)
        request_state(request).authenticated(key)
        return ACCOUNT, key

    async def admit(self, state, account):
        self.admitted += 1
        self.held += 1

    def release(self, account, state):
        self.held -= 1


def served(gateway: FakeGateway, method: str, operations, *, query: str = "", body: bytes = b""):
    request = request_to(method, "/v1/things", query=query, body=body, headers={"Content-Type": "application/json"})
    request.scope["app"] = SimpleNamespace(state=SimpleNamespace(gateway=gateway))
    return asyncio.run(serve_resource(request, operations))


async def listing(call) -> Answer:
    return Answer({"things": [], "asked": dict(call.query)}, meta={"as_of": "2026-05-01T00:00:00.000Z"})


def test_an_answer_is_enveloped_with_a_free_requests_meta_its_extra_members_before_the_version():
    answer = served(FakeGateway(), "GET", {"GET": Operation(listing, query=("limit",))}, query="limit=3")
    body = orjson.loads(answer.body)
    assert body["data"] == {"things": [], "asked": {"limit": "3"}}
    assert list(body["meta"]) == ["request_id", "credits_used", "credits_remaining", "as_of", "version"]
    assert (body["meta"]["credits_used"], body["meta"]["credits_remaining"], body["meta"]["version"]) == (
        0,
        42,
        answer_version(),
    )


def test_a_test_keys_answer_says_mode_test_last():
    body = orjson.loads(served(FakeGateway("test"), "GET", {"GET": Operation(listing)}).body)
    assert list(body["meta"])[-1] == "mode" and body["meta"]["mode"] == "test"


def test_a_balance_the_work_read_is_the_one_answered():
    async def fresh(call) -> Answer:
        return Answer({}, balance=7)

    assert orjson.loads(served(FakeGateway(), "GET", {"GET": Operation(fresh)}).body)["meta"]["credits_remaining"] == 7


def test_the_slot_is_given_back_when_the_work_fails():
    gateway = FakeGateway()

    async def failing(call) -> Answer:
        raise InvalidParameter("no", suggestion="yes")

    with pytest.raises(InvalidParameter):
        served(gateway, "GET", {"GET": Operation(failing)})
    assert (gateway.admitted, gateway.held) == (1, 0)


def test_a_parameter_the_operation_does_not_take_is_refused_after_admission():
    gateway = FakeGateway()
    with pytest.raises(InvalidParameter) as refused:
        served(gateway, "GET", {"GET": Operation(listing, query=("limit",))}, query="colour=red")
    assert refused.value.param == "colour" and (gateway.admitted, gateway.held) == (1, 0)


def test_an_operation_taking_a_body_refuses_a_query_string_and_receives_the_body():
    async def echo(call) -> Answer:
        return Answer(call.body)

    operations = {"POST": Operation(echo, body=True)}
    with pytest.raises(InvalidParameter, match="JSON body"):
        served(FakeGateway(), "POST", operations, query="name=x", body=b'{"name": "x"}')
    assert orjson.loads(served(FakeGateway(), "POST", operations, body=b'{"name": "x"}').body)["data"] == {"name": "x"}


def test_head_is_refused_before_the_key_is_read():
    gateway = FakeGateway()
    with pytest.raises(MethodNotAllowed) as refused:
        served(gateway, "HEAD", {"GET": Operation(listing)})
    assert refused.value.allow == "GET" and gateway.admitted == 0


def test_a_route_serves_the_methods_of_its_operations_and_keeps_them():
    route = resource_route("/v1/things", {"GET": Operation(listing), "POST": Operation(listing, body=True)})
    assert route.methods >= {"GET", "POST"} and set(route.operations) == {"GET", "POST"}


@pytest.mark.parametrize(("items", "param"), [([("a", "1"), ("a", "2")], "a"), ([("b", "1")], "b")])
def test_single_values_refuses_a_repeated_or_unknown_parameter(items, param):
    with pytest.raises(InvalidParameter) as refused:
        single_values(items, ("a",), "/v1/things")
    assert refused.value.param == param


def test_an_account_operation_takes_a_body_when_a_post_or_patch_has_fields_besides_its_paths():
    by_rpc = {endpoint.method.name: endpoint for endpoint in account_operations()}
    assert takes_body(by_rpc["CreateWebhook"]) and takes_body(by_rpc["UpdateStoredChart"])
    assert not takes_body(by_rpc["RotateWebhookSecret"]) and not takes_body(by_rpc["GetUsage"])
    assert request_fields(by_rpc["UpdateWebhook"]) == ("state",)
    assert request_fields(by_rpc["ListStoredCharts"]) == ("limit", "page_token", "export")
