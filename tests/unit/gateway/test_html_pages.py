"""gateway/html_pages.py: every HTML page (the dashboard's, /pricing) is complete HTML with the headers the
module promises: no-store (RFC 9111 §5.2.2.5), no framing (CSP frame-ancestors, X-Frame-Options),
no Referer (an invite token must not leak) and scripts and styles from the gateway only;
the text of a page is escaped; and every file the pages read ships in the package."""

from __future__ import annotations

from gateway.html_pages import render_message, render_page
from tests.unit.dashboard.requests_for_tests import request_with


def test_every_page_carries_no_store_no_framing_no_referrer_and_a_self_only_policy():
    response = render_message(request_with(), "Title", "Message", 404)
    headers = response.headers
    assert headers["cache-control"] == "no-store"
    assert headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"
    policy = dict(part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'" and policy["style-src"] == "'self'"


def test_a_message_page_has_its_status_and_escapes_its_text():
    response = render_message(request_with(), "<Title>", "a & <script>b</script>", 410)
    body = response.body.decode()
    assert response.status_code == 410 and response.media_type == "text/html"
    assert "&lt;script&gt;" in body and "<script>b" not in body and "&lt;Title&gt;" in body
    assert body.lstrip().lower().startswith("<!doctype html>")


def test_a_page_renders_its_template_with_the_context():
    response = render_page(
        request_with(),
        "sign_in.html",
        {
            "title": "Sign in",
            "email": "ada@example.com",
            "error": None,
            "notice": None,
            "mail": False,
            "signup": False,
            "who": None,
            "csrf": "tok<en>",
        },
    )
    body = response.body.decode()
    assert 'name="csrf_token" value="tok&lt;en&gt;"' in body and 'value="ada@example.com"' in body


def test_every_template_ships_in_the_package():
    """A non-editable install (the container image's ``pip install .``) carries only the
    package data pyproject.toml names: every template must match."""
    import fnmatch
    import tomllib

    from gateway.html_pages import TEMPLATES_DIR
    from shared.runtime.config import REPO_ROOT

    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "gateway"
    ]
    folder = REPO_ROOT / "gateway"
    data = [p.relative_to(folder).as_posix() for p in TEMPLATES_DIR.rglob("*") if p.is_file()]
    assert data and all(any(fnmatch.fnmatch(name, pattern) for pattern in patterns) for name in data), data
