"""The public price list, /pricing and /pricing.json, against the contract the gateway charges
by (the endpoints' descriptors) and the limits a new account really gets."""

from __future__ import annotations

import os
import re

import httpx
import pytest

from gateway.endpoints import discover_endpoints
from tests.api.in_process_stack import AppStack

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"


@pytest.fixture(scope="module")
def visitor(stack: AppStack) -> httpx.Client:
    with stack.client() as client:
        yield client


def test_the_price_list_needs_no_key(visitor):
    assert visitor.get("/pricing").status_code == 200
    assert visitor.get("/pricing.json").status_code == 200


def test_the_price_list_names_every_endpoint_with_the_credits_its_descriptor_declares(visitor):
    declared = {e.path: e.http.credits for e in discover_endpoints()}
    listed = {price["path"]: price["credits"] for price in visitor.get("/pricing.json").json()["endpoints"]}
    assert listed == declared


def test_the_price_list_gives_every_conditional_cost_its_descriptor_declares(visitor):
    declared = {
        e.path: [(rule.field, rule.equals, rule.credits) for rule in e.http.conditional_credits]
        for e in discover_endpoints()
    }
    listed = {
        price["path"]: [(rule["parameter"], rule["equals"], rule["credits"]) for rule in price["conditional_credits"]]
        for price in visitor.get("/pricing.json").json()["endpoints"]
    }
    assert listed == declared


def test_the_page_shows_each_endpoint_beside_its_credits_and_conditional_credits(visitor):
    html = visitor.get("/pricing").text
    for endpoint in discover_endpoints():
        row = re.search(rf'<tr id="price-{re.escape(endpoint.path)}">(.*?)</tr>', html, re.S)
        assert row is not None, endpoint.path
        if endpoint.http.credits or endpoint.http.conditional_credits:
            assert f'<span class="base-credits">{endpoint.http.credits}</span>' in row.group(1)
        for rule in endpoint.http.conditional_credits:
            assert f"{rule.credits} with <code>{rule.field}={rule.equals}</code>" in row.group(1)


def test_the_free_endpoints_are_those_that_cost_nothing(visitor):
    html = visitor.get("/pricing").text
    free_table = html.split('<table id="free-endpoints">')[1].split("</table>")[0]
    listed = set(re.findall(r'<tr id="price-([^"]+)">', free_table))
    assert listed == {e.path for e in discover_endpoints() if not e.http.credits and not e.http.conditional_credits}


def test_the_stated_limits_are_those_a_new_account_gets(stack: AppStack, visitor):
    limits = visitor.get("/pricing.json").json()["limits"]
    # Created without limits (stack.new_key would set them), so the store's defaults apply.
    name = f"pricing-{os.urandom(4).hex()}"
    stack.admin("account", "create", name, "--credits", "10")
    key = stack.admin("key", "create", "--account", name).stdout.strip()
    with stack.client(key) as api:
        assert api.get(POSITIONS).headers["X-RateLimit-Limit"] == str(limits["rate_per_minute"])
    assert f"{limits['max_concurrent']} requests in flight" in visitor.get("/pricing").text


def test_test_keys_are_said_to_be_free_under_their_own_limit(visitor):
    test_keys = visitor.get("/pricing.json").json()["test_keys"]
    assert (test_keys["available"], test_keys["credits"]) == (True, 0)
    page = visitor.get("/pricing").text
    assert f"{test_keys['limits']['rate_per_minute']} computations a minute" in page and "cost nothing" in page
    assert test_keys["counted_by"].startswith("computation: each request counts the credits it would cost")


def test_the_page_carries_the_dashboards_content_security_policy(visitor):
    policy = visitor.get("/pricing").headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy


def test_the_dashboards_sign_in_page_links_the_price_list(visitor):
    assert 'href="/pricing"' in visitor.get("/dashboard/sign-in").text
