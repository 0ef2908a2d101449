"""The NATS store's ``Idempotency-Key`` records: one key-value bucket whose entries expire
(the rules: ``store/idempotency_records.py``).

Bucket ``P_IDEMPOTENCY`` (``P`` the store's prefix): ``<account_id>.<sha256 of the key>`` ->
the record (``idempotency_records.encode_record``). The bucket's TTL is IDEMPOTENCY_TTL_S, so
the server drops an entry a day after its last write: nothing prunes it. A claim is
``kv.create`` (exactly one of two concurrent claims succeeds), a takeover, completion or
release ``kv.update``/``kv.delete`` at the revision read, so a claim that lost its lease can
never overwrite the claim that took it over.
"""

from __future__ import annotations

import time

from nats.js import api
from nats.js.kv import KeyValue

from store.idempotency_records import (
    IDEMPOTENCY_TTL_S,
    IdempotencyRecord,
    StoredAnswer,
    check_answer,
    decode_record,
    encode_record,
    key_digest,
    may_take,
    new_claim,
)
from store.nats_connection import NatsConnection, WrongLastSequence, check_account_id


class NatsIdempotency(NatsConnection):
    """``Idempotency-Key`` records (the store's :class:`~store.interfaces.IdempotencyRecords`)."""

    _idempotency: KeyValue | None = None

    async def _ensure_layout(self) -> None:
        await super()._ensure_layout()
        js = self._nc.jetstream(timeout=max(self._timeout_s, 2.0))
        config = api.KeyValueConfig(
            bucket=f"{self.prefix}_IDEMPOTENCY",
            history=1,
            ttl=IDEMPOTENCY_TTL_S,
            storage=api.StorageType.FILE,
            replicas=self._replicas,
            direct=True,
        )
        await self._call(js.create_key_value(config))
        self._idempotency = await self._call(self._js.key_value(config.bucket))

    def __init__(self, **options) -> None:
        super().__init__(**options)
        # This process's claims held: claim id -> (the entry's revision, the record) as it
        # wrote them, so a completion needs no read first (a refused write reads the truth).
        self._held_claims: dict[str, tuple[int, IdempotencyRecord]] = {}

    async def claim_idempotency(
        self, account_id: str, key: str, fingerprint: str, claim_id: str, lease_s: float, now_s: float | None = None
    ) -> IdempotencyRecord:
        now_s = time.time() if now_s is None else now_s
        claim = new_claim(fingerprint, claim_id, lease_s, now_s)
        entry = f"{check_account_id(account_id)}.{key_digest(key)}"
        value = encode_record(claim)
        while True:
            try:
                self._held_claims[claim_id] = (await self._call(self._idempotency.create(entry, value)), claim)
                return claim
            except WrongLastSequence:
                pass  # held (or deleted, and re-created meanwhile): read it
            got = await self._get(self._idempotency, entry)
            if got is None:
                continue  # released between the two calls: claim it afresh
            revision, data = got
            existing = decode_record(data)
            if not may_take(existing, now_s):
                return existing
            try:
                self._held_claims[claim_id] = (
                    await self._call(self._idempotency.update(entry, value, last=revision)),
                    claim,
                )
                return claim
            except WrongLastSequence:
                continue  # another claim took it over first: read who holds it now

    async def _held(self, entry: str, claim_id: str) -> tuple[int, IdempotencyRecord] | None:
        """Return (revision, record) of ``entry`` if ``claim_id`` holds it unanswered; None otherwise."""
        got = await self._get(self._idempotency, entry)
        if got is None:
            return None
        record = decode_record(got[1])
        if record.claim_id != claim_id or not record.in_progress:
            return None
        return got[0], record

    async def complete_idempotency(
        self, account_id: str, key: str, claim_id: str, answer: StoredAnswer, now_s: float | None = None
    ) -> bool:
        check_answer(answer)
        now_s = time.time() if now_s is None else now_s
        entry = f"{check_account_id(account_id)}.{key_digest(key)}"
        held = self._held_claims.pop(claim_id, None)
        while True:
            if held is None:
                held = await self._held(entry, claim_id)
                if held is None:
                    return False
            revision, record = held
            if record.expires_at_s <= now_s:
                return False
            answered = IdempotencyRecord(
                record.fingerprint, claim_id, record.lease_until_s, record.expires_at_s, answer
            )
            try:
                await self._call(self._idempotency.update(entry, encode_record(answered), last=revision))
                return True
            except WrongLastSequence:
                held = None  # moved since: read whether this claim still holds it

    async def release_idempotency(self, account_id: str, key: str, claim_id: str) -> None:
        entry = f"{check_account_id(account_id)}.{key_digest(key)}"
        self._held_claims.pop(claim_id, None)
        while True:
            held = await self._held(entry, claim_id)
            if held is None:
                return
            try:
                await self._call(self._idempotency.delete(entry, last=held[0]))
                return
            except WrongLastSequence:
                continue
