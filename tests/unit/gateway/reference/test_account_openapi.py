"""gateway/reference/account_openapi.py: the hand-written OpenAPI path items of GET /v1/usage
and GET /v1/account (gateway routes, no proto describes them), in the served document so the
generated clients get them.

References: issue 39 part 4, gateway/account_api.py (the answers these schemas describe).
"""

from __future__ import annotations

from datetime import date

from jsonschema import Draft202012Validator

from gateway.account_api import UsageQuery, account_data, usage_data
from gateway.endpoints import discover_endpoints
from gateway.reference.account_openapi import ACCOUNT_SCHEMA, ACCOUNT_SCHEMAS, USAGE_SCHEMA, account_paths
from gateway.reference.openapi import build_openapi
from store.records import Account, KeyRecord, UsageRow, utc_now
from store.spend_caps import SpendBook, SpendCap


def test_both_operations_are_in_the_served_document_as_free_gets():
    paths = build_openapi(tuple(discover_endpoints()), version="test")["paths"]
    assert {paths["/v1/usage"]["get"]["operationId"], paths["/v1/account"]["get"]["operationId"]} == {
        "get_usage",
        "get_account",
    }
    assert paths["/v1/usage"]["get"]["x-credits"] == paths["/v1/account"]["get"]["x-credits"] == 0
    assert "post" not in paths["/v1/usage"] and "post" not in paths["/v1/account"]


def test_usage_takes_start_end_and_key_none_required():
    parameters = account_paths()["/v1/usage"]["get"]["parameters"]
    assert {(p["name"], p["required"]) for p in parameters} == {("start", False), ("end", False), ("key", False)}


def fits(schema: dict, data: dict) -> bool:
    """Return whether ``data`` fits ``schema``, its references resolved among ACCOUNT_SCHEMAS."""
    return list(Draft202012Validator({**schema, "components": {"schemas": ACCOUNT_SCHEMAS}}).iter_errors(data)) == []


def test_a_usage_answer_fits_its_schema():
    query = UsageQuery(date(2026, 5, 1), date(2026, 5, 2))
    data = usage_data(
        [UsageRow(date(2026, 5, 2), "key_a", "/v1/positions", 2, 2), UsageRow(date(2026, 5, 2), "", "", 1, 1)], query
    )
    assert fits(USAGE_SCHEMA, data)


def test_an_account_answer_fits_its_schema():
    record = KeyRecord("key_a", "acct_1", "0" * 64, "AbCd", utc_now(), allowed_origins=("https://app.example",))
    spend = SpendBook().with_cap("", SpendCap(daily=5), 0).with_cap("key_a", SpendCap(monthly=9), 0).status("acct_1", 0)
    data = account_data(Account("acct_1", "acme", 10), record, spend)
    assert fits(ACCOUNT_SCHEMA, data)


def test_the_account_schema_names_no_hash_nor_key_member():
    members = set(ACCOUNT_SCHEMA["properties"]["key"]["properties"])
    assert not {name for name in members if "hash" in name or name in ("key", "secret")}


def test_every_refusal_answers_the_error_body():
    for item in account_paths().values():
        for status, response in item["get"]["responses"].items():
            if status != "200":
                assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
