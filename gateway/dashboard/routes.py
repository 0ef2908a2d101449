"""The dashboard's routes under ``/dashboard``: sign-in and sign-out, the invite's
set-password page, the password, the keys and their actions, and balance and usage.

Every form is a plain HTML post with its CSRF field, answered by a redirect (303), except
the two that show a new key once (create, rotate): they answer the page with the key in it,
``no-store``, since a key may be kept nowhere to be shown after a redirect. A post without
its CSRF token is refused (403) before it does anything; every error is a page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import structlog
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.admin.operations import find_account, key_view, rotate_key
from gateway.dashboard.charts import bar_chart_svg
from gateway.dashboard.csrf import CSRF_FIELD, csrf_token, csrf_valid, keep_presession, presession_secret
from gateway.dashboard.outbox import outbox_page
from gateway.dashboard.passwords import PASSWORD_MIN_CHARS, hash_password, password_problem, verify_password
from gateway.dashboard.sessions import (
    SessionPolicy,
    SignedIn,
    clear_session_cookie,
    set_session_cookie,
    signed_in,
    start_session,
)
from gateway.dashboard.sign_in import sign_in
from gateway.dashboard.signup import SENT_NOTICE, send_password_link, sign_up
from gateway.dashboard.spend_caps_form import cap_rows, read_cap_fields
from gateway.dashboard.tokens import split_token
from gateway.dashboard.try_it import terminal_key
from gateway.dashboard.usage import RECENT_REQUESTS, usage_figures, usage_window_start
from gateway.html_pages import render_message, render_page
from gateway.key_modes import limits_for_test_keys
from gateway.utc_text import iso
from gateway.webhooks import delivery_view, webhook_view
from shared.runtime.config import Settings
from store.bounds import validate_key_name
from store.errors import StoreError, StoreUnavailable
from store.interfaces import DashboardStore
from store.key_format import KEY_MODES, exception_message, shown_prefix
from store.origins import validate_origins
from store.owner_records import InviteNotValid, OwnerRecord, normalize_email, same_digest
from store.records import KeyRecord, utc_now
from store.webhook_records import KEEP_DELIVERIES

log = structlog.get_logger("celestial.dashboard")

#: The dashboard's stylesheet and script, served under /dashboard/static.
STATIC_DIR = Path(__file__).with_name("static")

#: Largest number of fields a dashboard form may post (the biggest has five).
MAX_FORM_FIELDS = 16
#: Notices a redirect may ask a page to show, by name (a page never echoes text from a URL).
NOTICES = {
    "signed-out": "You are signed out.",
    "revoked": "The key is revoked; every gateway refuses it within about a second.",
    "origins": "The key's origins are saved.",
    "password": "Your password is changed; other sessions are signed out.",
    "caps": "The spend caps are saved; every gateway applies them to the next request.",
}


@dataclass
class Visit:
    """One dashboard request: the store, who is signed in, the posted form, and the CSRF token
    its page's forms carry."""

    request: Request
    store: DashboardStore
    settings: Settings
    policy: SessionPolicy
    who: SignedIn | None
    csrf: str
    presession: str
    form: FormData | None = None

    def page(self, template: str, context: dict[str, Any], status: int = 200) -> Response:
        """Return the page ``template`` with the visit's common context."""
        return render_page(self.request, template, {"who": self.who, "csrf": self.csrf, **context}, status)

    def message(self, title: str, message: str, status: int) -> Response:
        """Return a page that says ``message``."""
        return render_message(self.request, title, message, status, who=self.who, csrf=self.csrf)

    def posted(self, name: str) -> str:
        """Return the posted field ``name`` as text ('' if absent or a file)."""
        value = None if self.form is None else self.form.get(name)
        return value if isinstance(value, str) else ""


class NotYours(LookupError):
    """A key id that is not one of the signed-in owner's account (or no key at all)."""


Handler = Callable[[Visit], Awaitable[Response]]


def _redirect(path: str, notice: str | None = None) -> RedirectResponse:
    return RedirectResponse(path + (f"?{urlencode({'notice': notice})}" if notice else ""), status_code=303)


def _page(handler: Handler, *, signed_in_only: bool = True) -> Callable[[Request], Awaitable[Response]]:
    """Return the endpoint that runs ``handler`` on a :class:`Visit`: signed-in pages send a
    visitor to the sign-in page, posts are refused without their CSRF token, and whatever
    the handler raises becomes an error page."""

    async def endpoint(request: Request) -> Response:
        gateway = request.app.state.gateway
        store = gateway.store
        presession = presession_secret(request)
        settings = gateway.settings
        visit = Visit(
            request,
            store,
            settings,
            SessionPolicy(settings.session_idle_s, settings.session_absolute_s),
            None,
            csrf_token(None, presession),
            presession,
        )
        try:
            if not isinstance(store, DashboardStore):
                return visit.message("Dashboard off", "The dashboard needs the SQLite or NATS store.", 404)
            visit.who = await signed_in(store, request, visit.policy)
            visit.csrf = csrf_token(visit.who, presession)
            if signed_in_only and visit.who is None:
                response: Response = _redirect("/dashboard/sign-in")
            elif request.method == "POST" and not await _csrf_checked(visit):
                response = visit.message(
                    "Form expired",
                    "This form was not sent from this dashboard page, or it has expired. Go back, reload the page "
                    "and send it again.",
                    403,
                )
            else:
                response = await handler(visit)
        except NotYours:
            response = visit.message("No such key", "This account has no key with that id.", 404)
        except StoreUnavailable:
            response = visit.message(
                "Try again shortly", "The account store cannot be reached; nothing was changed.", 503
            )
        except Exception:
            log.error("dashboard_error", exc_info=True)
            response = visit.message(
                "Something went wrong", "The dashboard failed to answer; nothing more was changed.", 500
            )
        if visit.who is None:
            keep_presession(request, response, presession)
        return response

    return endpoint


async def _csrf_checked(visit: Visit) -> bool:
    """Read the posted form into the visit; return whether its CSRF token is right."""
    visit.form = await visit.request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    return csrf_valid(visit.request, visit.form.get(CSRF_FIELD), visit.who)


# --- signing in and out ------------------------------------------------------------------------


async def home(visit: Visit) -> Response:
    return _redirect("/dashboard/keys" if visit.who else "/dashboard/sign-in")


async def sign_in_page(visit: Visit) -> Response:
    if visit.who is not None:
        return _redirect("/dashboard/keys")
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
    response = _redirect("/dashboard/keys")
    set_session_cookie(visit.request, response, token, visit.policy)
    return response


async def sign_out(visit: Visit) -> Response:
    await visit.store.end_session(visit.who.session.session_id)
    log.info("dashboard_signed_out", owner_id=visit.who.owner.owner_id)
    response = _redirect("/dashboard/sign-in", "signed-out")
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
        response = _redirect("/dashboard/keys")
    else:
        # A new sign-up's account lands on its first key, shown this once.
        visit.who = await _signed_in_as(visit, owner, token)
        plain, record = await visit.store.create_key(owner.account_id)
        log.info("dashboard_key_created", account_id=record.account_id, key_id=record.key_id, owner_id=owner.owner_id)
        response = await _keys_page(
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
    response = _redirect("/dashboard/password", "password")
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


# --- keys --------------------------------------------------------------------------------------


async def _own_key(visit: Visit) -> KeyRecord:
    """Return the key of the path if it is one of the signed-in owner's account. Raises NotYours."""
    record = await visit.store.get_key(visit.request.path_params["key_id"])
    if record is None or record.account_id != visit.who.owner.account_id:
        raise NotYours(visit.request.path_params["key_id"])
    return record


async def _keys_page(
    visit: Visit,
    *,
    new_key: dict | None = None,
    form: dict | None = None,
    errors: dict | None = None,
    status: int = 200,
) -> Response:
    account = await find_account(visit.store, visit.who.owner.account_id)
    today = utc_now().date()
    window_start = usage_window_start(today)
    last_used = usage_figures(await visit.store.ledger_entries(account.id, window_start), today).last_used
    views = [
        # A key created within the window the ledger is read for, with no charge in it, was never used.
        {
            **key_view(record),
            "last_used": iso(last_used.get(record.key_id)),
            "never_used": record.key_id not in last_used and record.created_at >= window_start,
        }
        for record in await visit.store.list_keys(account.id)
    ]
    active = [view for view in views if view["state"] == "active"]
    try_key, try_refusal = terminal_key(active)
    form = form or {"name": "", "expires": "", "origins": "", "browser_only": False, "mode": "live"}
    return visit.page(
        "keys.html",
        {
            "title": "API keys",
            "section": "keys",
            "account": account,
            "keys": views,
            "new_key": new_key,
            "form": form,
            "errors": errors or {},
            "origins_value": form["origins"],
            "browser_only_checked": form["browser_only"],
            "notice": NOTICES.get(visit.request.query_params.get("notice", "")),
            "try_key": try_key,
            "try_refusal": try_refusal,
            "base_url": visit.settings.base_url,
            "test_limits": limits_for_test_keys(account),
        },
        status,
    )


async def keys_page(visit: Visit) -> Response:
    return await _keys_page(visit)


def _origins_field(text: str) -> tuple[tuple[str, ...] | None, str | None]:
    """Return the origins of a textarea (one per line), validated as the API validates them,
    or the error to show next to the field."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    try:
        return validate_origins(lines), None
    except ValueError as exc:
        return None, exception_message(exc)


def _name_field(text: str) -> tuple[str, str | None]:
    """Return a key's name as every store checks it, or the error to show next to the field."""
    try:
        return validate_key_name(text), None
    except ValueError as exc:
        return "", exception_message(exc)


def _expiry_field(text: str) -> tuple[datetime | None, str | None]:
    """Return the expiry of a date field (midnight UTC of that day), or the error to show."""
    if not text.strip():
        return None, None
    try:
        day = datetime.strptime(text.strip(), "%Y-%m-%d")
    except ValueError:
        return None, "Give a date as YYYY-MM-DD."
    moment = day.replace(tzinfo=UTC)
    if moment <= utc_now():
        return None, "Give a date in the future."
    return moment, None


async def create_key(visit: Visit) -> Response:
    form = {
        "name": visit.posted("name"),
        "expires": visit.posted("expires"),
        "origins": visit.posted("origins"),
        "browser_only": visit.posted("browser_only") == "on",
        "mode": visit.posted("mode") or "live",
    }
    name, name_error = _name_field(form["name"])
    mode_error = None if form["mode"] in KEY_MODES else "Choose a live key or a test key."
    expires_at, expires_error = _expiry_field(form["expires"])
    origins, origins_error = _origins_field(form["origins"])
    errors = {
        field: error
        for field, error in (
            ("name", name_error),
            ("expires", expires_error),
            ("origins", origins_error),
            ("mode", mode_error),
        )
        if error
    }
    if errors:
        return await _keys_page(visit, form=form, errors=errors, status=400)
    plain, record = await visit.store.create_key(
        visit.who.owner.account_id,
        expires_at=expires_at,
        allowed_origins=origins,
        browser_only=form["browser_only"],
        name=name,
        mode=form["mode"],
    )
    log.info(
        "dashboard_key_created", account_id=record.account_id, key_id=record.key_id, owner_id=visit.who.owner.owner_id
    )
    title = "Your new test key" if record.mode == "test" else "Your new key"
    return await _keys_page(visit, new_key={"title": title, "plain": plain, "key_id": record.key_id, "previous": None})


async def rotate(visit: Visit) -> Response:
    old = await _own_key(visit)
    try:
        plain, record = await rotate_key(visit.store, old.key_id)
    except StoreError as exc:
        return visit.message("Key not rotated", exception_message(exc), 409)
    log.info("dashboard_key_rotated", account_id=record.account_id, key_id=record.key_id, previous_key_id=old.key_id)
    return await _keys_page(
        visit,
        new_key={"title": "Your new key (rotation)", "plain": plain, "key_id": record.key_id, "previous": old.key_id},
    )


async def revoke_page(visit: Visit) -> Response:
    record = await _own_key(visit)
    return visit.page("key_revoke.html", {"title": "Revoke key", "section": "keys", "key": key_view(record)})


async def revoke(visit: Visit) -> Response:
    record = await visit.store.revoke_key((await _own_key(visit)).key_id)
    log.info(
        "dashboard_key_revoked", account_id=record.account_id, key_id=record.key_id, owner_id=visit.who.owner.owner_id
    )
    return _redirect("/dashboard/keys", "revoked")


async def origins_page(visit: Visit) -> Response:
    record = await _own_key(visit)
    return visit.page(
        "key_origins.html",
        {
            "title": "Key origins",
            "section": "keys",
            "key": key_view(record),
            "origins_value": "\n".join(record.allowed_origins),
            "origins_error": None,
            "browser_only_checked": record.browser_only,
        },
    )


async def origins_post(visit: Visit) -> Response:
    record = await _own_key(visit)
    text, browser_only = visit.posted("origins"), visit.posted("browser_only") == "on"
    origins, error = _origins_field(text)
    if error is not None:
        return visit.page(
            "key_origins.html",
            {
                "title": "Key origins",
                "section": "keys",
                "key": key_view(record),
                "origins_value": text,
                "origins_error": error,
                "browser_only_checked": browser_only,
            },
            400,
        )
    try:
        record = await visit.store.update_origins(record.key_id, origins, browser_only=browser_only)
    except StoreError as exc:
        return visit.message("Origins not saved", exception_message(exc), 409)
    log.info("dashboard_origins_updated", account_id=record.account_id, key_id=record.key_id)
    return _redirect("/dashboard/keys", "origins")


# --- balance and usage ---------------------------------------------------------------------------


async def webhooks_page(visit: Visit) -> Response:
    """The account's webhook subscriptions, each with its recent deliveries (status, time)."""
    account_id = visit.who.owner.account_id
    webhooks = []
    for webhook in await visit.store.list_webhooks(account_id):
        deliveries = await visit.store.recent_deliveries(webhook.webhook_id, KEEP_DELIVERIES)
        webhooks.append({**webhook_view(webhook), "deliveries": [delivery_view(d) for d in deliveries]})
    return visit.page(
        "webhooks.html",
        {"title": "Webhooks", "section": "webhooks", "webhooks": webhooks, "recent_limit": KEEP_DELIVERIES},
    )


async def usage_page(visit: Visit) -> Response:
    account = await find_account(visit.store, visit.who.owner.account_id)
    today = utc_now().date()
    records = await visit.store.list_keys(account.id)
    # ?key= narrows every figure to one key of the account (the select's GET form); any other
    # value, a key of another account included, is the same 404 page as a key page's.
    key_id = visit.request.query_params.get("key") or None
    if key_id is not None and key_id not in {record.key_id for record in records}:
        raise NotYours(key_id)
    figures = usage_figures(await visit.store.ledger_entries(account.id, usage_window_start(today)), today, key_id)
    labels = [day.isoformat() for day in figures.days]
    try_key, try_refusal = terminal_key([key_view(r) for r in records if r.state() == "active"])
    key_names = {record.key_id: record.name or shown_prefix(record.mode, record.prefix_hint) for record in records}
    return visit.page(
        "usage.html",
        {
            "title": "Balance and usage",
            "section": "usage",
            "account": account,
            "figures": figures,
            "keys": [(record.key_id, key_names[record.key_id]) for record in records],
            "key_names": key_names,
            "selected_key": key_id,
            "recent_limit": RECENT_REQUESTS,
            "credits_chart": bar_chart_svg(
                labels, figures.credits_per_day, "Credits spent per day, last 30 days (UTC)"
            ),
            "requests_chart": bar_chart_svg(
                labels, figures.requests_per_day, "Requests charged per day, last 30 days (UTC)"
            ),
            "endpoints_chart": bar_chart_svg(
                [endpoint for endpoint, _ in figures.requests_per_endpoint],
                [count for _, count in figures.requests_per_endpoint],
                "Requests charged per endpoint, last 30 days",
            ),
            "try_key": try_key,
            "try_refusal": try_refusal,
            "base_url": visit.settings.base_url,
        },
    )


# --- spend caps ----------------------------------------------------------------------------------


async def spend_caps_page(
    visit: Visit, *, typed: dict | None = None, errors: dict | None = None, status: int = 200
) -> Response:
    """Return the spend-caps page: a form for the account's caps and one per active key;
    ``typed`` keeps what was typed in the form that failed (scope -> fields)."""
    account_id = visit.who.owner.account_id
    rows = cap_rows(await visit.store.spend_status(account_id), await visit.store.list_keys(account_id))
    for row in rows:
        for period in ("daily", "monthly"):
            cap = row[period]["cap"]
            row[f"{period}_value"] = (typed or {}).get(row["scope"], {}).get(period, "" if cap is None else str(cap))
    return visit.page(
        "spend_caps.html",
        {
            "title": "Spend caps",
            "section": "caps",
            "rows": rows,
            "errors": errors or {},
            "notice": NOTICES.get(visit.request.query_params.get("notice", "")),
        },
        status,
    )


async def spend_caps_post(visit: Visit) -> Response:
    """Save the caps of the posted scope (the account, or one of its keys)."""
    account_id = visit.who.owner.account_id
    scope = visit.posted("scope")
    key_id = None
    if scope != "account":
        record = await visit.store.get_key(scope)
        if record is None or record.account_id != account_id:
            raise NotYours(scope)
        key_id = record.key_id
    cap, errors = read_cap_fields(visit.posted("daily"), visit.posted("monthly"))
    if cap is None:
        typed = {scope: {"daily": visit.posted("daily"), "monthly": visit.posted("monthly")}}
        return await spend_caps_page(visit, typed=typed, errors={scope: errors}, status=400)
    await visit.store.set_spend_cap(account_id, cap, key_id)
    log.info("dashboard_spend_caps_set", account_id=account_id, key_id=key_id, daily=cap.daily, monthly=cap.monthly)
    return _redirect("/dashboard/spend-caps", "caps")


async def _not_found(scope, receive, send) -> None:
    request = Request(scope, receive)
    response = render_message(request, "Page not found", "There is no dashboard page here.", 404)
    await response(scope, receive, send)


def dashboard_app() -> ASGIApp:
    """Return the dashboard, to be mounted at ``/dashboard``."""
    router = Router(_routes(), redirect_slashes=False, default=_not_found)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        # A method a page does not take (the router raises 405 before any handler runs) is
        # answered with a page too, not with the API's JSON error body.
        try:
            await router(scope, receive, send)
        except HTTPException as exc:
            request = Request(scope, receive)
            response = render_message(
                request, "Not allowed here", "This page does not take that kind of request.", exc.status_code
            )
            if exc.headers and "Allow" in exc.headers:
                response.headers["Allow"] = exc.headers["Allow"]
            await response(scope, receive, send)

    return app


def _get_and_post(
    get: Callable[[Request], Awaitable[Response]], post: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    """Return one endpoint for a path that takes both methods, so that a 405 on it lists both
    in its Allow header (RFC 9110 §15.5.6: the resource's methods, not one route's)."""

    async def endpoint(request: Request) -> Response:
        return await (post if request.method == "POST" else get)(request)

    return endpoint


def _routes() -> list[BaseRoute]:
    public = {"signed_in_only": False}
    both = ["GET", "POST"]
    return [
        Route("/", _page(home, **public), methods=["GET"]),
        Route("/sign-in", _get_and_post(_page(sign_in_page, **public), _page(sign_in_post, **public)), methods=both),
        Route("/sign-out", _page(sign_out), methods=["POST"]),
        Route("/invite", _get_and_post(_page(invite_page, **public), _page(invite_post, **public)), methods=both),
        Route("/forgot", _get_and_post(_page(forgot_page, **public), _page(forgot_post, **public)), methods=both),
        Route("/sign-up", _get_and_post(_page(sign_up_page, **public), _page(sign_up_post, **public)), methods=both),
        Route("/password", _get_and_post(_page(password_page), _page(password_post)), methods=both),
        Route("/keys", _get_and_post(_page(keys_page), _page(create_key)), methods=both),
        Route("/keys/{key_id}/rotate", _page(rotate), methods=["POST"]),
        Route("/keys/{key_id}/revoke", _get_and_post(_page(revoke_page), _page(revoke)), methods=both),
        Route("/keys/{key_id}/origins", _get_and_post(_page(origins_page), _page(origins_post)), methods=both),
        Route("/usage", _page(usage_page), methods=["GET"]),
        Route("/spend-caps", _get_and_post(_page(spend_caps_page), _page(spend_caps_post)), methods=both),
        Route("/webhooks", _page(webhooks_page), methods=["GET"]),
        # Not a _page: it needs no session, and answers only the operator (gateway/dashboard/outbox.py).
        Route("/outbox", outbox_page, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="dashboard-static"),
    ]
