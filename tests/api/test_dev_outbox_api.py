"""The development outbox page on the app in process, its mail caught by the development mail
catcher: the operator reads a sign-up's mail with its link clickable; in production mode the
page does not exist, token or not."""

from __future__ import annotations

import os
import re

import pytest

from deploy.mail_catcher import MailCatcher
from tests.api.in_process_stack import AppStack
from tests.dashboard_client import DashboardClient

TOKEN = "outbox-token-for-tests"


@pytest.fixture(scope="module")
def catcher(tmp_path_factory):
    running = MailCatcher(tmp_path_factory.mktemp("outbox")).start()
    yield running
    running.stop()


def _settings_of(catcher: MailCatcher, mode: str) -> dict[str, str]:
    return {
        "CELESTIAL_MODE": mode,
        "CELESTIAL_SMTP_URL": catcher.url,
        "CELESTIAL_SIGNUP": "open",
        "CELESTIAL_DEV_OUTBOX_TOKEN": TOKEN,
    }


@pytest.fixture(scope="module")
def development(module_stacks, catcher) -> AppStack:
    stack = module_stacks.in_process("outbox-development", _settings_of(catcher, "development"))
    # As make run's catcher does: write where this gateway reads, its data folder's outbox.
    catcher.folder = stack.settings.dev_outbox_dir
    return stack


@pytest.fixture(scope="module")
def production(module_stacks, catcher) -> AppStack:
    return module_stacks.in_process("outbox-production", _settings_of(catcher, "production"))


def test_the_operator_reads_a_sign_up_mail_in_the_outbox_with_its_link_clickable(development):
    email = f"first-{os.urandom(4).hex()}@example.com"
    visitor = DashboardClient(development.client())
    visitor.submit("/dashboard/sign-up", "/dashboard/sign-up", {"email": email})
    page = visitor.page(f"/dashboard/outbox?token={TOKEN}")
    assert email in page and "Confirm your Celestial account" in page
    assert re.search(r'<a href="http://[^"]+/dashboard/invite\?token=own_[^"]+&amp;welcome=1">', page)


def test_the_outbox_without_its_token_is_the_plain_not_found_page(development):
    with development.client() as visitor:
        answer = visitor.get("/dashboard/outbox")
        unknown = visitor.get("/dashboard/no-such-page")
    assert answer.status_code == 404 and answer.text == unknown.text


def test_in_production_mode_the_outbox_is_not_found_even_with_its_token(production):
    with production.client() as visitor:
        answer = visitor.get(f"/dashboard/outbox?token={TOKEN}")
    assert answer.status_code == 404 and "Development outbox" not in answer.text
