"""Sign-up and "forgot password": both prove an address by mailing it a one-time link (the
invite link of ``invites.py``), and both answer the same whether the address is known or not.

Sign-up creates the account at once, with the configured grant of credits, but nobody can use
it before the link is followed: the account has no key and its owner no password until then.
Mail to one address, and sign-ups from one network address, are rationed (below), so the
forms cannot be used to flood a mailbox or fill the store.
"""

from __future__ import annotations

import re
import secrets
import time

import structlog

from gateway.dashboard.invites import INVITE_VALID_FOR, invite_owner
from shared.runtime.config import Settings
from shared.runtime.mail import MailNotSent, send_mail
from store.errors import AccountExists
from store.interfaces import DashboardStore
from store.owner_records import OwnerElsewhere, normalize_email

log = structlog.get_logger("celestial.dashboard")

#: Mails to one address per hour, and sign-ups from one network address per hour: a person
#: who mistypes or loses a mail asks again once or twice; more is someone else's doing.
MAILS_PER_ADDRESS_PER_HOUR = 3
SIGNUPS_PER_NETWORK_ADDRESS_PER_HOUR = 10
_HOUR_S = 3600.0
_NAME_CHARS = re.compile(r"[^a-z0-9]+")

#: Added to a sign-up's link: the set-password page then lands the new owner on a first key.
WELCOME_FLAG = "&welcome=1"

SENT_NOTICE = (
    "If this address can have that link, it is on its way: look in your mail. The link works once, for 24 hours."
)


async def _may_mail(store: DashboardStore, subject: str, per_hour: int) -> bool:
    """Return whether one more mail (or sign-up) is allowed for ``subject`` this hour, and count it."""
    now_s = time.time()
    current = await store.get_sign_in_throttle(subject)
    if current is not None and current.locked(now_s):
        return False
    await store.record_sign_in_failure(subject, now_s, _HOUR_S, per_hour, _HOUR_S)
    return True


async def _mail_link(settings: Settings, to: str, subject: str, intro: str, link: str) -> None:
    hours = int(INVITE_VALID_FOR.total_seconds() // 3600)
    text = (
        f"{intro}\n\n{link}\n\nThe link works once, for {hours} hours. If you did not ask for it, ignore this mail.\n"
    )
    try:
        await send_mail(settings.smtp_url, settings.mail_from, to, subject, text)
    except MailNotSent as exc:
        log.warning("dashboard_mail_not_sent", error=str(exc))


async def send_password_link(store: DashboardStore, settings: Settings, email: str) -> None:
    """Mail a link to set a new password to the owner of ``email``, if there is one and it has
    not had its ration of mail this hour; otherwise do nothing (the page says the same)."""
    owner = await store.find_owner_by_email(email)
    if owner is None or not await _may_mail(store, f"mail:{owner.email}", MAILS_PER_ADDRESS_PER_HOUR):
        return
    invitation = await invite_owner(store, settings.base_url, owner.account_id, owner.email)
    log.info("dashboard_password_link_sent", owner_id=owner.owner_id)
    await _mail_link(
        settings,
        owner.email,
        "Set a new Celestial password",
        "Someone (you, we hope) asked to set a new password for your Celestial dashboard. Follow this link to choose "
        "it:",
        invitation.link,
    )


def _account_name_for(email: str) -> str:
    """Return a fresh account name made from the email's local part and random digits."""
    stem = _NAME_CHARS.sub("-", email.split("@")[0]).strip("-")[:24] or "account"
    return f"{stem}-{secrets.token_hex(4)}"


async def sign_up(store: DashboardStore, settings: Settings, email: str, network_address: str) -> None:
    """Create an account for ``email`` with its owner invited, and mail the link; an email that
    already owns an account gets a link to set a new password instead. Raises ValueError for
    text that is no email; does nothing past the hour's ration."""
    email = normalize_email(email)
    if not await _may_mail(store, f"signup:{network_address}", SIGNUPS_PER_NETWORK_ADDRESS_PER_HOUR):
        return
    if await store.find_owner_by_email(email) is not None:
        await send_password_link(store, settings, email)
        return
    if not await _may_mail(store, f"mail:{email}", MAILS_PER_ADDRESS_PER_HOUR):
        return
    while True:
        try:
            account = await store.create_account(_account_name_for(email), settings.signup_credits)
            break
        except AccountExists:
            continue  # 32 random bits collided with a taken name: draw again
    try:
        invitation = await invite_owner(store, settings.base_url, account.id, email)
    except OwnerElsewhere:
        # A sign-up of the same address made at the same moment won: its mail is on its way,
        # and this account, with no owner and no key, can never be used.
        log.warning("dashboard_sign_up_raced", account_id=account.id)
        return
    log.info("dashboard_signed_up", account_id=account.id, owner_id=invitation.owner.owner_id)
    await _mail_link(
        settings,
        email,
        "Confirm your Celestial account",
        f"Welcome to Celestial. Your account {account.name} is ready with {settings.signup_credits:,} credits."
        " Follow this link to confirm your address, choose a password and get your first API key:",
        invitation.link + WELCOME_FLAG,
    )
