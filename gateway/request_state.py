"""What the gateway learns about one request, kept in one typed value (issue 47).

The middleware makes a request's :class:`RequestState` when the request arrives (its id) and
keeps it in the ASGI scope; authentication adds the account and the key, admission the
rate-limit headers and the concurrency slot held, charging the charges made, the route the
credits it reports, an idempotent replay the id of the answer it replays. The middleware reads
it back for the response's headers and the request's log line. Every part of the gateway reads
it through :func:`request_state`, by attribute.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from gateway.key_modes import TEST_MODE
from store.key_format import KeyMode
from store.records import KeyRecord

#: Where the ASGI scope keeps a request's state (a namespaced key: Starlette's own
#: ``scope["state"]`` is a plain dictionary it shares with lifespan state).
SCOPE_KEY = "celestial.request_state"


@dataclass(eq=False)
class RequestState:
    """One request as the gateway knows it so far.

        ``answer_request_id`` is the ``X-Request-Id`` the response carries when it is not the
        request's own (a replayed answer carries its first request's); ``rate_limit_headers`` are
        the ``X-RateLimit-*`` headers of the request's admission (raw, as the middleware adds
        them); ``held_slot`` the concurrency slot it holds until released (``held_slots`` slots
    under that id: a test key's batch holds several); ``charges`` the
        (charge id, credits) of every charge made under it (a batch's sub-requests' too).
    """

    request_id: str = ""
    account_id: str | None = None
    key_id: str = ""
    key_mode: KeyMode | None = None
    rate_limit_headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    held_slot: str | None = None
    held_slots: int = 1
    charges: list[tuple[str, int]] = field(default_factory=list)
    credits_used: int = 0
    answer_request_id: str | None = None

    def authenticated(self, key: KeyRecord) -> None:
        """Record the account and key the request was authenticated with."""
        self.account_id = key.account_id
        self.key_id = key.key_id
        self.key_mode = key.mode

    @property
    def test_mode(self) -> bool:
        """Whether the request was authenticated with a test key (``gateway/key_modes.py``)."""
        return self.key_mode == TEST_MODE

    @property
    def charge_ids(self) -> list[str] | None:
        """Return the ids of the charges made under the request (None when it made none, as
        the log line shows it)."""
        return [charge_id for charge_id, _ in self.charges] or None


def request_state(request_or_scope: Any) -> RequestState:
    """Return the state of the request (a Starlette request, or its ASGI scope), made empty
    when no middleware made it (a request built by hand)."""
    scope: MutableMapping[str, Any] = getattr(request_or_scope, "scope", request_or_scope)
    state = scope.get(SCOPE_KEY)
    if state is None:
        state = scope[SCOPE_KEY] = RequestState()
    return state
