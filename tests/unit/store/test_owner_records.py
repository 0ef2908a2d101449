"""store/owner_records.py: the dashboard's records (owners, sessions, sign-in throttles), the
digest an invite or session secret is kept as, and the email grammar.

References: the module's documented rules, docs/stores.md; SHA-256 test vectors from FIPS
180-2 (appendix B.1).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from store.owner_records import (
    OwnerRecord,
    SessionRecord,
    SignInThrottle,
    digest_secret,
    new_owner_id,
    new_session_id,
    normalize_email,
    same_digest,
)

ABC_SHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_a_secret_is_kept_as_its_sha256_hex_digest():
    assert digest_secret("abc") == ABC_SHA256
    assert digest_secret("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_the_same_secret_always_has_the_same_digest_and_another_secret_another():
    assert digest_secret("s3cret") == digest_secret("s3cret") != digest_secret("s3creT")


def test_a_digest_matches_only_itself_and_never_a_missing_one():
    assert same_digest(ABC_SHA256, ABC_SHA256)
    assert not same_digest(ABC_SHA256, digest_secret("abd"))
    assert not same_digest(None, ABC_SHA256)


def test_an_email_is_stored_trimmed_and_lowercased():
    assert normalize_email("  Ada.Lovelace@Example.COM ") == "ada.lovelace@example.com"


@pytest.mark.parametrize(
    "email",
    [
        "",
        "ada",
        "ada@example",
        "a@b@example.com",
        "ada lovelace@example.com",
        "ada@example.",
        "x" * 65 + "@example.com",
        None,
    ],
)
def test_text_that_is_no_email_address_is_refused(email):
    with pytest.raises(ValueError):
        normalize_email(email)


def test_an_email_of_254_characters_is_accepted_and_255_refused():
    domain = "d" * (254 - 64 - 1 - 4) + ".com"
    assert len(normalize_email("u" * 64 + "@" + domain)) == 254
    with pytest.raises(ValueError):
        normalize_email("u" * 64 + "@d" + domain)


def test_owner_and_session_ids_are_their_prefix_and_16_hex_digits():
    assert re.fullmatch(r"own_[0-9a-f]{16}", new_owner_id())
    assert re.fullmatch(r"ses_[0-9a-f]{16}", new_session_id())
    assert new_owner_id() != new_owner_id()


def test_no_record_shows_a_digest_or_password_hash_in_its_repr():
    owner = OwnerRecord("own_1", "acct_1", "a@b.co", datetime(2030, 1, 1, tzinfo=UTC), "argon2-HASH", "INVITE-DIGEST")
    session = SessionRecord("ses_1", "own_1", "SESSION-DIGEST")
    assert "argon2-HASH" not in repr(owner) and "INVITE-DIGEST" not in repr(owner)
    assert "SESSION-DIGEST" not in repr(session)


def test_an_owner_has_a_password_once_one_is_set():
    created = datetime(2030, 1, 1, tzinfo=UTC)
    assert not OwnerRecord("own_1", "acct_1", "a@b.co", created).has_password
    assert OwnerRecord("own_1", "acct_1", "a@b.co", created, password_hash="h").has_password


def test_failures_within_a_window_lock_the_subject_out_at_the_maximum():
    throttle = SignInThrottle("email:a@b.co")
    for now_s in (1000, 1010, 1020):
        throttle = throttle.after_failure(now_s, window_s=60, max_failures=3, lockout_s=300)
    assert (throttle.failures, throttle.window_start_s, throttle.locked_until_s) == (3, 1000, 1320)
    assert throttle.locked(1319.9) and not throttle.locked(1320)


def test_a_failure_after_the_window_starts_a_new_one():
    throttle = SignInThrottle("email:a@b.co").after_failure(1000, 60, 3, 300).after_failure(1030, 60, 3, 300)
    later = throttle.after_failure(1060, 60, 3, 300)
    assert (later.failures, later.window_start_s, later.locked_until_s) == (1, 1060, None)


def test_failures_while_locked_out_do_not_extend_the_lockout():
    locked = SignInThrottle("address:192.0.2.1", 3, 1000, 1320)
    assert locked.after_failure(1100, 60, 3, 300).locked_until_s == 1320


def test_a_subject_whose_lockout_ended_starts_counting_again():
    ended = SignInThrottle("address:192.0.2.1", 3, 1000, 1320)
    again = ended.after_failure(1400, 60, 3, 300)
    assert (again.failures, again.window_start_s, again.locked_until_s) == (1, 1400, None)
