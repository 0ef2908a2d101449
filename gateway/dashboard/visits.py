"""One dashboard request, a :class:`Visit`, and the endpoint that runs a page on it: who is
signed in, the posted form and its CSRF check, the redirects with a named notice, and every
error as a page. The dashboard's pages (``access_pages.py``, ``key_pages.py``, ``routes.py``)
are functions of a visit.

Every form is a plain HTML post with its CSRF field, answered by a redirect (303), except
the two that show a new key once (create, rotate): they answer the page with the key in it,
``no-store``, since a key may be kept nowhere to be shown after a redirect. A post without
its CSRF token is refused (403) before it does anything; every error is a page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import structlog
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from gateway.dashboard.csrf import CSRF_FIELD, csrf_token, csrf_valid, keep_presession, presession_secret
from gateway.dashboard.sessions import (
    SessionPolicy,
    SignedIn,
    signed_in,
)
from gateway.html_pages import render_message, render_page
from shared.runtime.config import Settings
from store.errors import StoreUnavailable
from store.interfaces import DashboardStore

log = structlog.get_logger("celestial.dashboard")

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


def redirect(path: str, notice: str | None = None) -> RedirectResponse:
    return RedirectResponse(path + (f"?{urlencode({'notice': notice})}" if notice else ""), status_code=303)


def visited(handler: Handler, *, signed_in_only: bool = True) -> Callable[[Request], Awaitable[Response]]:
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
                response: Response = redirect("/dashboard/sign-in")
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
