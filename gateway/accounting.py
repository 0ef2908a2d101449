"""What a paid request costs its account: admission under the limits, the charge, the refund.

The store decides (it is shared by every gateway); this module turns its admissions into
429s and rate-limit headers, and makes sure no credit is lost when the store goes away
between a debit and the refund it owes. A store that cannot be reached raises its own
errors, which ``gateway/errors.py`` answers 503.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import structlog
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from celestial.v1 import options_pb2
from gateway.errors import TRANSIENT_STORE_ERRORS as TRANSIENT
from gateway.key_modes import limits_for_test_keys
from gateway.rate_limit_fields import CONCURRENCY_POLICY, RATE_POLICY, limit_field, policy_field, seconds_until
from shared.errors import RateLimitExceeded
from store.errors import StoreOutcomeUnknown
from store.interfaces import CreditLedger, Limiters
from store.records import RATE_WINDOW_S, Account, Admission, AdmittedCharge, ChargeNote
from store.spend_caps import SpendWarning

log = structlog.get_logger("celestial.gateway")

SpendWarningHandler = Callable[[list[SpendWarning]], Awaitable[None]]

#: Seconds between attempts to deliver a refund or a release the store could not take at once.
REFUND_RETRY_S = 0.5


def credit_cost(http: options_pb2.HttpEndpoint, message: Message) -> int:
    """Return the credits a request costs: the base cost, or a conditional cost that applies."""
    for conditional in http.conditional_credits:
        fd = message.DESCRIPTOR.fields_by_name.get(conditional.field)
        if fd is None:
            continue
        value = getattr(message, conditional.field)
        text = str(value).lower() if fd.type == FieldDescriptor.TYPE_BOOL else str(value)
        if fd.is_repeated:
            text = ",".join(str(v) for v in value)
        # Vocabularies are case-insensitive, so is the value a price depends on (star=ALL is all).
        if text.strip().lower() == conditional.equals.lower():
            return conditional.credits
    return http.credits


def rate_limit_headers(admission: Admission, now_s: float | None = None) -> list[tuple[bytes, bytes]]:
    """Return the rate-limit headers of an admission made at ``now_s`` (Unix s; now by default):
    ``X-RateLimit-*`` (limit per minute, remaining, reset in Unix s) and the IETF draft-11
    fields ``RateLimit-Policy`` (the minute's quota and window) and ``RateLimit`` (what is left
    and, ``t``, the seconds to the window's end; ``gateway/rate_limit_fields.py``).

    A 429 for concurrency leaves ``t`` out: its Retry-After (a slot frees within seconds) may
    come before the minute's end, and draft-11 (section 6) asks that Retry-After never point
    earlier than the end of the effective window.
    """
    now_s = time.time() if now_s is None else now_s
    window_left_s = None if admission.reason == "concurrency" else seconds_until(admission.reset_at_s, now_s)
    return [
        (b"x-ratelimit-limit", str(admission.limit).encode()),
        (b"x-ratelimit-remaining", str(max(0, admission.remaining)).encode()),
        (b"x-ratelimit-reset", str(admission.reset_at_s).encode()),
        (b"ratelimit-policy", policy_field(RATE_POLICY, admission.limit, RATE_WINDOW_S).encode()),
        (b"ratelimit", limit_field(RATE_POLICY, admission.remaining, window_left_s).encode()),
    ]


def refusal(admission: Admission) -> RateLimitExceeded:
    """Return the 429 of a refused admission, carrying its Retry-After in seconds."""
    retry_after_s = max(1, admission.retry_after_s)
    if admission.reason == "concurrency":
        return RateLimitExceeded(
            "The account already has its maximum of concurrent requests in flight.",
            suggestion="Wait for a request to finish, or send fewer at once; Retry-After says when to retry.",
            retry_after_s=retry_after_s,
            violated_policies=(CONCURRENCY_POLICY,),
        )
    return RateLimitExceeded(
        f"The account has used its {admission.limit} requests of this minute.",
        suggestion="Wait for the number of seconds in Retry-After (the window resets then), or ask for a higher limit.",
        retry_after_s=retry_after_s,
        violated_policies=(RATE_POLICY,),
    )


class Accounting:
    """Admission, charges and refunds of one gateway process against the shared store."""

    def __init__(self, ledger: CreditLedger, limiter: Limiters, on_spend_warnings: SpendWarningHandler | None = None):
        self.ledger = ledger
        self.limiter = limiter
        #: Given the 80 % spend-cap warnings this process's debits were the first to reach
        #: (``store/spend_caps.py``), in the background: the mail to the account's owners.
        self.on_spend_warnings = on_spend_warnings
        self._background: set[asyncio.Task] = set()

    async def admit(
        self, account: Account, slot_id: str, *, test: bool = False, computations: int = 1, slots: int = 1
    ) -> Admission:
        """Return the admission of a request (a test key's under the test limits, counting
        ``computations`` and holding ``slots`` slots: ``gateway/key_modes.py``; a live
        request counts 1 and holds 1); raises RateLimitExceeded (429) when refused.

        Raises the store's own errors when it is unreachable.
        """
        try:
            if test:
                return await self.limiter.admit_test_traffic(
                    limits_for_test_keys(account), slot_id, time.time(), computations=computations, slots=slots
                )
            return await self.limiter.admit(account, slot_id, time.time())
        except (StoreOutcomeUnknown, asyncio.CancelledError):
            # The admission may have been written, its answer lost (or its caller cancelled
            # once it was committed, as the store answers after its commit): the slot it took
            # would count against the account until its lease ran out (two minutes) with
            # nothing in flight. A release of a slot never taken changes nothing.
            self.release(account.id, slot_id, test=test, slots=slots)
            raise

    async def balance(self, account_id: str) -> int:
        """Return the account's credits; the store's own errors while it is unreachable."""
        return await self.ledger.balance(account_id)

    def release(self, account_id: str, slot_id: str, *, test: bool = False, slots: int = 1) -> None:
        """Free the concurrency slot (a test key's ``slots`` among the test slots) without
        making the response wait for the store."""
        self._spawn(self._release(account_id, slot_id, test, slots))

    async def _release(self, account_id: str, slot_id: str, test: bool = False, slots: int = 1) -> None:
        # Retried while the store is down: a slot that lapses unreleased has its charge
        # refunded by the next admission (the store takes it for a request whose gateway died).
        while True:
            try:
                if test:
                    await self.limiter.release_test_traffic(account_id, slot_id, slots)
                else:
                    await self.limiter.release(account_id, slot_id)
                return
            except TRANSIENT:
                await asyncio.sleep(REFUND_RETRY_S)
            except Exception as error:
                log.error("release_failed", account_id=account_id, error=repr(error))
                return

    async def charge(
        self, account_id: str, credits: int, charge_id: str, slot_id: str | None = None, note: ChargeNote | None = None
    ) -> int:
        """Return the balance after debiting ``credits`` (the ledger row noting what it paid for);
        402 as InsufficientCredits.

        With ``slot_id`` (the slot of an admission already made: a batch's), the charge is
        recorded under the slot first, so it is refunded if the slot lapses unreleased. When
        the debit reached the store but its answer was lost (503), it may have been written: a
        refund of ``charge_id`` is then delivered in the background (it gives back nothing
        when nothing was charged).
        """
        if slot_id is not None:
            await self.limiter.hold_charge(account_id, slot_id, (charge_id, credits))
        try:
            return await self.ledger.reserve(account_id, credits, charge_id, note)
        except StoreOutcomeUnknown:
            self._spawn(self._refund_until_done(account_id, credits, charge_id))
            raise
        finally:
            self._hand_on_spend_warnings()

    async def admit_and_charge(
        self, account: Account, slot_id: str, credits: int, charge_id: str, note: ChargeNote | None = None
    ) -> AdmittedCharge:
        """Return the admission of a request and the charge it allowed (one store step).

        Refusals (429, 402) come back in the result, so the caller can set the rate-limit
        headers first; an unreachable store raises its own errors.
        """
        try:
            return await self.limiter.admit_and_reserve(account, slot_id, credits, charge_id, note=note)
        except StoreOutcomeUnknown:
            # Written or not, the request goes no further: its charge is refunded (as in
            # charge()) and its slot released (as in admit()), each a no-op if never made.
            self._spawn(self._refund_until_done(account.id, credits, charge_id))
            self.release(account.id, slot_id)
            raise
        except asyncio.CancelledError:
            # Cancelled (its client gone) before or after the store committed: the caller
            # refunds the charges it noted; the slot is released here, a no-op if never held.
            self.release(account.id, slot_id)
            raise
        finally:
            self._hand_on_spend_warnings()

    def _hand_on_spend_warnings(self) -> None:
        """Send the spend-cap warnings the store has for this process to their handler, in
        the background (taken even with no handler, so they never pile up)."""
        take = getattr(self.ledger, "take_spend_warnings", None)
        warnings = take() if take is not None else []
        if warnings and self.on_spend_warnings is not None:
            self._spawn(self.on_spend_warnings(warnings))

    async def refund(self, account_id: str, credits: int, charge_id: str) -> None:
        """Give back a charge; while the store is down, keep retrying in the background.

        Refunds are idempotent per ``charge_id``, so a retry can never pay back twice.
        """
        try:
            await self.ledger.refund(account_id, credits, charge_id)
        except TRANSIENT:
            log.warning("refund_deferred", account_id=account_id, charge_id=charge_id, credits=credits)
            self._spawn(self._refund_until_done(account_id, credits, charge_id))

    async def _refund_until_done(self, account_id: str, credits: int, charge_id: str) -> None:
        while True:
            await asyncio.sleep(REFUND_RETRY_S)
            try:
                await self.ledger.refund(account_id, credits, charge_id)
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
