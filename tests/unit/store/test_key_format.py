"""store/key_format.py: the API key's format, the hash stores keep instead of it, its prefix
hint, and the redaction that keeps a key out of every message.

References: ../shared/spec/interface.md (Authentication 2: ``svc_live_``, or ``svc_test_`` for a
test key, plus 32 URL-safe characters), docs/stores.md; SHA-256 test vectors from FIPS 180-2
(appendix B.1).
"""

from __future__ import annotations

import re

from store import key_format

KEY_FORMAT = r"svc_live_[A-Za-z0-9_-]{32}"
TEST_KEY_FORMAT = r"svc_test_[A-Za-z0-9_-]{32}"


def test_a_generated_key_is_svc_live_and_32_url_safe_characters():
    for _ in range(200):
        assert re.fullmatch(KEY_FORMAT, key_format.generate_key())


def test_a_generated_test_key_is_svc_test_and_32_url_safe_characters():
    for _ in range(200):
        assert re.fullmatch(TEST_KEY_FORMAT, key_format.generate_key("test"))


def test_a_key_of_no_known_mode_is_not_generated():
    for mode in ("Test", "sandbox", "", None):
        try:
            key_format.generate_key(mode)
        except ValueError as refused:
            assert "'live' or 'test'" in str(refused)
        else:
            raise AssertionError(f"a key of mode {mode!r} was generated")


def test_the_mode_of_a_key_is_read_from_its_prefix():
    assert key_format.mode_of_key(key_format.generate_key("test")) == "test"
    assert key_format.mode_of_key(key_format.generate_key("live")) == "live"


def test_listings_show_a_key_by_its_modes_prefix_and_its_hint():
    assert key_format.shown_prefix("test", "AbCd") == "svc_test_AbCd..."
    assert key_format.shown_prefix("live", "AbCd") == "svc_live_AbCd..."


def test_generated_keys_never_repeat():
    assert len({key_format.generate_key() for _ in range(1000)}) == 1000


def test_a_key_hashes_to_its_sha256_hex_digest_the_same_every_time():
    # FIPS 180-2, B.1: SHA-256("abc").
    assert key_format.hash_key("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    key = key_format.generate_key()
    assert key_format.hash_key(key) == key_format.hash_key(key)
    assert re.fullmatch(r"[0-9a-f]{64}", key_format.hash_key(key))


def test_different_keys_have_different_hashes():
    keys = [key_format.generate_key() for _ in range(100)]
    assert len({key_format.hash_key(k) for k in keys}) == 100


def test_only_a_key_of_the_exact_format_is_well_formed():
    assert key_format.is_well_formed_key("svc_live_" + "aZ09-_" * 5 + "xy")
    assert key_format.is_well_formed_key("svc_test_" + "aZ09-_" * 5 + "xy")
    for bad in (
        "svc_live_" + "a" * 31,
        "svc_live_" + "a" * 33,
        "svc_demo_" + "a" * 32,
        "svc_test_" + "a" * 31,
        "svc_live_" + "a" * 31 + "!",
        "SVC_TEST_" + "a" * 32,
        "",
    ):
        assert not key_format.is_well_formed_key(bad)


def test_the_prefix_hint_is_the_first_4_characters_after_the_prefix():
    assert key_format.prefix_hint("svc_live_AbCdEfGh" + "x" * 24) == "AbCd"
    assert key_format.prefix_hint("svc_test_AbCdEfGh" + "x" * 24) == "AbCd"


def test_redaction_cuts_any_key_shaped_text_to_its_prefix():
    key = key_format.generate_key()
    text = f"bad key {key}, or cut short svc_live_abc, or run on {key}MORE"
    redacted = key_format.redact_keys(text)
    assert redacted == "bad key svc_live_..., or cut short svc_live_..., or run on svc_live_..."
    assert key[len("svc_live_") :] not in redacted


def test_redaction_cuts_a_test_key_to_its_own_prefix():
    live, test = key_format.generate_key(), key_format.generate_key("test")
    redacted = key_format.redact_keys(f"keys {test} and {live}, cut short svc_test_ab")
    assert redacted == "keys svc_test_... and svc_live_..., cut short svc_test_..."
    assert test[len("svc_test_") :] not in redacted


def test_a_quoted_value_holding_a_test_key_shows_only_its_prefix():
    assert key_format.quoted({"key": "svc_test_" + "k" * 32}) == "{'key': 'svc_test_...'}"


def test_redaction_leaves_text_without_a_key_alone():
    assert key_format.redact_keys("no key here: svc_live") == "no key here: svc_live"


def test_a_quoted_value_is_its_repr_with_keys_redacted():
    assert key_format.quoted("acme") == "'acme'"
    assert key_format.quoted(["svc_live_" + "k" * 32]) == "['svc_live_...']"


def test_a_quoted_value_longer_than_80_characters_is_cut():
    quoted = key_format.quoted("x" * 200)
    assert quoted == "'" + "x" * 79 + "..."


def test_a_new_key_id_is_key_and_16_hex_digits_and_no_key():
    key_id = key_format.new_key_id()
    assert re.fullmatch(r"key_[0-9a-f]{16}", key_id) and not key_format.is_well_formed_key(key_id)


def test_an_exception_message_is_its_first_argument_or_its_class_name():
    assert key_format.exception_message(ValueError("bad", 2)) == "bad"
    assert key_format.exception_message(KeyError()) == "KeyError"
