"""What a paid request costs its account: admission under the limits, the charge, the refund.

The store decides (it is shared by every gateway); this module turns its answers into HTTP
errors and headers, and makes sure no credit is lost when the store goes away between a
debit and the refund it owes.
"""

from __future__ import annotations

import asyncio
import time

import structlog

from gateway.store.interfaces import Account, Admission, AdmittedCharge, Store, StoreBusy, StoreUnavailable
from shared.errors import RateLimitExceeded, ServiceUnavailable

log = structlog.get_logger("celestial.gateway")

#: Seconds between attempts to deliver a refund the store could not take at once.
REFUND_RETRY_S = 0.5

STORE_DOWN_MESSAGE = "The key and credit store is unreachable; nothing was charged."

#: Store failures that change nothing and pass: the server is down, or the embedded file
#: stayed locked by other writers past the store's wait limit. Both are a 503, never a 500.
TRANSIENT = (StoreUnavailable, StoreBusy)


def store_unavailable() -> ServiceUnavailable:
    """Return the 503 a request gets while the store cannot be reached."""
    return ServiceUnavailable(STORE_DOWN_MESSAGE, suggestion="Retry after the number of seconds in Retry-After.")


def rate_limit_headers(admission: Admission) -> list[tuple[bytes, bytes]]:
    """Return the X-RateLimit-* headers of an admission (limit per minute, remaining, reset in Unix s)."""
    return [
        (b"x-ratelimit-limit", str(admission.limit).encode()),
        (b"x-ratelimit-remaining", str(max(0, admission.remaining)).encode()),
        (b"x-ratelimit-reset", str(admission.reset_at_s).encode()),
    ]


def refusal(admission: Admission) -> RateLimitExceeded:
    """Return the 429 of a refused admission, carrying its Retry-After in seconds."""
    if admission.reason == "concurrency":
        error = RateLimitExceeded(
            "The account already has its maximum of concurrent requests in flight.",
            suggestion="Wait for a request to finish, or send fewer at once; Retry-After says when to retry.",
        )
    else:
        error = RateLimitExceeded(
            f"The account has used its {admission.limit} requests of this minute.",
            suggestion="Wait for the number of seconds in Retry-After (the window resets then), or ask for a higher limit.",
        )
    error.retry_after_s = max(1, admission.retry_after_s)
    return error


class Accounting:
    """Admission, charges and refunds of one gateway process against the shared store."""

    def __init__(self, store: Store):
        self.store = store
        self._background: set[asyncio.Task] = set()

    async def admit(self, account: Account, slot_id: str) -> Admission:
        """Return the admission of a request; raises RateLimitExceeded (429) when refused.

        Raises ServiceUnavailable (503) when the store is unreachable.
        """
        try:
            admission = await self.store.admit(account, slot_id, time.time())
        except TRANSIENT:
            raise store_unavailable() from None
        return admission

    def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot without making the response wait for the store."""
        self._spawn(self._release(account_id, slot_id))

    async def _release(self, account_id: str, slot_id: str) -> None:
        try:
            await self.store.release(account_id, slot_id)
        except TRANSIENT:
            pass  # the slot's lease runs out by itself (SLOT_LEASE_S)
        except Exception as error:
            log.error("release_failed", account_id=account_id, error=repr(error))

    async def charge(self, account_id: str, credits: int, charge_id: str) -> int:
        """Return the balance after debiting ``credits``; 402 or 503 errors as CelestialErrors."""
        try:
            return await self.store.reserve(account_id, credits, charge_id)
        except TRANSIENT:
            raise store_unavailable() from None

    async def admit_and_charge(self, account: Account, slot_id: str, credits: int, charge_id: str) -> AdmittedCharge:
        """Return the admission of a request and the charge it allowed (one store step).

        Raises ServiceUnavailable (503) when the store is unreachable; refusals (429, 402)
        come back in the result, so the caller can set the rate-limit headers first.
        """
        try:
            return await self.store.admit_and_reserve(account, slot_id, credits, charge_id)
        except TRANSIENT:
            raise store_unavailable() from None

    async def refund(self, account_id: str, credits: int, charge_id: str) -> None:
        """Give back a charge; while the store is down, keep retrying in the background.

        Refunds are idempotent per ``charge_id``, so a retry can never pay back twice.
        """
        try:
            await self.store.refund(account_id, credits, charge_id)
        except TRANSIENT:
            log.warning("refund_deferred", account_id=account_id, charge_id=charge_id, credits=credits)
            self._spawn(self._refund_until_done(account_id, credits, charge_id))

    async def _refund_until_done(self, account_id: str, credits: int, charge_id: str) -> None:
        while True:
            await asyncio.sleep(REFUND_RETRY_S)
            try:
                await self.store.refund(account_id, credits, charge_id)
            except TRANSIENT:
                continue
            log.info("refund_delivered", account_id=account_id, charge_id=charge_id, credits=credits)
            return

    def _spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self, timeout_s: float = 5.0) -> None:
        """Wait (at most ``timeout_s``) for pending releases and refunds, at shutdown."""
        if self._background:
            await asyncio.wait(set(self._background), timeout=timeout_s)
