"""The NATS store's limiter: each account's rate window and concurrency slots in one
key-value entry, updated with ``kv.update(last=revision)`` (docs/stores.md, "Design notes: the NATS store")."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import orjson

from store import rules
from store.bounds import validate_limits
from store.errors import StoreUnavailable, no_such_account
from store.interfaces import admit_then_reserve
from store.nats_connection import NatsConnection, WrongLastSequence, check_account_id
from store.nats_ledger import account_of
from store.records import Account, Admission, AdmittedCharge, ChargeNote


@dataclass(frozen=True)
class _Limits:
    """An account's limiter entry: its revision (0: none yet), rate window and slots held."""

    revision: int
    window: rules.Window | None
    slots: dict[str, rules.Slot]


def _names_holder(doc: dict, holder: str) -> bool:
    """Return whether a stored limiter entry holds a slot of ``holder``."""
    return any(len(stored) > 2 and stored[2] == holder for stored in doc["slots"].values())


class NatsLimiter(NatsConnection):
    """Rate windows and concurrency slots (the store's :class:`~store.interfaces.Limiter`)."""

    async def set_limits(
        self, account: str, *, rate_per_minute: int | None = None, max_concurrent: int | None = None
    ) -> Account:
        """Return the account (id or name) after changing the limits given (each >= 1).

        Every live key of the account is then reported by :meth:`key_changes` (its record is
        rewritten unchanged), since gateways cache a key together with its account's limits.
        Raises AccountNotFound, ValueError.
        """
        validate_limits(rate_per_minute, max_concurrent)
        await self._await_watch_setups()
        while True:
            found = await self._find_account(account)
            if found is None:
                raise no_such_account(account)
            revision, doc = found
            if rate_per_minute is None and max_concurrent is None:
                break
            doc = {**doc}
            if rate_per_minute is not None:
                doc["rate_per_minute"] = rate_per_minute
            if max_concurrent is not None:
                doc["max_concurrent"] = max_concurrent
            try:
                await self._call(self._accounts.update(f"id.{doc['id']}", orjson.dumps(doc), last=revision))
            except WrongLastSequence:
                continue  # changed meanwhile: apply the change to the newer record
            await self._announce_keys_of(doc["id"])
            break
        return account_of(doc, await self.balance(doc["id"]))

    async def _read_limits(self, account_id: str) -> _Limits:
        """Return the account's limiter entry as stored (and cache it); revision 0 when it has none yet."""
        got = await self._get_json(self._limits, account_id)
        if got is None:
            limits = _Limits(0, None, {})
        else:
            window = (
                None if got[1]["window_start_s"] is None else rules.Window(got[1]["window_start_s"], got[1]["admitted"])
            )
            # A slot written by a version before holders were named has none.
            slots = {
                slot_id: rules.Slot(stored[0], tuple(map(tuple, stored[1])), stored[2] if len(stored) > 2 else "")
                for slot_id, stored in got[1]["slots"].items()
            }
            limits = _Limits(got[0], window, slots)
        self._limit_cache[account_id] = limits
        return limits

    async def _write_limits(self, account_id: str, limits: _Limits) -> None:
        """Store ``limits`` over the entry at ``limits.revision``; WrongLastSequence if it moved."""
        doc = {
            "window_start_s": None if limits.window is None else limits.window.start_s,
            "admitted": 0 if limits.window is None else limits.window.admitted,
            "slots": {slot_id: [slot.expires_s, slot.charges, slot.holder] for slot_id, slot in limits.slots.items()},
        }
        try:
            revision = await self._call(self._limits.update(account_id, orjson.dumps(doc), last=limits.revision))
        except (WrongLastSequence, StoreUnavailable):
            self._limit_cache.pop(account_id, None)
            raise
        self._limit_cache[account_id] = _Limits(revision, limits.window, limits.slots)

    async def admit(
        self,
        account: Account,
        slot_id: str,
        now_s: float | None = None,
        *,
        charge: tuple[str, int] | None = None,
        computations: int = 1,
        slots: int = 1,
    ) -> Admission:
        """Return the admission of one request of ``account`` at ``now_s`` (Unix seconds),
        holding the concurrency slot ``slot_id`` (for SLOT_LEASE_S at most, with ``charge``)
        when allowed; the charges of lapsed slots are refunded before the entry that drops them
        is written, so a failure in between leaves them to the next admission. The slots whose
        release waits for the account's lock are free for it, and released by its write.

        A refusal counts nothing and holds nothing (pending releases are left to their own
        calls), and is decided on a fresh read. A request that counts several
        ``computations`` and holds several ``slots`` (a test key's batch, ``nats_test_traffic.py``;
        its slots carry no charge) is admitted whole or refused whole, in the same write.
        """
        now_s = time.time() if now_s is None else now_s
        account_id = check_account_id(account.id)
        releasing = self._releasing.setdefault(account_id, set())
        async with self._lock("limits", account_id):
            limits = self._limit_cache.get(account_id)
            fresh = limits is None
            if fresh:
                limits = await self._read_limits(account_id)
            while True:
                released = set(releasing)
                kept = rules.release(limits.slots, *released)
                live = rules.live_slots(kept, now_s)
                admission, window = rules.admit(
                    limits.window,
                    len(live),
                    account.rate_per_minute,
                    account.max_concurrent,
                    now_s,
                    computations=computations,
                    slots=slots,
                )
                if window is None and not fresh:
                    limits, fresh = await self._read_limits(account_id), True  # the cache may be behind
                    continue
                if window is None:
                    return admission
                # A lapsed slot is refunded even if its release is pending: that release would
                # have been written after this admission, which drops the slot unreleased.
                for charge_id, credits in rules.lapsed_charges(limits.slots, now_s):
                    await self.refund(account_id, credits, charge_id)
                held = (
                    rules.hold(live, slot_id, now_s, charge, self.holder_id)
                    if slots == 1
                    else rules.hold_group(live, rules.slot_group(slot_id, slots), now_s, self.holder_id)
                )
                try:
                    await self._write_limits(account_id, _Limits(limits.revision, window, held))
                except WrongLastSequence:
                    limits, fresh = await self._read_limits(account_id), True
                    continue
                releasing.difference_update(released)
                return admission

    async def release(self, account_id: str, slot_id: str) -> None:
        """Free the concurrency slot ``slot_id`` of the account; an unknown or freed slot is a no-op.

        The slot waits for the account's lock among its pending releases, which the next
        write of the entry drops (an admission's, a charge's, another release's): when that
        write is another's, this returns without a round trip of its own.
        """
        self._releasing.setdefault(check_account_id(account_id), set()).add(slot_id)
        await self._change_slot(account_id, slot_id, lambda slots: rules.release(slots, slot_id), unless_released=True)

    async def hold_charge(self, account_id: str, slot_id: str, charge: tuple[str, int]) -> None:
        """Record ``charge`` (request id, credits) under the slot ``slot_id``, before it is
        made; a slot not held records nothing."""
        await self._change_slot(account_id, slot_id, lambda slots: rules.with_charge(slots, slot_id, charge))

    async def _change_slot(
        self,
        account_id: str,
        slot_id: str,
        change: Callable[[dict[str, rules.Slot]], dict[str, rules.Slot]],
        *,
        unless_released: bool = False,
    ) -> None:
        """Write the account's slots as ``change`` makes them, less those of pending releases,
        while ``slot_id`` is held (read afresh when the cache does not hold it), retried on a
        concurrent write. With ``unless_released``, nothing is done once another write has
        released ``slot_id`` (it is no longer among the pending releases).

        The pending releases written leave the set only once the write succeeded: a failed
        one leaves them to the next write, or to their own calls' retries.
        """
        check_account_id(account_id)
        releasing = self._releasing.setdefault(account_id, set())
        async with self._lock("limits", account_id):
            if unless_released and slot_id not in releasing:
                return
            limits = self._limit_cache.get(account_id)
            if limits is None or slot_id not in limits.slots:
                limits = await self._read_limits(account_id)
            while slot_id in limits.slots:
                released = set(releasing)
                try:
                    await self._write_limits(
                        account_id,
                        _Limits(limits.revision, limits.window, rules.release(change(limits.slots), *released)),
                    )
                except WrongLastSequence:
                    limits = await self._read_limits(account_id)
                    continue
                releasing.difference_update(released)
                return
            releasing.discard(slot_id)  # not held: there is nothing to release

    async def free_slots_of(self, holder: str) -> int:
        """Free every concurrency slot ``holder`` (a dead store's ``holder_id``) holds, in every
        limiter entry, refunding the charges made under them first (as for a lapsed slot: a
        failure in between leaves them to the next call or to the lease's end); return the
        slots freed. Each entry is written under compare-and-set, and refunds are once per
        request id, so survivors doing it at once free each slot once and refund each charge once.
        """
        listed = await self._listing(self._limits, ">")
        held = [entry for entry, value in listed.items() if _names_holder(orjson.loads(value), holder)]
        freed = 0
        for entry in held:
            async with self._lock("limits", entry):
                while True:
                    limits = await self._read_limits(entry)
                    dead = rules.held_by(limits.slots, holder)
                    if not dead:
                        break
                    charges = [charge for slot in dead.values() for charge in slot.charges]
                    if charges:  # a test entry's slots hold none
                        await self.refund_charges(entry, charges)
                    kept = rules.release(limits.slots, *dead)
                    try:
                        await self._write_limits(entry, _Limits(limits.revision, limits.window, kept))
                    except WrongLastSequence:
                        continue
                    freed += len(dead)
                    break
        return freed

    async def admit_and_reserve(
        self,
        account: Account,
        slot_id: str,
        credits: int,
        request_id: str,
        now_s: float | None = None,
        note: ChargeNote | None = None,
    ) -> AdmittedCharge:
        """Return the admission and, when allowed, the charge (two writes: the limiter's, then the ledger's)."""
        return await admit_then_reserve(self, account, slot_id, credits, request_id, now_s, note)
