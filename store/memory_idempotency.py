"""The in-memory store's ``Idempotency-Key`` records: one dictionary of one process (the
rules: ``store/idempotency_records.py``), for the benchmarks' stub gateway."""

from __future__ import annotations

import time

from store.idempotency_records import IdempotencyRecord, StoredAnswer, check_answer, key_digest, may_take, new_claim


class MemoryIdempotency:
    """``Idempotency-Key`` records in a dictionary (the :class:`~store.interfaces.IdempotencyRecords`
    of :class:`~store.memory_store.MemoryStore`); expired records are replaced, never pruned."""

    def __init__(self) -> None:
        self.idempotency: dict[tuple[str, str], IdempotencyRecord] = {}

    async def claim_idempotency(
        self, account_id: str, key: str, fingerprint: str, claim_id: str, lease_s: float, now_s: float | None = None
    ) -> IdempotencyRecord:
        now_s = time.time() if now_s is None else now_s
        claim = new_claim(fingerprint, claim_id, lease_s, now_s)
        entry = (account_id, key_digest(key))
        existing = self.idempotency.get(entry)
        if not may_take(existing, now_s):
            return existing
        self.idempotency[entry] = claim
        return claim

    async def complete_idempotency(
        self, account_id: str, key: str, claim_id: str, answer: StoredAnswer, now_s: float | None = None
    ) -> bool:
        check_answer(answer)
        now_s = time.time() if now_s is None else now_s
        entry = (account_id, key_digest(key))
        record = self.idempotency.get(entry)
        if record is None or record.claim_id != claim_id or not record.in_progress or record.expires_at_s <= now_s:
            return False
        self.idempotency[entry] = IdempotencyRecord(
            record.fingerprint, claim_id, record.lease_until_s, record.expires_at_s, answer
        )
        return True

    async def release_idempotency(self, account_id: str, key: str, claim_id: str) -> None:
        entry = (account_id, key_digest(key))
        record = self.idempotency.get(entry)
        if record is not None and record.claim_id == claim_id and record.in_progress:
            del self.idempotency[entry]
