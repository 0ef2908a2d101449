"""The dashboard's key pages: the account's keys, a key created or rotated (shown once), revoked,
and its allowed origins."""

from __future__ import annotations

from datetime import UTC, datetime

import structlog
from starlette.responses import Response

from gateway.admin.operations import find_account, key_view, rotate_key
from gateway.dashboard.try_it import terminal_key
from gateway.dashboard.usage import usage_figures, usage_window_start
from gateway.dashboard.visits import NOTICES, NotYours, Visit, redirect
from gateway.key_modes import limits_for_test_keys
from gateway.utc_text import iso
from store.bounds import validate_key_name
from store.errors import StoreError
from store.key_format import KEY_MODES, exception_message
from store.origins import validate_origins
from store.records import KeyRecord, utc_now

log = structlog.get_logger("celestial.dashboard")


async def _own_key(visit: Visit) -> KeyRecord:
    """Return the key of the path if it is one of the signed-in owner's account. Raises NotYours."""
    record = await visit.store.get_key(visit.request.path_params["key_id"])
    if record is None or record.account_id != visit.who.owner.account_id:
        raise NotYours(visit.request.path_params["key_id"])
    return record


async def keys_page_showing(
    visit: Visit,
    *,
    new_key: dict | None = None,
    form: dict | None = None,
    errors: dict | None = None,
    status: int = 200,
) -> Response:
    """Return the signed-in owner's keys page (``no-store``, as every page): with ``new_key``
    shown this once, or the create form's ``form`` values and ``errors`` answered ``status``."""
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
    return await keys_page_showing(visit)


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
        return await keys_page_showing(visit, form=form, errors=errors, status=400)
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
    return await keys_page_showing(
        visit, new_key={"title": title, "plain": plain, "key_id": record.key_id, "previous": None}
    )


async def rotate(visit: Visit) -> Response:
    old = await _own_key(visit)
    try:
        plain, record = await rotate_key(visit.store, old.key_id)
    except StoreError as exc:
        return visit.message("Key not rotated", exception_message(exc), 409)
    log.info("dashboard_key_rotated", account_id=record.account_id, key_id=record.key_id, previous_key_id=old.key_id)
    return await keys_page_showing(
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
    return redirect("/dashboard/keys", "revoked")


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
    return redirect("/dashboard/keys", "origins")
