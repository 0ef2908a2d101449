"""store/idempotency_records.py: a record's life (claim, lease, expiry), the bound on a stored
answer, and the one encoding the NATS store writes (issue 39: 24 hours, 1-255 character keys)."""

from __future__ import annotations

import pytest

from store.idempotency_records import (
    IDEMPOTENCY_TTL_S,
    MAX_STORED_ANSWER_BYTES,
    IdempotencyRecord,
    StoredAnswer,
    check_answer,
    decode_record,
    encode_record,
    key_digest,
    may_take,
    new_claim,
)

NOW = 1_700_000_000.0
ANSWER = StoredAnswer(200, (("content-type", "application/json"), ("x-request-id", "abc")), b'{"data":[1,2]}\n\x00\xff')


def test_a_claim_holds_its_lease_and_lives_a_day_from_now():
    claim = new_claim("fp", "c1", 15.0, NOW)
    assert (claim.lease_until_s, claim.expires_at_s, claim.in_progress) == (NOW + 15.0, NOW + 86_400, True)
    assert IDEMPOTENCY_TTL_S == 24 * 3600


def test_a_lease_must_be_positive():
    with pytest.raises(ValueError):
        new_claim("fp", "c1", 0.0, NOW)


def test_a_new_claim_may_take_a_missing_an_expired_or_a_lapsed_record_and_nothing_else():
    claim = new_claim("fp", "c1", 15.0, NOW)
    answered = IdempotencyRecord("fp", "c1", NOW + 15.0, NOW + IDEMPOTENCY_TTL_S, ANSWER)
    assert may_take(None, NOW)
    assert not may_take(claim, NOW + 14.9)
    assert may_take(claim, NOW + 15.0)
    assert not may_take(answered, NOW + 1000.0)
    assert may_take(answered, NOW + IDEMPOTENCY_TTL_S)


def test_an_answer_above_the_bound_is_refused():
    check_answer(StoredAnswer(200, (), b"x" * MAX_STORED_ANSWER_BYTES))
    with pytest.raises(ValueError):
        check_answer(StoredAnswer(200, (), b"x" * (MAX_STORED_ANSWER_BYTES + 1)))


@pytest.mark.parametrize(
    "record",
    [
        new_claim("fp", "c1", 15.0, NOW),
        IdempotencyRecord("fp", "c1", NOW + 15.0, NOW + IDEMPOTENCY_TTL_S, ANSWER),
        IdempotencyRecord(
            "fp", "c1", NOW + 15.0, NOW + IDEMPOTENCY_TTL_S, StoredAnswer(200, (), b'{"meta":{}}', recompute=True)
        ),
    ],
    ids=["in progress", "answered", "recomputed"],
)
def test_a_record_decodes_to_itself(record):
    assert decode_record(encode_record(record)) == record


def test_a_stored_answer_costs_its_own_size_plus_a_header_line():
    record = IdempotencyRecord("fp", "c1", NOW, NOW, StoredAnswer(200, (), b"y" * 10_000))
    assert 10_000 < len(encode_record(record)) < 10_200


def test_a_key_is_kept_as_its_sha256():
    assert (
        key_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )  # FIPS 180-2 test vector
