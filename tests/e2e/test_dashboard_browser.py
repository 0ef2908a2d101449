"""The dashboard's journey in a real browser (Debian's chromium driven by Playwright) on the
real stack: invite link, password, sign-in, a key created and used, balance and usage moving,
origins restricted, rotation, revocation, sign-out, and a stolen cookie refused.

Screenshots of each page go to ``var/test-output/dashboard/`` (docs/dashboard-*.png come from there),
those of the accessibility check in both colour schemes.
"""

from __future__ import annotations

import os
import re
import time

import httpx
import pytest

from deploy.local_stack import Stack
from tests.dashboard_client import path_of
from tests.e2e.browser import screenshot_folder

SCREENSHOTS = screenshot_folder("dashboard")
POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun,moon"
PASSWORD = "orbits of the seven sisters"
#: How long a key change may take to reach the gateway: its change feed polls every 0.2 s.
PROPAGATION_S = 5.0


def shot(page, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def eventually(check, what: str) -> None:
    """Wait until ``check()`` is true, for at most PROPAGATION_S."""
    deadline = time.monotonic() + PROPAGATION_S
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_an_owner_signs_in_and_runs_a_key_through_its_whole_life(stack: Stack, chromium):
    account = f"journey-{os.urandom(4).hex()}"
    email = f"{account}@example.com"
    stack.admin("account", "create", account, "--credits", "1000")
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    context = chromium.new_context(base_url=stack.base_url, viewport={"width": 1280, "height": 900})
    page = context.new_page()

    page.goto(stack.base_url + path_of(link))
    shot(page, "01-set-password")
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    page.wait_for_url("**/dashboard/keys")
    assert page.get_by_role("heading", name="API keys").is_visible()

    page.get_by_label(re.compile("^Name")).fill("web front end")
    page.get_by_role("button", name="Create key").click()
    key = page.get_by_label(re.compile("^Key key_")).input_value()
    assert re.fullmatch(r"svc_live_[A-Za-z0-9_-]{32}", key)
    assert page.get_by_text("cannot be shown again").is_visible()
    assert page.get_by_role("button", name="Copy").is_visible()  # the script revealed it
    shot(page, "02-key-created")

    with stack.client(key) as api:
        for _ in range(3):
            assert api.get(POSITIONS).status_code == 200
    page.goto("/dashboard/usage")
    assert page.locator("#balance").inner_text() == "997"
    assert page.locator("#requests-30d").inner_text() == "3"
    assert page.locator("#recent tbody tr").count() == 3
    shot(page, "03-usage")

    page.goto("/dashboard/keys")
    key_id = page.locator("tbody tr").first.get_attribute("id")
    page.get_by_role("link", name="Edit origins of web front end").click()
    page.get_by_label("Allowed origins").fill("https://app.example/oops")
    page.get_by_role("button", name="Save origins").click()
    assert page.locator("#origins-error").is_visible()
    page.get_by_label("Allowed origins").fill("https://app.example")
    page.get_by_role("button", name="Save origins").click()
    page.wait_for_url("**/dashboard/keys?notice=origins")
    with stack.client(key, {"Origin": "https://other.example"}) as foreign:
        eventually(lambda: foreign.get(POSITIONS).status_code == 403, "another origin is refused")
        assert foreign.get(POSITIONS).json()["errors"][0]["code"] == "origin_not_allowed"
    with stack.client(key, {"Origin": "https://app.example"}) as own:
        assert own.get(POSITIONS).status_code == 200

    page.get_by_role("button", name=re.compile("^Rotate")).click()
    successor = page.get_by_label(re.compile("^Key key_")).input_value()
    assert successor != key and page.get_by_text(f"{key_id}, stays active").is_visible()
    shot(page, "04-rotated")
    page.goto(f"/dashboard/keys/{key_id}/revoke")
    shot(page, "05-revoke-confirmation")
    page.get_by_role("button", name=re.compile("^Revoke")).click()
    page.wait_for_url("**/dashboard/keys?notice=revoked")
    shot(page, "06-keys")
    with stack.client(key) as old, stack.client(successor, {"Origin": "https://app.example"}) as new:
        eventually(lambda: old.get(POSITIONS).status_code == 401, "the revoked key is refused")
        assert new.get(POSITIONS).status_code == 200

    (cookie,) = [c for c in context.cookies() if c["name"] == "celestial_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/dashboard/sign-in?notice=signed-out")
    with httpx.Client(base_url=stack.base_url, cookies={"celestial_session": cookie["value"]}) as thief:
        stolen = thief.get("/dashboard/keys")
        assert (stolen.status_code, stolen.headers["location"]) == (303, "/dashboard/sign-in")

    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill("not my password at all")
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("alert").inner_text().startswith("That email and password do not match")
    shot(page, "07-sign-in-refused")
    context.close()


def test_a_page_works_without_javascript(stack: Stack, chromium):
    context = chromium.new_context(base_url=stack.base_url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/dashboard/sign-in")
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_label("Password").fill("whatever it may be")
    page.get_by_role("button", name="Sign in").click()
    assert "do not match" in page.get_by_role("alert").inner_text()
    context.close()


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_every_page_has_no_serious_accessibility_violation(stack: Stack, chromium, color_scheme):
    """axe-core (vendored in axe-playwright-python) on each page, in both colour schemes:
    labels, contrast, landmarks, names of buttons and links."""
    from axe_playwright_python.sync_playwright import Axe

    account = f"axe-{os.urandom(4).hex()}"
    email = f"{account}@example.com"
    stack.admin("account", "create", account, "--credits", "10")
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    # bypass_csp: the pages allow scripts from the gateway only, and axe is injected by the test.
    context = chromium.new_context(base_url=stack.base_url, color_scheme=color_scheme, bypass_csp=True)
    page = context.new_page()
    axe = Axe()
    serious: dict[str, list[str]] = {}

    def check(name: str) -> None:
        shot(page, f"{color_scheme}-{name}")
        violations = axe.run(page).response["violations"]
        found = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
        if found:
            serious[name] = found

    page.goto("/dashboard/sign-in")
    check("sign-in")
    page.goto(stack.base_url + path_of(link))
    check("set-password")
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    page.wait_for_url("**/dashboard/keys")
    page.get_by_role("button", name="Create key").click()
    check("key-created")
    key_id = page.locator("tbody tr").first.get_attribute("id")
    pages = {
        "keys": "/dashboard/keys",
        "usage": "/dashboard/usage",
        "password": "/dashboard/password",
        "spend-caps": "/dashboard/spend-caps",
        "revoke": f"/dashboard/keys/{key_id}/revoke",
        "origins": f"/dashboard/keys/{key_id}/origins",
    }
    for name, path in pages.items():
        page.goto(path)
        check(name)
    context.close()
    assert serious == {}


def test_at_390_px_wide_no_dashboard_page_runs_off_screen(stack: Stack, chromium):
    """Issue 36: on a phone (390 px) the keys table ran off the right edge. Each page's content
    fits the viewport's width (its rows become labelled cards), with a key of long origins,
    one used, one revoked, and the usage page's requests."""
    account = f"narrow-{os.urandom(4).hex()}"
    email = f"{account}@example.com"
    stack.admin("account", "create", account, "--credits", "100")
    link = stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1]
    context = chromium.new_context(base_url=stack.base_url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(stack.base_url + path_of(link))
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    page.wait_for_url("**/dashboard/keys")
    page.get_by_label(re.compile("^Name")).fill("production backend")
    page.get_by_role("button", name="Create key").click()
    key = page.get_by_label(re.compile("^Key key_")).input_value()
    page.goto("/dashboard/keys")
    page.get_by_label(re.compile("^Name")).fill("web front end")
    page.get_by_label("Allowed origins").fill(
        "https://astrology-app.example.com\nhttps://www.another-long-name.example.org"
    )
    page.get_by_label(re.compile("^Browser-only")).check()
    page.get_by_role("button", name="Create key").click()
    with stack.client(key) as api:
        assert api.get(POSITIONS).status_code == 200
    too_wide = {}
    narrow = {
        "keys": "/dashboard/keys",
        "usage": "/dashboard/usage",
        "password": "/dashboard/password",
        "spend-caps": "/dashboard/spend-caps",
    }
    for name, path in narrow.items():
        page.goto(path)
        shot(page, f"390px-{name}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            too_wide[name] = width
    context.close()
    assert too_wide == {}
