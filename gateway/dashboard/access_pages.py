"""The dashboard's pages of access: sign-in and sign-out, the invite's set-password page, the
password, the forgotten password and sign-up."""

from __future__ import annotations

from typing import Any

import structlog
from starlette.responses import Response

from gateway.dashboard.csrf import csrf_token
from gateway.dashboard.key_pages import keys_page_showing
from gateway.dashboard.passwords import PASSWORD_MIN_CHARS, hash_password, password_problem, verify_password
from gateway.dashboard.sessions import (
    SignedIn,
    clear_session_cookie,
    set_session_cookie,
    start_session,
)
from gateway.dashboard.sign_in import sign_in
from gateway.dashboard.signup import SENT_NOTICE, send_password_link, sign_up
from gateway.dashboard.tokens import split_token
from gateway.dashboard.visits import NOTICES, Visit, redirect
from store.owner_records import InviteNotValid, OwnerRecord, normalize_email, same_digest
from store.records import utc_now

log = structlog.get_logger("celestial.dashboard")


async def home(visit: Visit) -> Response:
    return redirect("/dashboard/keys" if visit.who else "/dashboard/sign-in")


async def sign_in_page(visit: Visit) -> Response:
    if visit.who is not None:
        return redirect("/dashboard/keys")
    notice = NOTICES.get(visit.request.query_params.get("notice", ""))
    return visit.page("sign_in.html", _sign_in_context(visit, notice=notice))


def _sign_in_context(visit: Visit, **values: Any) -> dict[str, Any]:
    return {
        "title": "Sign in",
        "email": "",
        "error": None,
        "notice": None,
        "mail": visit.settings.smtp_url is not None,
        "signup": visit.settings.signup_enabled,
        **values,
    }


async def sign_in_post(visit: Visit) -> Response:
    email = visit.posted("email")
    address = visit.request.client.host if visit.request.client else "unknown"
    outcome = await sign_in(visit.store, email, visit.posted("password"), address)
    if outcome.owner is None:
        log.info("dashboard_sign_in_refused")
        return visit.page("sign_in.html", _sign_in_context(visit, email=email, error=outcome.message), 401)
    if visit.who is not None:
        await visit.store.end_session(visit.who.session.session_id)
    token = await start_session(visit.store, outcome.owner)
    log.info("dashboard_signed_in", owner_id=outcome.owner.owner_id, account_id=outcome.owner.account_id)
    response = redirect("/dashboard/keys")
    set_session_cookie(visit.request, response, token, visit.policy)
    return response


async def sign_out(visit: Visit) -> Response:
    await visit.store.end_session(visit.who.session.session_id)
    log.info("dashboard_signed_out", owner_id=visit.who.owner.owner_id)
    response = redirect("/dashboard/sign-in", "signed-out")
    clear_session_cookie(visit.request, response)
    return response


async def _live_invite(visit: Visit, token: str) -> OwnerRecord | None:
    """Return the owner a live invite token names, or None."""
    parts = split_token(token)
    if parts is None or not parts[0].startswith("own_"):
        return None
    owner = await visit.store.get_owner(parts[0])
    if owner is None or not same_digest(owner.invite_digest, parts[1]):
        return None
    if owner.invite_expires_at is None or owner.invite_expires_at <= utc_now():
        return None
    return owner


def _invite_gone(visit: Visit) -> Response:
    return visit.message(
        "Invite link not valid",
        "This invite link has expired, was already used, or was replaced by a newer one. Ask your operator for a new "
        "invite.",
        410,
    )


async def invite_page(visit: Visit) -> Response:
    token = visit.request.query_params.get("token", "")
    owner = await _live_invite(visit, token)
    if owner is None:
        return _invite_gone(visit)
    return visit.page("set_password.html", _set_password_context(visit, owner, token))


def _set_password_context(visit: Visit, owner: OwnerRecord, token: str, error: str | None = None) -> dict[str, Any]:
    welcome = visit.request.query_params.get("welcome") == "1" or visit.posted("welcome") == "1"
    return {
        "title": "Set your password",
        "email": owner.email,
        "token": token,
        "error": error,
        "min_chars": PASSWORD_MIN_CHARS,
        "welcome": welcome,
    }


async def invite_post(visit: Visit) -> Response:
    token = visit.posted("token")
    owner = await _live_invite(visit, token)
    if owner is None:
        return _invite_gone(visit)
    password = visit.posted("password")
    problem = password_problem(password, owner.email)
    if problem is not None:
        return visit.page("set_password.html", _set_password_context(visit, owner, token, problem), 400)
    try:
        owner = await visit.store.redeem_invite(
            owner.owner_id, split_token(token)[1], await hash_password(password), utc_now()
        )
    except InviteNotValid:
        return _invite_gone(visit)
    log.info("dashboard_password_set", owner_id=owner.owner_id, account_id=owner.account_id)
    token = await start_session(visit.store, owner)
    if visit.posted("welcome") != "1" or await visit.store.list_keys(owner.account_id):
        response = redirect("/dashboard/keys")
    else:
        # A new sign-up's account lands on its first key, shown this once.
        visit.who = await _signed_in_as(visit, owner, token)
        plain, record = await visit.store.create_key(owner.account_id)
        log.info("dashboard_key_created", account_id=record.account_id, key_id=record.key_id, owner_id=owner.owner_id)
        response = await keys_page_showing(
            visit, new_key={"title": "Your first key", "plain": plain, "key_id": record.key_id, "previous": None}
        )
    set_session_cookie(visit.request, response, token, visit.policy)
    return response


async def _signed_in_as(visit: Visit, owner: OwnerRecord, token: str) -> SignedIn:
    """Return the visit's new signed-in state after a session was just started with ``token``
    (so the page rendered in the same answer carries that session's CSRF token)."""
    session_id, secret = token.split(".", 1)
    signed = SignedIn(owner, await visit.store.get_session(session_id), secret)
    visit.csrf = csrf_token(signed, visit.presession)
    return signed


async def password_page(visit: Visit) -> Response:
    notice = NOTICES.get(visit.request.query_params.get("notice", ""))
    return visit.page("password.html", _password_context(notice=notice))


def _password_context(**values: Any) -> dict[str, Any]:
    return {
        "title": "Password",
        "section": "password",
        "min_chars": PASSWORD_MIN_CHARS,
        "error": None,
        "current_error": None,
        "notice": None,
        **values,
    }


async def password_post(visit: Visit) -> Response:
    owner = visit.who.owner
    if not await verify_password(owner.password_hash, visit.posted("current")):
        return visit.page("password.html", _password_context(current_error="That is not your current password."), 400)
    password = visit.posted("password")
    problem = password_problem(password, owner.email)
    if problem is not None:
        return visit.page("password.html", _password_context(error=problem), 400)
    owner = await visit.store.set_password(owner.owner_id, await hash_password(password))
    log.info("dashboard_password_changed", owner_id=owner.owner_id)
    # The change ended every session, this one too: this browser signs in again at once.
    response = redirect("/dashboard/password", "password")
    set_session_cookie(visit.request, response, await start_session(visit.store, owner), visit.policy)
    return response


def _email_form(
    visit: Visit, kind: str, *, email: str = "", error: str | None = None, notice: str | None = None, status: int = 200
) -> Response:
    forms = {
        "forgot": (
            "Forgot your password?",
            "Give your email: if it owns an account, a link to set a new password is mailed to it.",
            "/dashboard/forgot",
            "Mail me a link",
        ),
        "sign-up": (
            "Create an account",
            f"Give your email: a link to confirm it is mailed to you; your account starts with"
            f" {visit.settings.signup_credits:,} credits.",
            "/dashboard/sign-up",
            "Create my account",
        ),
    }
    title, intro, action, button = forms[kind]
    return visit.page(
        "email_form.html",
        {
            "title": title,
            "intro": intro,
            "action": action,
            "button": button,
            "email": email,
            "error": error,
            "notice": notice,
        },
        status,
    )


def _mail_off(visit: Visit, what: str) -> Response:
    return visit.message(
        f"No {what} here", f"This gateway sends no mail, so {what} is off: ask your account's operator.", 404
    )


async def forgot_page(visit: Visit) -> Response:
    if visit.settings.smtp_url is None:
        return _mail_off(visit, "password reset")
    return _email_form(visit, "forgot")


async def forgot_post(visit: Visit) -> Response:
    if visit.settings.smtp_url is None:
        return _mail_off(visit, "password reset")
    email = visit.posted("email")
    try:
        normalize_email(email)
    except ValueError:
        return _email_form(
            visit, "forgot", email=email, error="Give an email address such as ada@example.com.", status=400
        )
    await send_password_link(visit.store, visit.settings, email)
    return _email_form(visit, "forgot", notice=SENT_NOTICE)


async def sign_up_page(visit: Visit) -> Response:
    if not visit.settings.signup_enabled:
        return _mail_off(visit, "sign-up")
    return _email_form(visit, "sign-up")


async def sign_up_post(visit: Visit) -> Response:
    if not visit.settings.signup_enabled:
        return _mail_off(visit, "sign-up")
    email = visit.posted("email")
    address = visit.request.client.host if visit.request.client else "unknown"
    try:
        await sign_up(visit.store, visit.settings, email, address)
    except ValueError:
        return _email_form(
            visit, "sign-up", email=email, error="Give an email address such as ada@example.com.", status=400
        )
    return _email_form(visit, "sign-up", notice=SENT_NOTICE)
