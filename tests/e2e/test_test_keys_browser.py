"""A test key created in the dashboard, in a real browser (Debian's chromium driven by
Playwright) on the real stack: chosen on the key form, shown once as ``svc_test_``, listed with
a "test" badge, and answered at no cost.

Screenshots go to ``var/test-output/dashboard/``.
"""

from __future__ import annotations

import os
import re

from deploy.local_stack import Stack
from tests.dashboard_client import path_of
from tests.e2e.browser import screenshot_folder

SCREENSHOTS = screenshot_folder("dashboard")
POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun,moon"
PASSWORD = "orbits of the seven sisters"


def test_an_owner_creates_a_test_key_that_is_badged_and_costs_nothing(stack: Stack, chromium):
    account = f"testkey-{os.urandom(4).hex()}"
    stack.admin("account", "create", account, "--credits", "10")
    link = stack.admin("account", "invite", account, f"{account}@example.com").stdout.strip().splitlines()[-1]
    context = chromium.new_context(base_url=stack.base_url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(stack.base_url + path_of(link))
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    page.wait_for_url("**/dashboard/keys")

    page.get_by_label(re.compile("^Name")).fill("CI")
    page.get_by_label(re.compile("^Test key")).check()
    page.get_by_role("button", name="Create key").click()
    assert page.get_by_role("heading", name="Your new test key").is_visible()
    key = page.get_by_label(re.compile("^Key key_")).input_value()
    assert re.fullmatch(r"svc_test_[A-Za-z0-9_-]{32}", key)

    with stack.client(key) as api:
        answers = [api.get(POSITIONS) for _ in range(3)]
    assert [
        (answer.status_code, answer.json()["meta"]["mode"], answer.json()["meta"]["credits_used"]) for answer in answers
    ] == [(200, "test", 0)] * 3

    page.goto("/dashboard/keys")
    row = page.locator("tbody tr", has=page.get_by_role("rowheader", name="CI"))
    assert row.locator(".badge-test").inner_text() == "test"
    assert key not in page.content()
    shot_path = SCREENSHOTS / "test-key.png"
    page.screenshot(path=str(shot_path), full_page=True)
    page.goto("/dashboard/usage")
    assert page.locator("#balance").inner_text() == "10"
    assert page.locator("#requests-30d").inner_text() == "0"
    context.close()
