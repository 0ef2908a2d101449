"""gateway/spend_warnings.py: the 80 % warning goes to every owner of the account, saying
whose cap, how much of it is spent and when it resets; with no mail server it is only logged.
Delivered mail is read from a local SMTP sink (tests/smtp_sink.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
import structlog.testing

from gateway.spend_warnings import mail_spend_warnings, warning_text
from shared.runtime.config import load_settings
from store.spend_caps import SpendWarning
from store.sqlite_store import SqliteStore
from tests.smtp_sink import SmtpSink

RESET = datetime(2031, 1, 1, tzinfo=UTC)


@pytest.fixture
def with_store(tmp_path):
    """Return a runner of ``scenario(store)`` on a new SQLite store, opened and closed on one
    event loop (the store's connection belongs to the loop that opened it)."""

    def run(scenario):
        async def opened():
            store = SqliteStore(tmp_path / "store.sqlite")
            try:
                return await scenario(store)
            finally:
                await store.close()

        return asyncio.run(opened())

    return run


def test_the_text_says_whose_cap_how_much_is_spent_and_when_it_resets():
    subject, text = warning_text(
        SpendWarning("acct_1", "key_a", "monthly", 100, 80, RESET), "acme", "https://api.example"
    )
    assert subject == "Celestial: key key_a of account acme has spent 80% of its monthly cap"
    assert "80 of its monthly spend cap of 100 credits" in text and "2031-01-01T00:00:00.000Z" in text
    assert "https://api.example/dashboard/spend-caps" in text


def test_every_owner_of_the_account_gets_the_warning(with_store):
    sink = SmtpSink().start()
    try:
        settings = load_settings({"CELESTIAL_SMTP_URL": sink.url})

        async def scenario(store) -> None:
            account = await store.create_account("acme", 10)
            for email in ("ada@example.com", "bo@example.com"):
                await store.invite_owner("acme", email, "digest-" + email, datetime.now(UTC) + timedelta(hours=1))
            await mail_spend_warnings(store, settings, [SpendWarning(account.id, "", "daily", 10, 8, RESET)])

        with_store(scenario)
        assert [len(sink.mail_to(email)) for email in ("ada@example.com", "bo@example.com")] == [1, 1]
    finally:
        sink.stop()


def test_without_a_mail_server_the_warning_is_only_logged(with_store):
    settings = load_settings({})

    async def scenario(store) -> None:
        account = await store.create_account("acme", 10)
        await store.invite_owner("acme", "ada@example.com", "digest", datetime.now(UTC) + timedelta(hours=1))
        await mail_spend_warnings(store, settings, [SpendWarning(account.id, "", "daily", 10, 8, RESET)])

    with structlog.testing.capture_logs() as logged:
        with_store(scenario)
    assert [(line["event"], line["period"], line["cap"]) for line in logged] == [("spend_cap_warning", "daily", 10)]
