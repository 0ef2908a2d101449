"""API key authentication: which key a request carries, whether it is good, and the origin rules.

The key comes from ``Authorization: Bearer <key>`` or, failing that header, ``X-API-Key``
(spec, Authentication 3). It is hashed at once and only the hash is ever looked up, cached,
compared or kept; the plain key is never logged nor stored. Every bad key (missing,
malformed, unknown, expired, revoked) gets the same 401 message so a caller learns nothing
about which keys exist; only the suggestion differs between "no key sent" and "a bad key".
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

import structlog

from shared.errors import InvalidApiKey, OriginNotAllowed, OriginRequired
from store.interfaces import CreditLedger, Keys
from store.key_format import hash_key, is_well_formed_key, quoted
from store.records import Account, KeyRecord, utc_now

#: The one message of every 401: it does not say whether the key was unknown, expired or revoked.
INVALID_KEY_MESSAGE = "The request does not carry a valid API key."
MISSING_KEY_SUGGESTION = "Send your key as 'Authorization: Bearer svc_live_...' or in the 'X-API-Key' header."
BAD_KEY_SUGGESTION = (
    "Check that the whole key was sent as 'Authorization: Bearer svc_live_...'; a revoked or"
    " expired key must be replaced by a new one."
)

log = structlog.get_logger("celestial.gateway")

#: Seconds between attempts to re-open the store's change feed after it failed.
FOLLOW_RETRY_S = 0.5

Headers = Mapping[str, str] | Iterable[tuple[bytes | str, bytes | str]]


def _header(headers: Headers, name: str) -> str | None:
    """Return the first value of header ``name`` (case-insensitive) from a mapping or ASGI list."""
    if isinstance(headers, Mapping):
        value = headers.get(name)  # Starlette's Headers: case-insensitive already
        if value is not None:
            return value
        items: Iterable[tuple[Any, Any]] = headers.items()
    else:
        items = headers
    for raw_name, raw_value in items:
        header_name = raw_name.decode("latin-1") if isinstance(raw_name, bytes) else raw_name
        if header_name.lower() == name:
            return raw_value.decode("latin-1") if isinstance(raw_value, bytes) else raw_value
    return None


def extract_key(headers: Headers) -> str | None:
    """Return the key the request carries, or None when it carries none.

    ``Authorization`` wins whenever it is present (spec: "Authorization takes precedence"):
    ``Bearer <key>`` gives the key; any other scheme, or a bare key without one, is refused
    (401) rather than guessed at, and never falls back to ``X-API-Key``.
    """
    authorization = _header(headers, "authorization")
    if authorization is not None and authorization.strip():
        scheme, _, credentials = authorization.strip().partition(" ")
        if scheme.lower() == "bearer":
            return credentials.strip()
        raise InvalidApiKey(
            "The Authorization header must use the Bearer scheme.",
            suggestion="Send 'Authorization: Bearer <key>', or the key alone in 'X-API-Key'.",
        )
    api_key = _header(headers, "x-api-key")
    if api_key is not None and api_key.strip():
        return api_key.strip()
    return None


def check_origin(record: KeyRecord, origin: str | None) -> None:
    """Return None when the key may be used from ``origin``; raise the spec's 403 otherwise.

    The spec's table (Authentication 5 and 6), row by row:

    - browser-only key and no ``Origin`` header → 403 ``origin_required`` (whether or not
      origins are configured);
    - no ``Origin`` header (server-to-server) → accepted;
    - no origins configured → accepted;
    - ``Origin`` equal, as a whole string, to a configured origin → accepted;
    - otherwise → 403 ``origin_not_allowed``. No wildcard, no normalisation.

    An empty ``Origin`` value counts as no header: a client can always omit it anyway.
    """
    if not origin:
        if record.browser_only:
            raise OriginRequired("This key is browser-only and the request has no Origin header.")
        return
    if not record.allowed_origins:
        return
    if origin in record.allowed_origins:  # exact, whole-string comparison; origins are not secrets
        return
    raise OriginNotAllowed(f"The origin {quoted(origin)} is not among this key's allowed origins.")


class KeyAuthenticator:
    """Authenticates requests by key, through a small cache of key records keyed by hash."""

    def __init__(
        self,
        keys: Keys,
        accounts: CreditLedger,
        cache_seconds: float = 60.0,
        *,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ):
        """``cache_seconds`` bounds how long a record (and its account's limits) is trusted
        before the store is read again: the spec's revocation propagation bound. ``clock``
        returns seconds (monotonic) and exists so tests can move time."""
        self._keys = keys
        self._accounts = accounts
        self._cache_seconds = cache_seconds
        self._max_entries = max_entries
        self._clock = clock
        # key hash -> (clock time it stops being trusted, (account, record) or None if unknown)
        self._cache: OrderedDict[str, tuple[float, tuple[Account, KeyRecord] | None]] = OrderedDict()
        # Bumped by every invalidation: a store read that overlapped one may have fetched the
        # record from before the change, so its result is used once but not cached.
        self._generation = 0

    def invalidate(self, key_hash: str) -> None:
        """Forget the cached record of ``key_hash`` (a watch saw it change); absent is fine."""
        self._generation += 1
        self._cache.pop(key_hash, None)

    def clear(self) -> None:
        """Forget every cached record."""
        self._generation += 1
        self._cache.clear()

    async def follow(self) -> None:
        """Drop cached records as the store reports key changes, until the store closes.

        This is what makes a revocation or an origin update take effect at once on every
        gateway; the cache lifetime (``cache_seconds``) is the bound only while the feed is
        down. Whenever the feed breaks or may have missed changes, the whole cache goes.
        """
        while True:
            try:
                async for key_hash in self._keys.key_changes():
                    if key_hash is None:
                        self.clear()
                    else:
                        self.invalidate(key_hash)
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("key_changes_interrupted", error=type(error).__name__)
                self.clear()
                await asyncio.sleep(FOLLOW_RETRY_S)

    async def _lookup(self, key_hash: str) -> tuple[Account, KeyRecord] | None:
        now_s = self._clock()
        cached = self._cache.get(key_hash)
        if cached is not None and cached[0] > now_s:
            self._cache.move_to_end(key_hash)
            return cached[1]
        found: tuple[Account, KeyRecord] | None = None
        generation = self._generation
        record = await self._keys.find_key_by_hash(key_hash)
        if record is not None:
            account = await self._accounts.get_account(record.account_id)
            if account is not None:
                found = (account, record)
        # Unknown hashes are cached too (a new key's hash cannot have been asked before it
        # existed), so a flood of one bad key costs one read; the size bound keeps a flood of
        # random keys from growing the cache.
        if generation != self._generation:
            return found
        self._cache[key_hash] = (now_s + self._cache_seconds, found)
        self._cache.move_to_end(key_hash)
        while len(self._cache) > self._max_entries:
            self._cache.popitem(last=False)
        return found

    async def authenticate(
        self, headers: Headers, origin: str | None, now: datetime | None = None
    ) -> tuple[Account, KeyRecord]:
        """Return the account and key record of an authorised request.

        Raises InvalidApiKey (401) for a missing, malformed, unknown, expired or revoked key,
        then OriginRequired / OriginNotAllowed (403) per :func:`check_origin`. The account's
        ``balance`` is a snapshot up to ``cache_seconds`` old: the store's ``reserve`` is the
        authority on credits.
        """
        plain = extract_key(headers)
        if plain is None:
            raise InvalidApiKey(INVALID_KEY_MESSAGE, suggestion=MISSING_KEY_SUGGESTION)
        if not is_well_formed_key(plain):
            raise InvalidApiKey(INVALID_KEY_MESSAGE, suggestion=BAD_KEY_SUGGESTION)
        key_hash = hash_key(plain)
        del plain  # nothing below needs the key itself
        found = await self._lookup(key_hash)
        if found is None:
            raise InvalidApiKey(INVALID_KEY_MESSAGE, suggestion=BAD_KEY_SUGGESTION)
        account, record = found
        # The store found the record by this hash; comparing again guards a store bug (or a
        # cache mix-up) from ever letting one key stand for another.
        if not hmac.compare_digest(record.key_hash, key_hash):
            raise InvalidApiKey(INVALID_KEY_MESSAGE, suggestion=BAD_KEY_SUGGESTION)
        if record.state(utc_now() if now is None else now) != "active":
            raise InvalidApiKey(INVALID_KEY_MESSAGE, suggestion=BAD_KEY_SUGGESTION)
        check_origin(record, origin)
        return account, record
