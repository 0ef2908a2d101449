"""gateway/dashboard/visits.py: every page runs on a visit: signed-out visitors go to the sign-in
page (303, RFC 9110 §15.4.4), a post without its CSRF token is refused 403 before it does
anything, and a redirect's notice is named, never echoed."""

from __future__ import annotations

import re

import pytest

from tests.dashboard_client import DashboardClient, signed_in_owner

PASSWORD = "correct horse battery staple orbit"


@pytest.mark.parametrize("path", ["/dashboard/keys", "/dashboard/usage", "/dashboard/password"])
def test_a_signed_out_visitor_is_sent_to_the_sign_in_page(pages_stack, path):
    response = pages_stack.client().get(path)
    assert (response.status_code, response.headers["location"]) == (303, "/dashboard/sign-in")


def test_a_post_without_its_csrf_token_is_refused_before_it_signs_anyone_in(pages_stack):
    email, _ = signed_in_owner(pages_stack, PASSWORD)
    client = pages_stack.client()
    client.get("/dashboard/sign-in")
    refused = client.post("/dashboard/sign-in", data={"email": email, "password": PASSWORD})
    assert refused.status_code == 403 and "Form expired" in refused.text
    assert "celestial_session" not in refused.headers.get("set-cookie", "")


def test_a_post_with_a_wrong_csrf_token_changes_nothing_and_the_right_one_does(pages_stack):
    _, owner = signed_in_owner(pages_stack, PASSWORD)

    def keys() -> int:
        return len(re.findall(r'<tr id="key_', owner.page("/dashboard/keys")))

    refused = owner.http.post("/dashboard/keys", data={"csrf_token": "0" * 64, "name": "sneaky"})
    assert refused.status_code == 403 and keys() == 0
    assert owner.submit("/dashboard/keys", "/dashboard/keys", {"name": "mine"}).status_code == 200
    assert keys() == 1


def test_a_notice_is_shown_by_name_and_text_from_the_url_is_never_echoed(pages_stack):
    client = DashboardClient(pages_stack.client())
    assert "You are signed out." in client.page("/dashboard/sign-in?notice=signed-out")
    assert "planted-text" not in client.page("/dashboard/sign-in?notice=planted-text")
