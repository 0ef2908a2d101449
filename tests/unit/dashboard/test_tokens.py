"""gateway/dashboard/tokens.py: an invite or session token is ``<own_|ses_ id>.<43-character
secret>``; it splits into the record id and the SHA-256 digest of its secret, and anything
else splits into nothing."""

from __future__ import annotations

import re

from gateway.dashboard.tokens import join_token, new_secret, split_token
from store.owner_records import digest_secret


def test_tokens_split_into_the_record_id_and_the_digest_of_their_secret():
    secret = new_secret()
    assert split_token(join_token("ses_0123456789abcdef", secret)) == ("ses_0123456789abcdef", digest_secret(secret))
    for bad in (None, "", "ses_0123456789abcdef", f"key_0123456789abcdef.{secret}", f"ses_0123456789abcdef.{secret}x"):
        assert split_token(bad) is None


def test_a_secret_is_256_random_bits_in_43_url_safe_characters():
    secrets = {new_secret() for _ in range(100)}
    assert len(secrets) == 100  # 256 random bits never repeat in a hundred draws
    # 256 bits are 43 base64url characters without padding (RFC 4648 §5).
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", secret) for secret in secrets)


def test_only_invite_and_session_ids_make_a_token():
    secret = new_secret()
    assert split_token(join_token("own_0123456789abcdef", secret)) is not None
    for record_id in ("key_0123456789abcdef", "own_0123456789ABCDEF", "own_0123456789abcde", "ses_0123456789abcdef0"):
        assert split_token(join_token(record_id, secret)) is None, record_id
