"""gateway/dashboard/tokens.py: an invite or session token is ``<own_|ses_ id>.<43-character
secret>``; it splits into the record id and the SHA-256 digest of its secret, and anything
else splits into nothing."""

from __future__ import annotations

from gateway.dashboard.tokens import join_token, new_secret, split_token
from store.owner_records import digest_secret


def test_tokens_split_into_the_record_id_and_the_digest_of_their_secret():
    secret = new_secret()
    assert split_token(join_token("ses_0123456789abcdef", secret)) == ("ses_0123456789abcdef", digest_secret(secret))
    for bad in (None, "", "ses_0123456789abcdef", f"key_0123456789abcdef.{secret}", f"ses_0123456789abcdef.{secret}x"):
        assert split_token(bad) is None
