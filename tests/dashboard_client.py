"""A non-browser client of the dashboard, as any HTTP client can drive it: it keeps cookies,
reads each page's CSRF field and posts plain forms (shared by the in-process API tests and
the end-to-end journey)."""

from __future__ import annotations

import html
import os
import re
from urllib.parse import parse_qs, urlsplit

import httpx

_CSRF = re.compile(r'name="csrf_token" value="([^"]*)"')
_NEW_KEY = re.compile(r'id="new-key-value"[^>]*value="(svc_(?:live|test)_[A-Za-z0-9_-]{32})"')
_STRONG_PASSWORD = "correct horse battery staple orbit"


def csrf_of(page: str) -> str:
    """Return the CSRF token the forms of ``page`` carry."""
    found = _CSRF.search(page)
    assert found, "the page has no form with a CSRF field"
    return html.unescape(found.group(1))


def new_key_of(page: str) -> str:
    """Return the plain key a page shows once."""
    found = _NEW_KEY.search(page)
    assert found, "the page shows no new key"
    return found.group(1)


def path_of(link: str) -> str:
    """Return the path and query of a link (an invite link names the gateway's public address)."""
    parts = urlsplit(link)
    return parts.path + (f"?{parts.query}" if parts.query else "")


class DashboardClient:
    """One browser's worth of dashboard: its cookies, and the forms it posts."""

    def __init__(self, client: httpx.Client):
        self.http = client

    def page(self, path: str, status: int = 200) -> str:
        response = self.http.get(path)
        assert response.status_code == status, (path, response.status_code, response.text[:500])
        return response.text

    def submit(self, page_path: str, action: str, fields: dict[str, str]) -> httpx.Response:
        """Return the answer to posting ``fields`` to ``action`` with the CSRF token of ``page_path``."""
        token = csrf_of(self.page(page_path))
        return self.http.post(action, data={"csrf_token": token, **fields})

    def accept_invite(self, link: str, password: str = _STRONG_PASSWORD) -> httpx.Response:
        """Return the answer to setting ``password`` on the invite ``link`` (the invite page's
        own answer when it has no form: an expired or used link)."""
        path = path_of(link)
        page = self.http.get(path)
        if page.status_code != 200:
            return page
        query = parse_qs(urlsplit(link).query)
        fields = {"csrf_token": csrf_of(page.text), "token": query["token"][0], "password": password}
        if "welcome" in query:
            fields["welcome"] = query["welcome"][0]
        return self.http.post("/dashboard/invite", data=fields)

    def sign_in(self, email: str, password: str = _STRONG_PASSWORD) -> httpx.Response:
        return self.submit("/dashboard/sign-in", "/dashboard/sign-in", {"email": email, "password": password})

    def create_key(self, **fields: str) -> str:
        """Return the plain key of a key created through the keys page."""
        response = self.submit("/dashboard/keys", "/dashboard/keys", fields)
        assert response.status_code == 200, response.text[:500]
        return new_key_of(response.text)


def signed_in_owner(stack, password: str = _STRONG_PASSWORD) -> tuple[str, DashboardClient]:
    """Return (email, a browser signed in as the owner of a new account of ``stack``, an
    in-process or real stack with ``admin`` and ``client``) with ``password``."""
    account = f"owner-{os.urandom(4).hex()}"
    email = f"{account}@example.com"
    stack.admin("account", "create", account, "--credits", "10")
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    client = DashboardClient(stack.client())
    assert client.accept_invite(link, password).status_code == 303
    return email, client
