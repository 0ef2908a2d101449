"""The admin HTTP API, mounted under ``/admin/v1``: accounts, credits, limits and the key life cycle.

Every route requires ``Authorization: Bearer <CELESTIAL_ADMIN_TOKEN>``; with the token unset
the whole API answers 401, so it is off unless an operator turns it on. An API key is never
an admin token, and the admin routes never authenticate API keys nor charge credits.

JSON in (a JSON object body, query-string forms accepted for values as in decisions.md,
"Requests"), JSON out in the service's envelope: ``{data, meta: {request_id}, warnings?}`` and
``{errors: [{code, message, suggestion, param?}], meta: {request_id}}``.

What is shown are the CLI's views (``gateway/admin/operations.py``): a plain key appears once, in the
``key`` member of the answer that created it (key creation, rotation); no answer and no log
line ever carries a key, a key hash or the admin token.

| method | path | answer |
|---|---|---|
| POST | /accounts | 201 account |
| GET | /accounts/{account} | account, with key counts |
| POST | /accounts/{account}/top-up | balance |
| PATCH | /accounts/{account}/limits | account |
| GET | /accounts/{account}/usage?since= | ledger totals |
| GET | /accounts/{account}/spend-caps | the account's and its keys' spend caps, spent, resets_at |
| PATCH | /accounts/{account}/spend-caps | the same, after setting ``daily``/``monthly`` (null clears one) |
| POST | /accounts/{account}/keys | 201 key, with ``key`` shown once (the body's members below) |
| GET | /accounts/{account}/keys | keys |
| GET | /keys/{key_id} | key |
| POST | /keys/{key_id}/revoke | key |
| POST | /keys/{key_id}/rotate | 201 new key, with ``key`` shown once, and ``previous`` |
| PUT | /keys/{key_id}/origins | key |
| PATCH | /keys/{key_id}/spend-caps | the key's account's spend caps, after setting the key's |
| POST | /accounts/{account}/owners | 201 owner, with the one-time ``invite_url`` (24 h) |
| GET | /accounts/{account}/owners | owners |
| POST | /owners/unlock | the sign-in subjects whose lock-out was lifted |

``{account}`` is an account's name or id. A new key's body may set ``name``, ``expires_at``,
``allowed_origins``, ``browser_only`` and ``mode`` (``live`` or ``test``), each optional.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import structlog
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.admin.operations import (
    account_summary,
    account_view,
    find_account,
    find_key,
    key_view,
    owner_view,
    rotate_key,
    usage_summary,
)
from gateway.admin.spend_caps import CAP_BOUNDS, KEEP, change_account_cap, change_key_cap, spend_view
from gateway.dashboard.invites import invite_owner
from gateway.dashboard.sign_in import unlock
from gateway.errors import request_id_of, with_error_body
from gateway.json_body import read_json_body
from gateway.json_response import json_response
from gateway.utc_text import iso, utc_moment
from shared.errors import (
    InvalidAdminToken,
    InvalidBody,
    InvalidDatetime,
    InvalidParameter,
    MissingParameter,
    OwnerOfAnotherAccount,
)
from store.bounds import (
    ACCOUNT_NAME_RULE,
    CREDITS,
    KEY_NAME_RULE,
    MAX_CONCURRENT,
    OPENING_BALANCE,
    RATE_PER_MINUTE,
    Bound,
    validate_account_name,
    validate_key_name,
)
from store.errors import StoreError
from store.interfaces import Store
from store.key_format import KEY_PREFIXES, KeyMode, exception_message, quoted, redact_keys, validate_key_mode
from store.origins import validate_origins
from store.owner_records import OwnerElsewhere
from store.records import Account, utc_now

#: Largest admin body accepted, as for the public API (decisions.md, "Requests").
#: A decimal integer sent as a string (the query-string form of a number).
_DECIMAL = re.compile(r"[-+]?[0-9]+")
#: A top-up's request id: short and printable, like an X-Request-Id.
_TOP_UP_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
#: Ledger rows of admin top-ups are namespaced, so an admin's id can never collide with the
#: gateway's own ledger ids (opening balances, CLI top-ups).
_TOP_UP_NAMESPACE = "admin:"

ADMIN_TOKEN_SUGGESTION = "Send the gateway's CELESTIAL_ADMIN_TOKEN as 'Authorization: Bearer <token>'."

log = structlog.get_logger("celestial.admin")

Handler = Callable[[Request, Store], Awaitable[tuple[int, Any]]]


# --- plumbing --------------------------------------------------------------------------------


class _NoStore:
    """ASGI wrapper marking every answer of the admin routes, success or error,
    ``Cache-Control: no-store``: an answer may carry a key shown once, and no cache or proxy
    may keep a copy."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"cache-control", b"no-store")]}
            await send(message)

        await self.app(scope, receive, send_no_store)


def check_admin_token(authorization: str | None, expected: str | None) -> None:
    """Return None when ``authorization`` is ``Bearer <expected>``; raise InvalidAdminToken otherwise.

    The comparison is constant-time. A value with the API-key prefix is refused before any
    comparison, so an API key can never open the admin API, whatever the token is set to.
    """
    if not expected:
        raise InvalidAdminToken(
            "The admin API is disabled on this gateway.",
            suggestion="Set CELESTIAL_ADMIN_TOKEN in the gateway's environment and restart it.",
        )
    scheme, _, presented = (authorization or "").strip().partition(" ")
    presented = presented.strip()
    if scheme.lower() != "bearer" or not presented:
        raise InvalidAdminToken("The request carries no admin token.")
    if presented.startswith(tuple(KEY_PREFIXES.values())):
        raise InvalidAdminToken(
            "An API key is not an admin token.",
            suggestion=ADMIN_TOKEN_SUGGESTION + " API keys only call /v1 endpoints.",
        )
    # Header values arrive decoded as latin-1: encoding back gives the bytes that were sent.
    if not hmac.compare_digest(presented.encode("latin-1"), expected.encode("utf-8")):
        raise InvalidAdminToken("The request does not carry a valid admin token.")


def _admin(handler: Handler, *, query: tuple[str, ...] = ()):
    """Return the Starlette endpoint that checks the admin token, runs ``handler`` and renders
    (what it raises is answered by the one error path, ``gateway/errors.py``).

    ``handler`` returns ``(status, data)``, or ``(status, (data, warnings))``. ``query``
    names the query parameters the route accepts; any other is refused.
    """

    async def endpoint(request: Request) -> Response:
        gateway = request.app.state.gateway
        check_admin_token(request.headers.get("authorization"), gateway.settings.admin_token)
        _check_query(request, query)
        status, data = await handler(request, gateway.store)
        warnings: list[str] = []
        if isinstance(data, tuple):
            data, warnings = data
        body: dict[str, Any] = {"data": data, "meta": {"request_id": request_id_of(request)}}
        if warnings:
            body["warnings"] = warnings
        return json_response(body, status)

    return with_error_body(endpoint)


def _check_query(request: Request, accepted: tuple[str, ...]) -> None:
    """Return None when the query string names only ``accepted`` parameters, each once."""
    seen: set[str] = set()
    for name, _value in request.query_params.multi_items():
        if name not in accepted:
            listed = ", ".join(accepted) if accepted else "none"
            raise InvalidParameter(
                f"Unknown query parameter {quoted(name)}.",
                suggestion=f"Accepted query parameters: {listed}.",
                param=redact_keys(name),
            )
        if name in seen:
            raise InvalidParameter(f"{name!r} is given twice.", suggestion=f"Give {name} once.", param=name)
        seen.add(name)


async def _body(request: Request, accepted: tuple[str, ...]) -> dict[str, Any]:
    """Return the JSON object body (``{}`` when empty), refusing members not in ``accepted``."""
    try:
        body = await read_json_body(request)
    except InvalidBody as error:
        error.suggestion = _members_suggestion(accepted)
        raise
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise InvalidBody(
            f"The body must be a JSON object, not a JSON {type(body).__name__}.",
            suggestion=_members_suggestion(accepted),
        )
    for name in body:
        if name not in accepted:
            raise InvalidParameter(
                f"Unknown member {quoted(name)}.", suggestion=_members_suggestion(accepted), param=redact_keys(name)
            )
    return body


def _members_suggestion(accepted: tuple[str, ...]) -> str:
    listed = ", ".join(accepted) if accepted else "none (send no body)"
    return f"Send a JSON object; accepted members: {listed}."


# --- values ----------------------------------------------------------------------------------


def _integer(body: dict[str, Any], bound: Bound, *, required: bool = False) -> int | None:
    """Return the integer member ``bound.name`` within ``bound`` (a JSON integer or a decimal
    string; not a fraction, a float such as 10.0 or a boolean), None when absent."""
    name = bound.name
    value = body.get(name)
    if value is None:
        if required:
            raise MissingParameter(
                f"{name} is required.", suggestion=f"Add {name}, an integer {bound.describe()}.", param=name
            )
        return None
    if isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
        try:
            value = int(value.strip())
        except ValueError:  # more digits than Python converts: far out of any range
            value = bound.maximum + 1
    try:
        return bound.check(value)
    except ValueError as exc:
        raise InvalidParameter(
            f"{exception_message(exc)}.", suggestion=f"Send {name} as an integer {bound.describe()}.", param=name
        ) from None


def _boolean(body: dict[str, Any], name: str) -> bool | None:
    """Return the boolean member ``name`` (true/false any case, 1/0), None when absent."""
    value = body.get(name)
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise InvalidParameter(
        f"{name} must be a boolean, got {quoted(value)}.", suggestion=f"Send {name} as true or false.", param=name
    )


def _origins(body: dict[str, Any], name: str = "allowed_origins", *, required: bool = False) -> tuple[str, ...] | None:
    """Return the validated origins (a JSON array, or a comma-separated string), None when absent."""
    value = body.get(name)
    if value is None:
        if required:
            raise MissingParameter(
                f"{name} is required.",
                suggestion=f'Send {name} as a list, e.g. ["https://app.example"], or [] for any origin.',
                param=name,
            )
        return None
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list):
        raise InvalidParameter(
            f"{name} must be a list of origins.", suggestion='Send e.g. ["https://app.example"].', param=name
        )
    try:
        return validate_origins(value)
    except ValueError as exc:
        raise InvalidParameter(
            f"{name}: {exception_message(exc)}.",
            suggestion="List each origin exactly as browsers send it: scheme://host[:port], lowercase, no path.",
            param=name,
        ) from None


def parse_moment(value: Any, name: str) -> datetime:
    """Return ISO 8601 ``value`` as an aware UTC datetime (no offset means UTC)."""
    try:
        if not isinstance(value, str):
            raise ValueError
        return utc_moment(value)
    except ValueError:
        raise InvalidDatetime(f"{name} is not an ISO 8601 date or time: {quoted(value)}.", param=name) from None


def _expiry(body: dict[str, Any]) -> datetime | None:
    value = body.get("expires_at")
    if value is None:
        return None
    moment = parse_moment(value, "expires_at")
    if moment <= utc_now():
        raise InvalidParameter(
            f"expires_at must be in the future, got {iso(moment)}.",
            suggestion="Send a future ISO 8601 UTC time, or leave expires_at out for a key that never expires.",
            param="expires_at",
        )
    return moment


# --- handlers --------------------------------------------------------------------------------


_ACCOUNT_EXAMPLE = 'Send e.g. {"name": "acme", "credits": 1000}.'


async def create_account(request: Request, store: Store) -> tuple[int, Any]:
    """Return 201 and the new account."""
    body = await _body(request, ("name", "credits", "rate_per_minute", "max_concurrent"))
    name = body.get("name")
    if name is None:
        raise MissingParameter("name is required.", suggestion=_ACCOUNT_EXAMPLE, param="name")
    try:
        validate_account_name(name)
    except ValueError as exc:
        raise InvalidParameter(
            f"{exception_message(exc)}.", suggestion=f"Use a name of {ACCOUNT_NAME_RULE}.", param="name"
        ) from None
    credits = _integer(body, OPENING_BALANCE, required=True)
    rate = _integer(body, RATE_PER_MINUTE)
    concurrent = _integer(body, MAX_CONCURRENT)
    # The store checks the same rules again (validate_new_account): what passed here passes there.
    account = await store.create_account(
        name,
        credits,
        Account.rate_per_minute if rate is None else rate,
        Account.max_concurrent if concurrent is None else concurrent,
    )
    log.info("admin_account_created", account_id=account.id)
    return 201, account_view(account)


async def show_account(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account with its count of keys and of active keys."""
    return 200, await account_summary(store, request.path_params["account"])


async def top_up(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account's id, name and balance after adding ``credits``.

    With ``request_id`` the top-up is applied once however often it is retried.
    """
    body = await _body(request, ("credits", "request_id"))
    credits = _integer(body, CREDITS, required=True)
    request_id = body.get("request_id")
    ledger_id = None
    if request_id is not None:
        if not isinstance(request_id, str) or not _TOP_UP_ID.fullmatch(request_id):
            raise InvalidParameter(
                "request_id must be 1-128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
                suggestion="Send a unique id per top-up, e.g. a UUID, and the same id to retry it.",
                param="request_id",
            )
        ledger_id = _TOP_UP_NAMESPACE + request_id
    account = await find_account(store, request.path_params["account"])
    balance = await store.top_up(account.id, credits, request_id=ledger_id, reason="admin api top-up")
    log.info("admin_top_up", account_id=account.id, credits=credits)
    return 200, {"account_id": account.id, "name": account.name, "balance": balance}


async def set_limits(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account after changing the limits given (the others are kept)."""
    body = await _body(request, ("rate_per_minute", "max_concurrent"))
    rate = _integer(body, RATE_PER_MINUTE)
    concurrent = _integer(body, MAX_CONCURRENT)
    if rate is None and concurrent is None:
        raise MissingParameter(
            "Give rate_per_minute, max_concurrent or both.",
            suggestion='Send e.g. {"rate_per_minute": 600, "max_concurrent": 20}.',
            param="rate_per_minute",
        )
    account = await store.set_limits(request.path_params["account"], rate_per_minute=rate, max_concurrent=concurrent)
    log.info("admin_limits_set", account_id=account.id, rate_per_minute=rate, max_concurrent=concurrent)
    return 200, account_view(account)


async def usage(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account's ledger totals since ``since`` (default: since creation) and balance."""
    since_text = request.query_params.get("since")
    since = None if since_text is None else parse_moment(since_text, "since")
    return 200, await usage_summary(store, request.path_params["account"], since)


def _cap_changes(body: dict[str, Any]) -> dict[str, Any]:
    """Return the caps a spend-caps body changes: each of ``daily`` and ``monthly`` given as an
    integer (credits) or null (no cap); one at least."""
    if not body:
        raise MissingParameter(
            "Give daily, monthly or both.",
            suggestion='Send e.g. {"daily": 1000, "monthly": 20000}; null clears a cap.',
            param="daily",
        )
    return {
        period: None if body[period] is None else _integer(body, bound)
        for period, bound in CAP_BOUNDS.items()
        if period in body
    }


async def show_spend_caps(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account's spend caps and what was spent against them."""
    return 200, spend_view(await store.spend_status(request.path_params["account"]))


async def set_account_spend_caps(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account's spend caps after changing the account's own as given."""
    changes = _cap_changes(await _body(request, tuple(CAP_BOUNDS)))
    status = await change_account_cap(
        store, request.path_params["account"], **{**dict.fromkeys(CAP_BOUNDS, KEEP), **changes}
    )
    log.info("admin_spend_caps_set", account_id=status.account_id, **changes)
    return 200, spend_view(status)


async def set_key_spend_caps(request: Request, store: Store) -> tuple[int, Any]:
    """Return the key's account's spend caps after changing the key's as given."""
    changes = _cap_changes(await _body(request, tuple(CAP_BOUNDS)))
    key_id = request.path_params["key_id"]
    status = await change_key_cap(store, key_id, **{**dict.fromkeys(CAP_BOUNDS, KEEP), **changes})
    log.info("admin_spend_caps_set", account_id=status.account_id, key_id=key_id, **changes)
    return 200, spend_view(status)


async def create_key(request: Request, store: Store) -> tuple[int, Any]:
    """Return 201 and the new key's view, with the plain key in ``key`` (shown this once)."""
    body = await _body(request, ("expires_at", "allowed_origins", "browser_only", "name", "mode"))
    name = _key_name(body)
    mode = _key_mode(body)
    expires_at = _expiry(body)
    origins = _origins(body) or ()
    browser_only = bool(_boolean(body, "browser_only"))
    account = await find_account(store, request.path_params["account"])
    try:
        plain, record = await store.create_key(
            account.id, expires_at=expires_at, allowed_origins=origins, browser_only=browser_only, name=name, mode=mode
        )
    except StoreError:
        raise
    except ValueError as exc:  # the expiry passed between the check above and the store's
        raise InvalidParameter(
            exception_message(exc), suggestion="Send a later expires_at.", param="expires_at"
        ) from None
    log.info("admin_key_created", account_id=account.id, key_id=record.key_id)
    return 201, {"key": plain, **key_view(record)}


async def list_keys(request: Request, store: Store) -> tuple[int, Any]:
    """Return every key of the account, oldest first (never a key nor its hash)."""
    return 200, [key_view(record) for record in await store.list_keys(request.path_params["account"])]


async def show_key(request: Request, store: Store) -> tuple[int, Any]:
    """Return one key's view: its state (active, revoked, expired) and settings."""
    return 200, key_view(await find_key(store, request.path_params["key_id"]))


async def revoke_key(request: Request, store: Store) -> tuple[int, Any]:
    """Return the key after revoking it; revoking a revoked key keeps the first revocation."""
    await _body(request, ())
    record = await store.revoke_key(request.path_params["key_id"])
    log.info("admin_key_revoked", account_id=record.account_id, key_id=record.key_id)
    return 200, key_view(record)


async def rotate(request: Request, store: Store) -> tuple[int, Any]:
    """Return 201, the successor's view with the plain key in ``key``, and the old key as ``previous``.

    The successor has the old key's account, origins, browser-only flag and expiry. The old
    key stays active so the integration can switch, unless ``revoke_old`` is true.
    """
    body = await _body(request, ("revoke_old",))
    revoke_old = bool(_boolean(body, "revoke_old"))
    key_id = request.path_params["key_id"]
    plain, record = await rotate_key(store, key_id)
    log.info("admin_key_rotated", account_id=record.account_id, key_id=record.key_id, previous_key_id=key_id)
    warnings: list[str] = []
    previous = await store.get_key(key_id)
    if revoke_old:
        try:
            previous = await store.revoke_key(key_id)
            log.info("admin_key_revoked", account_id=record.account_id, key_id=key_id)
        except StoreError as exc:
            # The new key exists and is valid: answering an error now would lose it for good.
            log.warning("admin_rotate_revoke_failed", key_id=key_id, error=type(exc).__name__)
            warnings.append(
                f"The old key {key_id} could not be revoked; revoke it with POST /admin/v1/keys/{key_id}/revoke."
            )
    view = {"key": plain, **key_view(record), "previous": None if previous is None else key_view(previous)}
    return 201, (view, warnings)


async def update_origins(request: Request, store: Store) -> tuple[int, Any]:
    """Return the key after replacing its allowed origins (and browser_only when given)."""
    body = await _body(request, ("allowed_origins", "browser_only"))
    origins = _origins(body, required=True)
    browser_only = _boolean(body, "browser_only")
    record = await store.update_origins(request.path_params["key_id"], origins, browser_only=browser_only)
    log.info("admin_origins_updated", account_id=record.account_id, key_id=record.key_id)
    return 200, key_view(record)


def _text(body: dict[str, Any], name: str, *, required: bool = False) -> str | None:
    value = body.get(name)
    if value is None:
        if required:
            raise MissingParameter(f"Member {name!r} is required.", param=name)
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidParameter(f"Member {name!r} must be a non-empty string.", param=name)
    return value


def _key_name(body: dict[str, Any]) -> str:
    """Return the ``name`` member (a key's name; '' when absent), as every store checks it."""
    try:
        return validate_key_name(body.get("name", ""))
    except ValueError as exc:
        raise InvalidParameter(
            exception_message(exc), suggestion=f"Send a name of {KEY_NAME_RULE}.", param="name"
        ) from None


def _key_mode(body: dict[str, Any]) -> KeyMode:
    """Return the ``mode`` member (``live`` when absent, or ``test``), as every store checks it."""
    try:
        return validate_key_mode(body.get("mode", "live"))
    except ValueError as exc:
        raise InvalidParameter(
            exception_message(exc),
            suggestion=(
                'Send "mode": "test" for a test key (no credits, small limits), or leave mode out for a live key.'
            ),
            param="mode",
        ) from None


async def invite(request: Request, store: Store) -> tuple[int, Any]:
    """Return 201 and the owner's view with ``invite_url``, the one-time link (24 h) on which
    the owner sets a password; inviting an owner again replaces the link."""
    body = await _body(request, ("email",))
    email = _text(body, "email", required=True)
    settings = request.app.state.gateway.settings
    try:
        invitation = await invite_owner(store, settings.base_url, request.path_params["account"], email)
    except OwnerElsewhere as exc:
        raise OwnerOfAnotherAccount(exception_message(exc), param="email") from None
    except StoreError:
        raise
    except ValueError as exc:
        raise InvalidParameter(
            exception_message(exc), suggestion="Send an email address such as ada@example.com.", param="email"
        ) from None
    log.info("admin_owner_invited", account_id=invitation.owner.account_id, owner_id=invitation.owner.owner_id)
    return 201, {**owner_view(invitation.owner), "invite_url": invitation.link}


async def list_owners(request: Request, store: Store) -> tuple[int, Any]:
    """Return the account's dashboard owners, oldest first (never a password hash or invite)."""
    return 200, [owner_view(owner) for owner in await store.list_owners(request.path_params["account"])]


async def unlock_owner(request: Request, store: Store) -> tuple[int, Any]:
    """Return the sign-in subjects (``email:…``, ``address:…``) whose lock-out was lifted."""
    body = await _body(request, ("email", "address"))
    email, address = _text(body, "email"), _text(body, "address")
    if email is None and address is None:
        raise MissingParameter("Send 'email', 'address' or both.", param="email")
    return 200, {"unlocked": await unlock(store, email, address)}


def admin_app() -> ASGIApp:
    """Return the admin API, to be mounted under ``/admin/v1``."""
    return _NoStore(Router(_admin_routes(), redirect_slashes=False))


def _admin_routes() -> list[BaseRoute]:
    """Return the admin API's routes, relative to ``/admin/v1``."""
    return [
        Route("/accounts", _admin(create_account), methods=["POST"]),
        Route("/accounts/{account}", _admin(show_account), methods=["GET"]),
        Route("/accounts/{account}/top-up", _admin(top_up), methods=["POST"]),
        Route("/accounts/{account}/limits", _admin(set_limits), methods=["PATCH"]),
        Route("/accounts/{account}/usage", _admin(usage, query=("since",)), methods=["GET"]),
        Route("/accounts/{account}/spend-caps", _admin(show_spend_caps), methods=["GET"]),
        Route("/accounts/{account}/spend-caps", _admin(set_account_spend_caps), methods=["PATCH"]),
        Route("/keys/{key_id}/spend-caps", _admin(set_key_spend_caps), methods=["PATCH"]),
        Route("/accounts/{account}/keys", _admin(create_key), methods=["POST"]),
        Route("/accounts/{account}/keys", _admin(list_keys), methods=["GET"]),
        Route("/keys/{key_id}", _admin(show_key), methods=["GET"]),
        Route("/keys/{key_id}/revoke", _admin(revoke_key), methods=["POST"]),
        Route("/keys/{key_id}/rotate", _admin(rotate), methods=["POST"]),
        Route("/keys/{key_id}/origins", _admin(update_origins), methods=["PUT"]),
        Route("/accounts/{account}/owners", _admin(invite), methods=["POST"]),
        Route("/accounts/{account}/owners", _admin(list_owners), methods=["GET"]),
        Route("/owners/unlock", _admin(unlock_owner), methods=["POST"]),
    ]
