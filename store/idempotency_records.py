"""What the store keeps of an ``Idempotency-Key``: the claim on it, the request it names, and
the answer to replay; the rules every backend applies to them, and their one encoding.

A record is held per account and key for IDEMPOTENCY_TTL_S (24 hours, issue 39) from the
moment it was first claimed. While its request runs it is *in progress*: a claim with a lease
(the request's deadline plus a margin, chosen by the gateway) after which another request with
the key may take it over, so a gateway that died mid-request never blocks the key for long.
Once the request has answered it holds the answer (:class:`StoredAnswer`), replayed to every
retry until it expires. The key itself is kept only as its SHA-256 (:func:`key_digest`): it is
the client's string, and a digest is a safe NATS subject token of fixed length.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import orjson

#: How long a key is remembered from its first claim, in seconds: the 24 hours of issue 39.
IDEMPOTENCY_TTL_S = 24 * 3600.0
#: The largest answer body a record holds, in bytes. The NATS server refuses a message above its
#: max_payload (1 MiB by default, and our deployments keep the default); half of it leaves room
#: for the record's header and headers. Both stores keep the same bound, so which answers are
#: stored and which are recomputed (``docs/idempotency.md``) does not depend on the store.
MAX_STORED_ANSWER_BYTES = 512 * 1024


@dataclass(frozen=True)
class StoredAnswer:
    """The answer a key replays: its HTTP status, headers (name, value) as first sent and body.

    ``recompute`` marks an answer whose body was above MAX_STORED_ANSWER_BYTES: ``body`` then
    holds what the gateway needs to compute it again without charge (``gateway/idempotency.py``),
    not the answer itself.
    """

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    recompute: bool = False


@dataclass(frozen=True)
class IdempotencyRecord:
    """One account's record of one key: the request's fingerprint, which claim holds it, the
    lease of that claim and the record's expiry (Unix seconds), and the answer once there is one."""

    fingerprint: str
    claim_id: str
    lease_until_s: float
    expires_at_s: float
    answer: StoredAnswer | None = None

    @property
    def in_progress(self) -> bool:
        """Return whether its request has not answered yet."""
        return self.answer is None


def key_digest(key: str) -> str:
    """Return the SHA-256 hex digest of an ``Idempotency-Key`` value, as the store keys it."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_claim(fingerprint: str, claim_id: str, lease_s: float, now_s: float) -> IdempotencyRecord:
    """Return the in-progress record a claim at ``now_s`` (Unix seconds) writes, its lease ``lease_s`` seconds."""
    if lease_s <= 0:
        raise ValueError(f"lease_s must be positive, got {lease_s!r}")
    return IdempotencyRecord(fingerprint, claim_id, now_s + lease_s, now_s + IDEMPOTENCY_TTL_S)


def may_take(existing: IdempotencyRecord | None, now_s: float) -> bool:
    """Return whether a new claim may replace ``existing`` at ``now_s``: there is none, it has
    expired, or it is in progress and its lease has run out (its gateway died, or never came
    back to complete or release it)."""
    if existing is None or existing.expires_at_s <= now_s:
        return True
    return existing.in_progress and existing.lease_until_s <= now_s


def check_answer(answer: StoredAnswer) -> StoredAnswer:
    """Return ``answer`` if a record may hold it; ValueError when its body is above the bound."""
    if len(answer.body) > MAX_STORED_ANSWER_BYTES:
        raise ValueError(
            f"an answer body of {len(answer.body)} bytes is above the {MAX_STORED_ANSWER_BYTES} a record holds"
        )
    return answer


def encode_record(record: IdempotencyRecord) -> bytes:
    """Return ``record`` as bytes: one JSON line of everything but the body, then the body raw
    (no base64: a stored answer costs its own size)."""
    answer = record.answer
    head = {
        "fingerprint": record.fingerprint,
        "claim_id": record.claim_id,
        "lease_until_s": record.lease_until_s,
        "expires_at_s": record.expires_at_s,
        "answer": None
        if answer is None
        else {"status": answer.status, "headers": answer.headers, "recompute": answer.recompute},
    }
    return orjson.dumps(head) + b"\n" + (b"" if answer is None else answer.body)


def decode_record(data: bytes) -> IdempotencyRecord:
    """Return the record :func:`encode_record` made ``data`` of."""
    head_bytes, _, body = data.partition(b"\n")
    head = orjson.loads(head_bytes)
    stored = head["answer"]
    answer = (
        None
        if stored is None
        else StoredAnswer(
            stored["status"], tuple((name, value) for name, value in stored["headers"]), body, stored["recompute"]
        )
    )
    return IdempotencyRecord(head["fingerprint"], head["claim_id"], head["lease_until_s"], head["expires_at_s"], answer)
