"""gateway/dashboard/access_pages.py: the pages of access. Their journeys (invite, sign-in,
password, sign-up) run in tests/api/test_dashboard*_api.py and in a browser in tests/e2e; here,
what the sign-in page is before anyone signs in."""

from __future__ import annotations

from tests.dashboard_client import csrf_of


def test_the_sign_in_page_is_a_form_with_its_csrf_field_and_a_presession_cookie(pages_stack):
    response = pages_stack.client().get("/dashboard/sign-in")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert csrf_of(response.text) and "celestial_presession=" in response.headers["set-cookie"]
