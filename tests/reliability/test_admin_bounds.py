"""Regressions of issue 10 (a hostile client's review of the admin API), each named after what
it protects: the exact requests of findings 2, 13 and 14, replayed through the whole app.
"""

from __future__ import annotations

import pytest

from tests.api.test_admin_api import admin, admin_stack, new_account, new_key  # noqa: F401 - fixtures

INT64_MAX = 2**63 - 1


def test_int64_top_ups_keep_the_balance_an_exact_integer_and_usage_answering(admin, admin_stack):
    name = new_account(admin, credits=10)
    for _ in range(2):
        assert admin.post(f"/admin/v1/accounts/{name}/top-up", json={"credits": INT64_MAX}).status_code == 400
    assert admin.get(f"/admin/v1/accounts/{name}").json()["data"]["balance"] == 10
    assert admin.get(f"/admin/v1/accounts/{name}/usage").status_code == 200
    with admin_stack.client(new_key(admin, name)["key"]) as client:
        answer = client.get("/v1/positions", params={"datetime": "2024-03-20T12:00:00Z", "bodies": "sun"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["meta"]["credits_remaining"] == 9 and '"credits_remaining":9' in answer.text


def test_an_account_created_with_2_pow_63_credits_is_400_not_500(admin):
    response = admin.post("/admin/v1/accounts", json={"name": "two-pow-63", "credits": 2**63})
    assert response.status_code == 400, response.text
    assert response.json()["errors"][0]["param"] == "credits"


@pytest.mark.parametrize("origin", ["https://app.example:443", "http://[::1]:80"])
def test_a_key_origin_with_the_default_port_is_refused(admin, origin):
    name = new_account(admin)
    response = admin.post(f"/admin/v1/accounts/{name}/keys", json={"allowed_origins": [origin]})
    assert response.status_code == 400, response.text
    assert admin.get(f"/admin/v1/accounts/{name}/keys").json()["data"] == []


@pytest.mark.parametrize("name", ["a/b", "nul\x00", "ctl\x1b[31m"], ids=repr)
def test_an_account_name_that_cannot_be_reached_by_name_is_refused(admin, name):
    response = admin.post("/admin/v1/accounts", json={"name": name, "credits": 1})
    assert response.status_code == 400, response.text


def test_the_404_for_a_plain_key_given_as_a_key_id_does_not_repeat_it(admin):
    name = new_account(admin)
    key = new_key(admin, name)["key"]
    response = admin.get(f"/admin/v1/keys/{key}")
    assert response.status_code == 404
    assert key not in response.text and key[len("svc_live_") :] not in response.text
