"""Signing in: the password check behind a generic answer, and the throttles that lock an
email, or an address trying many emails, out after repeated failures.

An unknown email is handled exactly as a known one with a wrong password (the same message,
a password check of the same cost, the same failure count and lock-out), so the sign-in form
never tells whether an email has an account. A lock-out is lifted by time, or by the
operator (``celestial-admin owner unlock``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gateway.dashboard.passwords import verify_password
from store.interfaces import DashboardStore
from store.owner_records import OwnerRecord, normalize_email

#: Failed sign-ins per email, per address, within WINDOW_S, before a lock-out of LOCKOUT_S.
#: OWASP's Authentication Cheat Sheet ("Account lockout") leaves the figures to the
#: application: 5 for one email stops guessing while sparing a forgetful owner; 20 for one
#: network address lets an office share a gateway but stops one machine trying many emails.
EMAIL_MAX_FAILURES = 5
ADDRESS_MAX_FAILURES = 20
WINDOW_S = 15 * 60
LOCKOUT_S = 15 * 60

GENERIC_FAILURE = "That email and password do not match an owner, or the account is locked after too many attempts."
LOCKED_OUT = (
    "Too many failed sign-ins from here or for this email: wait 15 minutes, or ask the operator to lift the lock."
)


def email_subject(email: str) -> str:
    """Return the throttle subject of an email (folded as stored; kept as typed if it is no email)."""
    try:
        return "email:" + normalize_email(email)
    except ValueError:
        return "email:" + email.strip().lower()[:254]


def address_subject(address: str) -> str:
    """Return the throttle subject of a client's network address."""
    return "address:" + address


@dataclass(frozen=True)
class SignInOutcome:
    """The owner signed in, or the message to show (generic, or the lock-out)."""

    owner: OwnerRecord | None
    message: str | None = None


async def sign_in(store: DashboardStore, email: str, password: str, address: str) -> SignInOutcome:
    """Return the owner whose ``email`` and ``password`` these are, or why not: a locked
    subject is refused without a password check; a failure counts against the email and the
    address; a success clears the email's failures."""
    now_s = time.time()
    subjects = (email_subject(email), address_subject(address))
    for subject in subjects:
        throttle = await store.get_sign_in_throttle(subject)
        if throttle is not None and throttle.locked(now_s):
            return SignInOutcome(None, LOCKED_OUT)
    owner = await store.find_owner_by_email(email)
    if await verify_password(None if owner is None else owner.password_hash, password):
        await store.clear_sign_in_throttle(subjects[0])
        return SignInOutcome(owner)
    email_after = await store.record_sign_in_failure(subjects[0], now_s, WINDOW_S, EMAIL_MAX_FAILURES, LOCKOUT_S)
    address_after = await store.record_sign_in_failure(subjects[1], now_s, WINDOW_S, ADDRESS_MAX_FAILURES, LOCKOUT_S)
    locked = email_after.locked(now_s) or address_after.locked(now_s)
    return SignInOutcome(None, LOCKED_OUT if locked else GENERIC_FAILURE)


async def unlock(store: DashboardStore, email: str | None = None, address: str | None = None) -> list[str]:
    """Return the subjects whose failures were forgotten and lock-out lifted (the operator's unlock)."""
    subjects = ([email_subject(email)] if email else []) + ([address_subject(address)] if address else [])
    for subject in subjects:
        await store.clear_sign_in_throttle(subject)
    return subjects
