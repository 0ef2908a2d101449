"""The rules of an account's credits and limits, as pure functions over its state: admit a
request (its rate window and concurrency slots), hold and release its slot, charge it, refund it. Every store reads the
state under its own atomicity (an SQLite transaction, one process's memory), applies these,
and writes back what they return; no store writes the rules again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from shared.errors import InsufficientCredits
from store.key_format import quoted
from store.records import RATE_WINDOW_S, SLOT_LEASE_S, Admission


@dataclass(frozen=True)
class Window:
    """An account's rate window: the Unix second it started and the requests admitted in it."""

    start_s: int
    admitted: int


def admit(
    window: Window | None,
    live_slots: int,
    rate_per_minute: int,
    max_concurrent: int,
    now_s: float,
    *,
    computations: int = 1,
    slots: int = 1,
) -> tuple[Admission, Window | None]:
    """Return the admission of one more request at ``now_s`` (Unix seconds) and the window to
    store when it is allowed (None when refused: a refused request counts for nothing and
    holds no slot).

    ``window`` is the stored one (None if none) and ``live_slots`` the slots held and not yet
    expired. The window only moves forward: a stored window newer than ``now_s``'s (opened by
    a gateway whose clock runs ahead) is counted into, never replaced by an older one.

    A request counts ``computations`` in the window and holds ``slots`` slots (each 1 for a
    live request; a test key's batch counts its sub-requests, ``gateway/key_modes.py``), all
    or nothing: refused for the rate when the window has fewer than ``computations`` left
    (``remaining`` is then what it has left), for concurrency when fewer than ``slots`` are free.
    """
    start_s = int(now_s // RATE_WINDOW_S) * RATE_WINDOW_S
    admitted = 0
    if window is not None and window.start_s >= start_s:
        start_s, admitted = window.start_s, window.admitted
    reset_at_s = start_s + RATE_WINDOW_S
    left = max(0, rate_per_minute - admitted)
    if computations > left:
        return Admission(False, rate_per_minute, left, reset_at_s, max(1, math.ceil(reset_at_s - now_s)), "rate"), None
    if live_slots + slots > max_concurrent:
        return Admission(False, rate_per_minute, left, reset_at_s, 1, "concurrency"), None
    admission = Admission(True, rate_per_minute, left - computations, reset_at_s)
    return admission, Window(start_s, admitted + computations)


@dataclass(frozen=True)
class Slot:
    """A concurrency slot held by one request: its lease end (Unix seconds), the charges
    made under it, each (request id, credits): a request's own, or a batch's items, and the
    process holding it where the store names one (a NATS store's, whose heartbeat the others
    watch: ``store/nats_heartbeats.py``; empty otherwise)."""

    expires_s: float
    charges: tuple[tuple[str, int], ...] = ()
    holder: str = ""


def live_slots(slots: Mapping[str, Slot], now_s: float) -> dict[str, Slot]:
    """Return the slots (slot id -> Slot) whose lease runs past ``now_s``."""
    return {slot_id: slot for slot_id, slot in slots.items() if slot.expires_s > now_s}


def hold(
    slots: Mapping[str, Slot],
    slot_id: str,
    now_s: float,
    charge: tuple[str, int] | None = None,
    holder: str = "",
) -> dict[str, Slot]:
    """Return the live slots with ``slot_id`` held from ``now_s`` for SLOT_LEASE_S seconds by
    ``holder``, carrying ``charge`` (request id, credits) when the admission charges one. The
    lapsed slots are dropped: the caller refunds their :func:`lapsed_charges` first."""
    charges = () if charge is None else (charge,)
    return {**live_slots(slots, now_s), slot_id: Slot(now_s + SLOT_LEASE_S, charges, holder)}


def slot_group(slot_id: str, slots: int) -> tuple[str, ...]:
    """Return the ids of the ``slots`` slots one request holds under ``slot_id``: ``slot_id``
    itself, then ``slot_id.1``, ``slot_id.2`` ... (a test key's batch holds several, one per
    sub-request it runs at once; any other request one)."""
    return (slot_id, *(f"{slot_id}.{index}" for index in range(1, slots)))


def hold_group(slots: Mapping[str, Slot], slot_ids: tuple[str, ...], now_s: float, holder: str = "") -> dict[str, Slot]:
    """Return the live slots with each of ``slot_ids`` held from ``now_s`` for SLOT_LEASE_S
    seconds by ``holder``, carrying no charge (the slots of a request that charges nothing)."""
    return {**live_slots(slots, now_s), **{slot_id: Slot(now_s + SLOT_LEASE_S, (), holder) for slot_id in slot_ids}}


def with_charge(slots: Mapping[str, Slot], slot_id: str, charge: tuple[str, int]) -> dict[str, Slot]:
    """Return the slots with ``charge`` (request id, credits) recorded under ``slot_id``, as a
    charge is made by the request holding it; a slot not held (released, or dropped) records
    nothing."""
    slot = slots.get(slot_id)
    if slot is None or charge in slot.charges:
        return dict(slots)
    return {**slots, slot_id: replace(slot, charges=slot.charges + (charge,))}


def release(slots: Mapping[str, Slot], *slot_ids: str) -> dict[str, Slot]:
    """Return the slots without ``slot_ids`` (releasing one not held changes nothing). A
    released slot's charges stand: its request ran to its end. Lapsed slots are kept for the
    next admission, which refunds their charges."""
    return {other: slot for other, slot in slots.items() if other not in slot_ids}


def lapsed_charges(slots: Mapping[str, Slot], now_s: float) -> list[tuple[str, int]]:
    """Return (request id, credits) of each charge whose slot's lease ran out unreleased: the
    gateway that held it died (or froze) mid-request, so its client got no answer and the
    charge is owed back. Refunds are idempotent per request id, so whoever drops a lapsed
    slot refunds its charges, and a second refund of one gives nothing."""
    return [charge for slot in slots.values() if slot.expires_s <= now_s for charge in slot.charges]


def held_by(slots: Mapping[str, Slot], holder: str) -> dict[str, Slot]:
    """Return the slots (slot id -> Slot) held by ``holder``, a process named on them: when
    it has died, its requests are over and their charges owed back, as a lapsed slot's."""
    return {slot_id: slot for slot_id, slot in slots.items() if holder and slot.holder == holder}


def charge(balance: int, credits: int) -> int:
    """Return the balance after debiting ``credits``; InsufficientCredits (nothing debited)
    when the balance cannot cover them."""
    if balance < credits:
        raise InsufficientCredits(
            f"This request costs {credits} credit{'s' if credits != 1 else ''}; the balance is {balance}."
        )
    return balance - credits


def refund_due(charged: int | None, already_refunded: bool, credits: int, request_id: str) -> int:
    """Return the credits a refund of ``request_id`` gives back: ``credits`` once, and nothing
    for a request never charged (a refund never mints credits) or refunded before. More than
    was charged is a ValueError."""
    if charged is None or already_refunded:
        return 0
    if credits > charged:
        raise ValueError(f"cannot refund {credits} credits: request {quoted(request_id)} was charged {charged}")
    return credits
