"""gateway/dashboard/signup.py: sign-up and "forgot password" prove an address by mailing it
a one-time link, answer the same whether the address is known or not, and ration mail per
address and sign-ups per network address each hour (the module's figures). Mail is read from
a local SMTP sink (tests/smtp_sink.py)."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from gateway.dashboard.signup import (
    MAILS_PER_ADDRESS_PER_HOUR,
    SIGNUPS_PER_NETWORK_ADDRESS_PER_HOUR,
    WELCOME_FLAG,
    send_password_link,
    sign_up,
)
from shared.runtime.config import load_settings
from store.owner_records import normalize_email
from store.records import utc_now
from tests.smtp_sink import SmtpSink

NETWORK_ADDRESS = "203.0.113.9"


@pytest.fixture(scope="module")
def smtp():
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture
def settings(smtp, tmp_path):
    return replace(
        load_settings({"CELESTIAL_DATA_DIR": str(tmp_path)}),
        smtp_url=smtp.url,
        signup_credits=250,
        public_url="https://api.example.com",
    )


def _address() -> str:
    return f"new-{os.urandom(4).hex()}@example.com"


def test_a_sign_up_creates_a_funded_account_whose_owner_is_invited_and_mailed_a_welcome_link(
    with_store, settings, smtp
):
    email = _address()

    async def scenario(store):
        await sign_up(store, settings, email.upper(), NETWORK_ADDRESS)
        owner = await store.find_owner_by_email(email)
        return owner, await store.balance(owner.account_id), await store.list_keys(owner.account_id)

    owner, balance, keys = with_store(scenario)
    assert owner.password_hash is None and owner.invite_expires_at > utc_now()
    assert balance == 250 and keys == []  # nobody can use the account before the link is followed
    [message] = smtp.mail_to(email)
    link = SmtpSink.link_in(message)
    assert link.startswith(f"https://api.example.com/dashboard/invite?token={owner.owner_id}.")
    assert link.endswith(WELCOME_FLAG)


def test_signing_up_with_an_owned_address_mails_a_password_link_and_creates_nothing(with_store, settings, smtp):
    email = _address()

    async def scenario(store):
        await sign_up(store, settings, email, NETWORK_ADDRESS)
        first = await store.find_owner_by_email(email)
        await sign_up(store, settings, email, "198.51.100.2")
        return first, await store.find_owner_by_email(email)

    first, again = with_store(scenario)
    assert again.account_id == first.account_id and again.invite_digest != first.invite_digest
    messages = smtp.mail_to(email)
    assert [m["Subject"] for m in messages] == ["Confirm your Celestial account", "Set a new Celestial password"]


def test_a_password_link_goes_to_an_owner_and_nothing_goes_to_a_stranger(with_store, settings, smtp):
    owner_email, stranger = _address(), _address()

    async def scenario(store):
        account = await store.create_account("forgot-" + os.urandom(3).hex(), 1)
        await store.invite_owner(account.id, owner_email, "d" * 64, utc_now())
        await send_password_link(store, settings, owner_email)
        await send_password_link(store, settings, stranger)

    with_store(scenario)
    assert len(smtp.mail_to(owner_email)) == 1
    assert smtp.mail_to(stranger, wait_s=0.3) == []


def test_mail_to_one_address_is_rationed_per_hour(with_store, settings, smtp):
    email = _address()

    async def scenario(store):
        account = await store.create_account("ration-" + os.urandom(3).hex(), 1)
        await store.invite_owner(account.id, email, "d" * 64, utc_now())
        for _ in range(MAILS_PER_ADDRESS_PER_HOUR + 2):
            await send_password_link(store, settings, email)

    with_store(scenario)
    assert len(smtp.mail_to(email, wait_s=0.3)) == MAILS_PER_ADDRESS_PER_HOUR


def test_sign_ups_from_one_network_address_are_rationed_per_hour(with_store, settings, smtp):
    emails = [_address() for _ in range(SIGNUPS_PER_NETWORK_ADDRESS_PER_HOUR + 1)]

    async def scenario(store):
        for email in emails:
            await sign_up(store, settings, email, NETWORK_ADDRESS)
        return [await store.find_owner_by_email(email) is not None for email in emails]

    made = with_store(scenario)
    assert made == [True] * SIGNUPS_PER_NETWORK_ADDRESS_PER_HOUR + [False]


def test_a_sign_up_of_text_that_is_no_email_is_refused(with_store, settings):
    async def scenario(store):
        await sign_up(store, settings, "not an email", NETWORK_ADDRESS)

    with pytest.raises(ValueError):
        with_store(scenario)


def test_a_mail_server_that_cannot_be_reached_does_not_fail_the_sign_up(with_store, settings):
    unreachable = replace(settings, smtp_url="smtp://127.0.0.1:1")
    email = _address()

    async def scenario(store):
        await sign_up(store, unreachable, email, NETWORK_ADDRESS)
        return await store.find_owner_by_email(email)

    assert with_store(scenario) is not None


def test_emails_are_folded_and_checked():
    assert normalize_email(" Ada@Example.COM ") == "ada@example.com"
    for bad in ("ada", "ada@", "@example.com", "a b@example.com", "ada@example", "a@b@example.com"):
        try:
            normalize_email(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
