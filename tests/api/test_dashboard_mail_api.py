"""The dashboard's mail, on the app in process with a local SMTP sink: sign-up (when open)
and "forgot password", each answering the same whether the address is known or not."""

from __future__ import annotations

import json
import os

import pytest

from tests.api.in_process_stack import AppStack
from tests.dashboard_client import DashboardClient, new_key_of
from tests.smtp_sink import SmtpSink

POSITIONS = "/v1/positions?datetime=2024-03-20T12:00:00Z&bodies=sun"
SIGNUP_CREDITS = 250


@pytest.fixture(scope="module")
def smtp():
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture(scope="module")
def stack(module_stacks, smtp) -> AppStack:
    env = {"CELESTIAL_SMTP_URL": smtp.url, "CELESTIAL_SIGNUP": "open", "CELESTIAL_SIGNUP_CREDITS": str(SIGNUP_CREDITS)}
    return module_stacks.in_process("dashboard-mail", env)


def browser(stack: AppStack) -> DashboardClient:
    return DashboardClient(stack.client())


def test_a_visitor_signs_up_confirms_by_mail_and_lands_on_a_funded_account_with_its_first_key(stack, smtp):
    email = f"new-{os.urandom(4).hex()}@example.com"
    visitor = browser(stack)
    assert "Create an account" in visitor.page("/dashboard/sign-in")
    sent = visitor.submit("/dashboard/sign-up", "/dashboard/sign-up", {"email": email})
    assert sent.status_code == 200 and "look in your mail" in sent.text
    (message,) = smtp.mail_to(email)
    assert message["Subject"] == "Confirm your Celestial account"
    link = smtp.link_in(message)
    landed = visitor.accept_invite(link)
    assert landed.status_code == 200 and "Your first key" in landed.text
    key = new_key_of(landed.text)
    with stack.client(key) as api:
        answer = api.get(POSITIONS)
        assert answer.status_code == 200 and answer.json()["meta"]["credits_remaining"] == SIGNUP_CREDITS - 1
    assert "API keys" in visitor.page("/dashboard/keys")


def test_signing_up_with_an_owned_address_mails_a_password_link_and_says_the_same(stack, smtp):
    email = f"twice-{os.urandom(4).hex()}@example.com"
    first = browser(stack).submit("/dashboard/sign-up", "/dashboard/sign-up", {"email": email})
    again = browser(stack).submit("/dashboard/sign-up", "/dashboard/sign-up", {"email": email})
    assert first.text.count("look in your mail") == again.text.count("look in your mail") == 1
    subjects = [m["Subject"] for m in smtp.mail_to(email)]
    assert subjects == ["Confirm your Celestial account", "Set a new Celestial password"]


def test_forgot_password_mails_a_link_to_an_owner_and_nothing_to_a_stranger(stack, smtp):
    account = f"fp-{os.urandom(4).hex()}"
    stack.admin("account", "create", account, "--credits", "5")
    email = f"{account}@example.com"
    browser(stack).accept_invite(stack.admin("account", "invite", account, email).stdout.strip().splitlines()[-1])
    stranger = f"stranger-{os.urandom(4).hex()}@example.com"
    client = browser(stack)
    assert "Forgot your password?" in client.page("/dashboard/sign-in")
    for address in (email, stranger):
        answer = client.submit("/dashboard/forgot", "/dashboard/forgot", {"email": address})
        assert answer.status_code == 200 and "look in your mail" in answer.text
    (message,) = smtp.mail_to(email)
    assert smtp.mail_to(stranger, wait_s=0.5) == []
    assert client.accept_invite(smtp.link_in(message), "a fresh passphrase to remember").status_code == 303
    assert browser(stack).sign_in(email, "a fresh passphrase to remember").status_code == 303
    owners = json.loads(stack.admin("owner", "list", account, "--json").stdout)
    assert owners[0]["has_password"] is True and owners[0]["invite_expires_at"] is None


def test_mail_to_one_address_is_rationed(stack, smtp):
    account = f"fr-{os.urandom(4).hex()}"
    stack.admin("account", "create", account, "--credits", "5")
    email = f"{account}@example.com"
    stack.admin("account", "invite", account, email)
    for _ in range(5):
        browser(stack).submit("/dashboard/forgot", "/dashboard/forgot", {"email": email})
    assert len(smtp.mail_to(email)) == 3


def test_without_smtp_there_is_no_sign_up_nor_forgot_password(module_stacks):
    plain = module_stacks.in_process("dashboard-no-mail", {"CELESTIAL_SIGNUP": "open"})
    client = browser(plain)
    page = client.page("/dashboard/sign-in")
    assert "Create an account" not in page and "Forgot your password?" not in page
    for path in ("/dashboard/sign-up", "/dashboard/forgot"):
        assert "sends no mail" in client.page(path, 404)
