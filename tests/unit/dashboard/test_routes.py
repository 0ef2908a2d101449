"""gateway/dashboard/routes.py: the dashboard's routes on the gateway app in process: signed-out
visitors go to the sign-in page (303, RFC 9110 §15.4.4), a post without its CSRF token is
refused 403 before it does anything, a redirect's notice is named not echoed, an owner can
touch only its own account's keys, and a wrong method is a page with its Allow header
(RFC 9110 §15.5.6)."""

from __future__ import annotations

import os
import re

import pytest

from tests.api.in_process_stack import AppStack
from tests.dashboard_client import DashboardClient, csrf_of


@pytest.fixture(scope="module")
def stack(module_stacks) -> AppStack:
    return module_stacks.in_process("dashboard-routes", {"CELESTIAL_KEY_CACHE_S": "0"})


PASSWORD = "correct horse battery staple orbit"


def _signed_in_owner(stack: AppStack) -> tuple[str, DashboardClient]:
    """Return (email, a browser signed in as the owner of a new account)."""
    account = f"routes-{os.urandom(4).hex()}"
    email = f"{account}@example.com"
    stack.admin("account", "create", account, "--credits", "10")
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    client = DashboardClient(stack.client())
    assert client.accept_invite(link, PASSWORD).status_code == 303
    return email, client


def test_the_sign_in_page_is_a_form_with_its_csrf_field_and_a_presession_cookie(stack):
    response = stack.client().get("/dashboard/sign-in")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert csrf_of(response.text) and "celestial_presession=" in response.headers["set-cookie"]


@pytest.mark.parametrize("path", ["/dashboard/keys", "/dashboard/usage", "/dashboard/password"])
def test_a_signed_out_visitor_is_sent_to_the_sign_in_page(stack, path):
    response = stack.client().get(path)
    assert (response.status_code, response.headers["location"]) == (303, "/dashboard/sign-in")


def test_a_post_without_its_csrf_token_is_refused_before_it_signs_anyone_in(stack):
    email, _ = _signed_in_owner(stack)
    client = stack.client()
    client.get("/dashboard/sign-in")
    refused = client.post("/dashboard/sign-in", data={"email": email, "password": PASSWORD})
    assert refused.status_code == 403 and "Form expired" in refused.text
    assert "celestial_session" not in refused.headers.get("set-cookie", "")


def test_a_post_with_a_wrong_csrf_token_changes_nothing_and_the_right_one_does(stack):
    _, owner = _signed_in_owner(stack)

    def keys() -> int:
        return len(re.findall(r'<tr id="key_', owner.page("/dashboard/keys")))

    refused = owner.http.post("/dashboard/keys", data={"csrf_token": "0" * 64, "name": "sneaky"})
    assert refused.status_code == 403 and keys() == 0
    assert owner.submit("/dashboard/keys", "/dashboard/keys", {"name": "mine"}).status_code == 200
    assert keys() == 1


def test_a_notice_is_shown_by_name_and_text_from_the_url_is_never_echoed(stack):
    client = DashboardClient(stack.client())
    assert "You are signed out." in client.page("/dashboard/sign-in?notice=signed-out")
    assert "planted-text" not in client.page("/dashboard/sign-in?notice=planted-text")


def test_an_owner_cannot_see_or_touch_another_accounts_key(stack):
    _, ada = _signed_in_owner(stack)
    _, bo = _signed_in_owner(stack)
    created = ada.submit("/dashboard/keys", "/dashboard/keys", {"name": "ada's"})
    key_id = re.search(r"/dashboard/keys/(key_[0-9a-f]+)/revoke", created.text).group(1)
    assert "No such key" in bo.page(f"/dashboard/keys/{key_id}/revoke", 404)
    answer = bo.http.post(f"/dashboard/keys/{key_id}/revoke", data={"csrf_token": csrf_of(bo.page("/dashboard/keys"))})
    assert answer.status_code == 404
    assert ada.page(f"/dashboard/keys/{key_id}/revoke")  # still Ada's, still there to revoke


def test_a_wrong_method_is_a_page_that_names_the_allowed_ones(stack):
    response = stack.client().put("/dashboard/sign-in")
    assert response.status_code == 405 and response.headers["content-type"].startswith("text/html")
    assert set(response.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


def test_every_file_the_dashboard_reads_ships_in_the_package():
    """A non-editable install (the container image's ``pip install .``) carries only the
    package data pyproject.toml names: every static file and data file must match."""
    import fnmatch
    import tomllib

    from shared.runtime.config import REPO_ROOT

    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "gateway.dashboard"
    ]
    folder = REPO_ROOT / "gateway" / "dashboard"
    data = [
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
    ]
    assert data and all(any(fnmatch.fnmatch(name, pattern) for pattern in patterns) for name in data), data
