"""The dashboard's routes under ``/dashboard`` (the pages of access in ``access_pages.py``, of
keys in ``key_pages.py``), and its own pages of balance and usage, spend caps and webhooks.
Each page is a function of a :class:`~gateway.dashboard.visits.Visit` (``visits.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import structlog
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, Router
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.admin.operations import find_account, key_view
from gateway.dashboard.access_pages import (
    forgot_page,
    forgot_post,
    home,
    invite_page,
    invite_post,
    password_page,
    password_post,
    sign_in_page,
    sign_in_post,
    sign_out,
    sign_up_page,
    sign_up_post,
)
from gateway.dashboard.charts import bar_chart_svg
from gateway.dashboard.key_pages import create_key, keys_page, origins_page, origins_post, revoke, revoke_page, rotate
from gateway.dashboard.outbox import outbox_page
from gateway.dashboard.spend_caps_form import cap_rows, read_cap_fields
from gateway.dashboard.try_it import terminal_key
from gateway.dashboard.usage import RECENT_REQUESTS, usage_figures, usage_window_start
from gateway.dashboard.visits import NOTICES, NotYours, Visit, redirect, visited
from gateway.html_pages import render_message
from gateway.webhooks import delivery_view, webhook_view
from store.key_format import shown_prefix
from store.records import utc_now
from store.webhook_records import KEEP_DELIVERIES

log = structlog.get_logger("celestial.dashboard")

#: The dashboard's stylesheet and script, served under /dashboard/static.
STATIC_DIR = Path(__file__).with_name("static")

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
    return redirect("/dashboard/spend-caps", "caps")


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
        Route("/", visited(home, **public), methods=["GET"]),
        Route(
            "/sign-in", _get_and_post(visited(sign_in_page, **public), visited(sign_in_post, **public)), methods=both
        ),
        Route("/sign-out", visited(sign_out), methods=["POST"]),
        Route("/invite", _get_and_post(visited(invite_page, **public), visited(invite_post, **public)), methods=both),
        Route("/forgot", _get_and_post(visited(forgot_page, **public), visited(forgot_post, **public)), methods=both),
        Route(
            "/sign-up", _get_and_post(visited(sign_up_page, **public), visited(sign_up_post, **public)), methods=both
        ),
        Route("/password", _get_and_post(visited(password_page), visited(password_post)), methods=both),
        Route("/keys", _get_and_post(visited(keys_page), visited(create_key)), methods=both),
        Route("/keys/{key_id}/rotate", visited(rotate), methods=["POST"]),
        Route("/keys/{key_id}/revoke", _get_and_post(visited(revoke_page), visited(revoke)), methods=both),
        Route("/keys/{key_id}/origins", _get_and_post(visited(origins_page), visited(origins_post)), methods=both),
        Route("/usage", visited(usage_page), methods=["GET"]),
        Route("/spend-caps", _get_and_post(visited(spend_caps_page), visited(spend_caps_post)), methods=both),
        Route("/webhooks", visited(webhooks_page), methods=["GET"]),
        # Not visited: it needs no session, and answers only the operator (gateway/dashboard/outbox.py).
        Route("/outbox", outbox_page, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="dashboard-static"),
    ]
