"""The admin API's ranges and grammars (docs/accounts-and-keys.md): amounts, limits and the
balance stay within their bounds, account names and origins follow their grammars, and no
answer repeats a key sent where something else was expected.

Runs on the admin stack of ``tests/api/test_admin_api.py`` (its fixtures and helpers).
"""

from __future__ import annotations

import pytest

from store.bounds import MAX_BALANCE, MAX_CONCURRENT, RATE_PER_MINUTE
from tests.api.test_admin_api import (  # noqa: F401 - fixtures
    admin,
    admin_stack,
    anonymous,
    new_account,
    new_key,
    no_secret_in,
    ok,
    positions,
)
from tests.api.test_conventions_api import assert_error

#: JSON values that are not an integer in range for any amount or limit.
NOT_AN_AMOUNT = [
    ("fraction", 1.5),
    ("whole-float", 10.0),
    ("true", True),
    ("false", False),
    ("negative", -1),
    ("2^63", 2**63),
    ("2^64", 2**64),  # past 64 bits: JSON parsers read it as a float
    ("word", "lots"),
    ("exponent-string", "1e3"),
    ("5000-digit-string", "9" * 5000),
    ("list", [5]),
]
AMOUNT_IDS = [name for name, _ in NOT_AN_AMOUNT]
AMOUNTS = [value for _, value in NOT_AN_AMOUNT]


def balance_of(admin, account: str) -> int:
    return ok(admin.get(f"/admin/v1/accounts/{account}"))["balance"]


# --- amounts, limits, the balance ------------------------------------------------------------


@pytest.mark.parametrize("credits", [*AMOUNTS, MAX_BALANCE + 1], ids=[*AMOUNT_IDS, "past-the-ceiling"])
def test_an_opening_balance_outside_its_range_is_400_and_creates_no_account(admin, credits):
    response = admin.post("/admin/v1/accounts", json={"name": "bounds-opening", "credits": credits})
    assert_error(response, 400, "invalid_parameter", "credits")
    assert_error(admin.get("/admin/v1/accounts/bounds-opening"), 404, "not_found")


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("rate_per_minute", RATE_PER_MINUTE.maximum + 1),
        ("rate_per_minute", 0),
        ("rate_per_minute", 60.0),
        ("max_concurrent", MAX_CONCURRENT.maximum + 1),
        ("max_concurrent", True),
        ("max_concurrent", 2**63),
    ],
    ids=lambda value: str(value),
)
def test_a_limit_outside_its_range_is_400_on_create_and_on_patch_and_changes_nothing(admin, member, value):
    response = admin.post("/admin/v1/accounts", json={"name": "bounds-limits", "credits": 1, member: value})
    assert_error(response, 400, "invalid_parameter", member)
    assert_error(admin.get("/admin/v1/accounts/bounds-limits"), 404, "not_found")
    account = new_account(admin, rate_per_minute=60, max_concurrent=4)
    assert_error(
        admin.patch(f"/admin/v1/accounts/{account}/limits", json={member: value}), 400, "invalid_parameter", member
    )
    shown = ok(admin.get(f"/admin/v1/accounts/{account}"))
    assert (shown["rate_per_minute"], shown["max_concurrent"]) == (60, 4)


@pytest.mark.parametrize("credits", [*AMOUNTS, 0, MAX_BALANCE + 1], ids=[*AMOUNT_IDS, "zero", "past-the-ceiling"])
def test_a_top_up_outside_its_range_is_400_and_changes_nothing(admin, credits):
    account = new_account(admin, credits=10)
    response = admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": credits})
    assert_error(response, 400, "invalid_parameter", "credits")
    assert balance_of(admin, account) == 10


def test_a_top_up_that_would_take_the_balance_past_the_ceiling_is_400_and_changes_nothing(admin):
    account = new_account(admin, credits=MAX_BALANCE - 5)
    response = admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": 6, "request_id": "past-ceiling"})
    error = assert_error(response, 400, "invalid_parameter", "credits")
    assert str(MAX_BALANCE) in error["message"] + error["suggestion"]
    assert balance_of(admin, account) == MAX_BALANCE - 5
    assert ok(admin.get(f"/admin/v1/accounts/{account}/usage"))["credits_topped_up"] == MAX_BALANCE - 5
    # Up to the ceiling is fine, and the refused request id was not spent.
    top_up = {"credits": 5, "request_id": "past-ceiling"}
    assert ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json=top_up))["balance"] == MAX_BALANCE


def test_the_largest_amounts_and_limits_are_accepted_and_answered_as_integers(admin, anonymous):
    largest = {"rate_per_minute": RATE_PER_MINUTE.maximum, "max_concurrent": MAX_CONCURRENT.maximum}
    account = new_account(admin, credits=MAX_BALANCE, **largest)
    shown = admin.get(f"/admin/v1/accounts/{account}")
    assert f'"balance":{MAX_BALANCE}' in shown.text  # an integer, not 1e15
    assert ok(shown)["rate_per_minute"] == RATE_PER_MINUTE.maximum
    usage = ok(admin.get(f"/admin/v1/accounts/{account}/usage"))
    assert (usage["credits_topped_up"], usage["balance"]) == (MAX_BALANCE, MAX_BALANCE)
    response = positions(anonymous, new_key(admin, account)["key"])
    assert response.status_code == 200, response.text
    assert f'"credits_remaining":{MAX_BALANCE - 1}' in response.text


def test_an_integer_sent_as_a_decimal_string_is_accepted(admin):
    account = new_account(admin, credits=10)
    assert ok(admin.post(f"/admin/v1/accounts/{account}/top-up", json={"credits": " 15 "}))["balance"] == 25


# --- account names ---------------------------------------------------------------------------

BAD_NAMES = [
    "a/b",
    "a\x00b",
    "tab\there",
    "bell\x07",
    "",
    ".",
    "..",
    "-dash-first",
    "x" * 65,
    "café",
    "acct_1",
    "svc_live_x",
]


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
def test_an_account_name_outside_the_name_grammar_is_400_invalid_parameter(admin, name):
    error = assert_error(
        admin.post("/admin/v1/accounts", json={"name": name, "credits": 1}), 400, "invalid_parameter", "name"
    )
    assert "1-64" in error["message"] + error["suggestion"]


def test_every_name_the_grammar_allows_is_reachable_by_name(admin):
    for name in ("Acme.Corp_2", "acct-0123abcd", "9" * 64, "a.-_b"):
        ok(admin.post("/admin/v1/accounts", json={"name": name, "credits": 3}), 201)
        assert ok(admin.get(f"/admin/v1/accounts/{name}"))["name"] == name
        ok(admin.get(f"/admin/v1/accounts/{name}/keys"))


# --- origins ---------------------------------------------------------------------------------

NEVER_SENT_ORIGINS = [
    "https://app.example:443",  # browsers leave the default port out
    "http://app.example:80",
    "http://[::1]:80",
    "HTTPS://app.example",  # browsers send scheme and host lowercase
    "https://APP.example",
    "https://app.example/",
    "https://app.example/path",
    "https://app.example?query",
    "https://app.example#fragment",
    "https://user@app.example",
    "https://user:pw@app.example",
    "ftp://app.example",
    "file://app.example",
    "null",
    "https://bücher.example",  # browsers send the punycode form
    "https://app.example:65536",
    "https://app.example:0443",
    "https://app.example:",
    "http://[0:0:0:0:0:0:0:1]",  # browsers send IPv6 compressed
    "http://127.1",
]
BROWSER_ORIGINS = [
    "https://app.example:8443",
    "http://app.example:443",  # the default port of the other scheme is not a default
    "http://[::1]:8080",
    "http://[::1]",
    "http://127.0.0.1:3000",
    "https://xn--bcher-kva.example",
    "http://localhost",
]


@pytest.mark.parametrize("origin", NEVER_SENT_ORIGINS)
def test_an_origin_a_browser_never_sends_is_400_on_create_and_on_update(admin, origin):
    account = new_account(admin)
    response = admin.post(f"/admin/v1/accounts/{account}/keys", json={"allowed_origins": [origin]})
    assert_error(response, 400, "invalid_parameter", "allowed_origins")
    key_id = new_key(admin, account)["key_id"]
    response = admin.put(f"/admin/v1/keys/{key_id}/origins", json={"allowed_origins": [origin]})
    assert_error(response, 400, "invalid_parameter", "allowed_origins")
    assert ok(admin.get(f"/admin/v1/keys/{key_id}"))["allowed_origins"] == []


def test_a_default_port_is_refused_with_the_origin_browsers_send_instead(admin):
    account = new_account(admin)
    response = admin.post(f"/admin/v1/accounts/{account}/keys", json={"allowed_origins": ["https://app.example:443"]})
    error = assert_error(response, 400, "invalid_parameter", "allowed_origins")
    assert "'https://app.example'" in error["message"]


def test_origins_as_browsers_send_them_are_accepted(admin):
    account = new_account(admin)
    assert new_key(admin, account, allowed_origins=BROWSER_ORIGINS)["allowed_origins"] == BROWSER_ORIGINS


# --- no answer repeats a key -----------------------------------------------------------------


def test_no_admin_answer_repeats_a_key_sent_in_place_of_a_key_id_or_an_account(admin):
    account = new_account(admin)
    plain = new_key(admin, account)["key"]
    for method, path in [
        ("GET", f"/admin/v1/keys/{plain}"),
        ("POST", f"/admin/v1/keys/{plain}/revoke"),
        ("POST", f"/admin/v1/keys/{plain}/rotate"),
        ("PUT", f"/admin/v1/keys/{plain}/origins"),
        ("GET", f"/admin/v1/accounts/{plain}"),
        ("POST", f"/admin/v1/accounts/{plain}/top-up"),
        ("PATCH", f"/admin/v1/accounts/{plain}/limits"),
        ("GET", f"/admin/v1/accounts/{plain}/usage"),
        ("POST", f"/admin/v1/accounts/{plain}/keys"),
        ("GET", f"/admin/v1/accounts/{plain}/keys"),
        ("GET", f"/admin/v1/{plain}"),
        ("DELETE", f"/admin/v1/keys/{plain}"),
    ]:
        body = (
            {"credits": 1, "rate_per_minute": 1, "allowed_origins": []} if method in ("POST", "PATCH", "PUT") else None
        )
        if path.endswith(("/revoke", "/rotate", "/keys")) and method == "POST":
            body = None
        response = admin.request(method, path, json=body)
        assert response.status_code in (400, 404, 405), (method, path, response.text)
        no_secret_in(response.text, plain)
    assert "not a key id" in admin.get(f"/admin/v1/keys/{plain}").json()["errors"][0]["message"]


def test_no_admin_answer_repeats_a_key_sent_as_a_member_or_a_value(admin):
    account = new_account(admin)
    plain = new_key(admin, account)["key"]
    key_id = new_key(admin, account)["key_id"]
    top_up = f"/admin/v1/accounts/{account}/top-up"
    ok(admin.post(top_up, json={"credits": 1, "request_id": plain}))
    for method, path, body, params in [
        ("POST", "/admin/v1/accounts", {"name": "x", "credits": 1, plain: 1}, None),
        ("POST", "/admin/v1/accounts", {"name": plain, "credits": 1}, None),
        ("POST", "/admin/v1/accounts", {"name": "x", "credits": plain}, None),
        ("POST", top_up, {"credits": plain}, None),
        ("POST", top_up, {"credits": 2, "request_id": plain}, None),  # the id reused: 409
        ("PATCH", f"/admin/v1/accounts/{account}/limits", {"max_concurrent": plain}, None),
        ("POST", f"/admin/v1/accounts/{account}/keys", {"allowed_origins": [plain]}, None),
        ("POST", f"/admin/v1/accounts/{account}/keys", {"allowed_origins": [f"https://{plain}.example"]}, None),
        ("POST", f"/admin/v1/accounts/{account}/keys", {"expires_at": plain}, None),
        ("POST", f"/admin/v1/accounts/{account}/keys", {"browser_only": plain}, None),
        ("POST", f"/admin/v1/keys/{key_id}/rotate", {"revoke_old": plain}, None),
        ("PUT", f"/admin/v1/keys/{key_id}/origins", {"allowed_origins": plain}, None),
        ("GET", f"/admin/v1/accounts/{account}/usage", None, {"since": plain}),
        ("GET", f"/admin/v1/accounts/{account}/usage", None, {plain: "1"}),
    ]:
        response = admin.request(method, path, json=body, params=params)
        assert 400 <= response.status_code < 500, (path, body, params, response.text)
        no_secret_in(response.text, plain)


def test_no_v1_error_repeats_a_key_sent_where_something_else_was_expected(admin, anonymous):
    account = new_account(admin)
    created = new_key(admin, account, allowed_origins=["https://app.example"])
    plain = created["key"]
    other = new_key(admin, account)["key"]
    answers = [
        positions(anonymous, plain, origin=f"https://{other}.example"),  # 403 origin_not_allowed
        anonymous.get(
            "/v1/positions",
            params={**{"datetime": "2024-03-20T12:00:00Z"}, "bodies": other},
            headers={"Authorization": f"Bearer {plain}"},
        ),
        anonymous.get("/v1/positions", params={"datetime": other}, headers={"Authorization": f"Bearer {plain}"}),
        anonymous.get("/v1/positions", params={other: "1"}, headers={"Authorization": f"Bearer {plain}"}),
        anonymous.get(f"/v1/{other}", headers={"Authorization": f"Bearer {plain}"}),
        anonymous.get("/v1/positions", headers={"Authorization": f"Bearer {other}x"}),
        anonymous.get("/v1/positions", headers={"X-API-Key": other[:-1]}),
        anonymous.delete("/v1/positions", headers={"Authorization": f"Bearer {plain}", "X-Other": other}),
    ]
    for response in answers:
        assert 400 <= response.status_code < 500, response.text
        no_secret_in(response.text, other)
        assert other[: len("svc_live_") + 8] not in response.text


# --- moments ---------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00"])
def test_a_moment_outside_the_calendar_once_in_utc_is_400_invalid_datetime(admin, moment):
    account = new_account(admin)
    response = admin.post(f"/admin/v1/accounts/{account}/keys", json={"expires_at": moment})
    assert_error(response, 400, "invalid_datetime", "expires_at")
    response = admin.get(f"/admin/v1/accounts/{account}/usage", params={"since": moment})
    assert_error(response, 400, "invalid_datetime", "since")
