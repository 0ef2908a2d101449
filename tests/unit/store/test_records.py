"""store/records.py: the store's records and the conversions of the instants they hold.

References: docs/stores.md (a slot lapses after 120 s), ../shared/spec/decisions.md (Limits:
requests per minute), the module's documented rules (a key's state, usage totals); instants
are checked against dates worked out by hand from the Unix epoch.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from store.records import (
    CHARGE_NOTE_MAX_CHARS,
    RATE_WINDOW_S,
    SLOT_LEASE_S,
    ChargeNote,
    KeyRecord,
    Usage,
    from_unix_s,
    to_unix_s,
    utc_now,
)

CREATED = datetime(2030, 1, 1, tzinfo=UTC)


def _key(**changes) -> KeyRecord:
    return KeyRecord("key_1", "acct_1", "f" * 64, "AbCd", CREATED, **changes)


def test_utc_now_is_aware_utc_and_now():
    before = datetime.now(UTC)
    now = utc_now()
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    assert before <= now <= datetime.now(UTC)


def test_unix_seconds_count_from_the_epoch_in_utc():
    assert to_unix_s(datetime(1970, 1, 2, tzinfo=UTC)) == 86_400
    # 2000-01-01T00:00:00Z is 10,957 days after the epoch.
    assert to_unix_s(datetime(2000, 1, 1, tzinfo=UTC)) == 10_957 * 86_400
    assert to_unix_s(datetime(2000, 1, 1, 2, tzinfo=timezone(timedelta(hours=2)))) == 10_957 * 86_400


def test_unix_seconds_read_back_as_an_aware_utc_moment():
    moment = from_unix_s(10_957 * 86_400 + 0.5)
    assert moment == datetime(2000, 1, 1, 0, 0, 0, 500_000, tzinfo=UTC)
    assert moment.utcoffset() == timedelta(0)


def test_instants_survive_the_round_trip_through_unix_seconds():
    for moment in (CREATED, datetime(2024, 2, 29, 23, 59, 59, 123_456, tzinfo=UTC), utc_now()):
        assert from_unix_s(to_unix_s(moment)) == moment
    assert to_unix_s(from_unix_s(1_700_000_000.25)) == 1_700_000_000.25


def test_none_stays_none_both_ways():
    assert to_unix_s(None) is None and from_unix_s(None) is None


def test_a_key_is_active_until_its_expiry_and_expired_from_it():
    key = _key(expires_at=CREATED + timedelta(days=1))
    assert key.state(CREATED + timedelta(days=1) - timedelta(microseconds=1)) == "active"
    assert key.state(CREATED + timedelta(days=1)) == "expired"


def test_a_revoked_key_is_revoked_at_any_moment_even_one_before_its_revocation_and_past_its_expiry():
    key = _key(expires_at=CREATED + timedelta(days=1), revoked_at=CREATED + timedelta(hours=1))
    assert key.state(CREATED) == "revoked"
    assert key.state(CREATED + timedelta(days=2)) == "revoked"


def test_a_key_without_expiry_stays_active_and_state_defaults_to_now():
    assert _key().state(datetime(9999, 1, 1, tzinfo=UTC)) == "active"
    assert _key(expires_at=utc_now() - timedelta(seconds=1)).state() == "expired"


def test_a_key_records_repr_shows_no_hash():
    assert "f" * 64 not in repr(_key())


def test_usage_reads_the_ledger_totals_and_credits_used_are_debits_less_refunds():
    usage = Usage.of_totals("acct_1", None, {"debit": (7, 30), "refund": (2, 5), "topup": (3, 1000)})
    assert (usage.requests, usage.refunds) == (7, 2)
    assert (usage.credits_debited, usage.credits_refunded, usage.credits_topped_up) == (30, 5, 1000)
    assert usage.credits_used == 25


def test_a_charge_note_holds_at_most_200_characters_a_member():
    assert CHARGE_NOTE_MAX_CHARS == 200
    ChargeNote("/" + "p" * 199, "k" * 200, "r" * 200)
    for member in ("endpoint", "key_id", "request_id"):
        with pytest.raises(ValueError, match=member):
            ChargeNote(**{member: "x" * 201})


def test_a_rate_window_is_a_minute_and_a_slot_lease_outlasts_it():
    assert RATE_WINDOW_S == 60
    assert SLOT_LEASE_S == 120
