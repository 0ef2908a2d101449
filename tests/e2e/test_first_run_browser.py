"""The first run in a real browser (Debian's chromium through Playwright) on the real stack,
started as `make run` starts it without CELESTIAL_SMTP_URL: sign-up and "forgot password"
work through the development mail catcher, whose outbox the operator opens at the address
the supervisor printed."""

from __future__ import annotations

import os
import re

import pytest

from deploy.local_stack import Stack, start_stack, stop_stack
from tests.e2e.browser import screenshot_folder

SCREENSHOTS = screenshot_folder("first-run")
FIRST_PASSWORD = "orbits of the seven sisters"
SECOND_PASSWORD = "a lantern over the harbour"


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> Stack:
    env_mail = os.environ.pop("CELESTIAL_SMTP_URL", None)
    try:
        stack = start_stack(tmp_path_factory.mktemp("first-run"), {"CELESTIAL_MODE": "development"})
    finally:
        if env_mail is not None:
            os.environ["CELESTIAL_SMTP_URL"] = env_mail
    yield stack
    stop_stack(stack)


def outbox_address(stack: Stack) -> str:
    """Return the outbox address the supervisor printed."""
    return re.search(r"Development outbox: (\S+)", stack.log_path.read_text()).group(1)


def follow_newest_mail(page, outbox: str, email: str, subject: str) -> None:
    """Open the outbox, then the link of the newest mail to ``email`` with ``subject``."""
    page.goto(outbox)
    mail = page.locator("article.mail").filter(has_text=email).filter(has_text=subject).first
    mail.get_by_role("link").click()


def test_a_visitor_signs_up_and_resets_the_password_through_the_development_outbox(first_run: Stack, chromium):
    email = f"first-{os.urandom(4).hex()}@example.com"
    page = chromium.new_context(base_url=first_run.base_url).new_page()
    outbox = outbox_address(first_run)

    page.goto("/dashboard/sign-in")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Create my account").click()
    assert page.get_by_text("look in your mail").is_visible()

    follow_newest_mail(page, outbox, email, "Confirm your Celestial account")
    page.screenshot(path=str(SCREENSHOTS / "01-set-password.png"), full_page=True)
    page.get_by_label("New password").fill(FIRST_PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    assert page.get_by_text("Your first key").is_visible()
    page.get_by_role("button", name="Sign out").click()

    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(FIRST_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/dashboard/keys")
    page.get_by_role("button", name="Sign out").click()

    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Mail me a link").click()
    follow_newest_mail(page, outbox, email, "Set a new Celestial password")
    page.get_by_label("New password").fill(SECOND_PASSWORD)
    page.get_by_role("button", name="Set password and sign in").click()
    page.wait_for_url("**/dashboard/keys")
    page.get_by_role("button", name="Sign out").click()

    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(SECOND_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/dashboard/keys")
    assert page.get_by_text(email).is_visible()


def test_the_outbox_page_is_not_found_without_the_printed_token(first_run: Stack, chromium):
    page = chromium.new_context(base_url=first_run.base_url).new_page()
    answer = page.goto("/dashboard/outbox")
    assert answer.status == 404
