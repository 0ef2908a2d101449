"""The webhook signature: HMAC-SHA256 of "<t>.<body>", verified in constant time within a
stated tolerance of the timestamp."""

from __future__ import annotations

import hashlib
import hmac

from webhooks.signing import (
    TOLERANCE_S,
    parse_header,
    signature_header,
    verify_signature,
)

BODY = b'{"event":{"id":"fc_0123456789abcdef01234567"},"attempt":1}'
SECRET = "whsec_" + "ab" * 32
NOW = 1_800_000_000


def test_the_signature_is_the_hmac_sha256_of_the_timestamp_a_full_stop_and_the_body():
    # Computed here from the rule with the standard library, not with the module under test.
    expected = hmac.new(SECRET.encode(), f"{NOW}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert signature_header(BODY, SECRET, NOW) == f"t={NOW},v1={expected}"


def test_a_delivery_signed_with_the_secret_verifies():
    assert verify_signature(BODY, signature_header(BODY, SECRET, NOW), SECRET, now_s=NOW + 1)


def test_a_tampered_body_does_not_verify():
    header = signature_header(BODY, SECRET, NOW)
    assert not verify_signature(BODY.replace(b"1", b"2"), header, SECRET, now_s=NOW)


def test_a_wrong_secret_does_not_verify():
    header = signature_header(BODY, SECRET, NOW)
    assert not verify_signature(BODY, header, "whsec_" + "cd" * 32, now_s=NOW)


def test_a_timestamp_further_than_the_tolerance_does_not_verify_either_way():
    header = signature_header(BODY, SECRET, NOW)
    assert verify_signature(BODY, header, SECRET, now_s=NOW + TOLERANCE_S)
    assert not verify_signature(BODY, header, SECRET, now_s=NOW + TOLERANCE_S + 1)
    assert not verify_signature(BODY, header, SECRET, now_s=NOW - TOLERANCE_S - 1)


def test_a_changed_timestamp_does_not_verify():
    header = signature_header(BODY, SECRET, NOW).replace(f"t={NOW}", f"t={NOW + 1}")
    assert not verify_signature(BODY, header, SECRET, now_s=NOW)


def test_a_header_without_timestamp_or_signature_does_not_verify():
    for header in ("", "v1=abc", f"t={NOW}", "garbage", f"t=x,v1={'0' * 64}"):
        assert parse_header(header) is None
        assert not verify_signature(BODY, header, SECRET, now_s=NOW)


def test_any_one_of_several_v1_signatures_may_match():
    good = signature_header(BODY, SECRET, NOW)
    header = f"t={NOW},v1={'0' * 64},{good.split(',')[1]}"
    assert verify_signature(BODY, header, SECRET, now_s=NOW)


def test_the_python_clients_verifier_agrees_with_the_signer():
    # The client package's own module (sdk/python-template), read from its file: it imports
    # nothing of the server, so the two implementations are checked against each other.
    import importlib.util

    from shared.runtime.config import REPO_ROOT

    path = REPO_ROOT / "sdk" / "python-template" / "celestial_client" / "webhooks.py"
    spec = importlib.util.spec_from_file_location("client_webhooks", path)
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    header = signature_header(BODY, SECRET, NOW)
    assert client.verify_signature(BODY, header, SECRET, now_s=NOW)
    assert client.verify_signature(BODY.decode(), header, SECRET, now_s=NOW)
    assert not client.verify_signature(BODY + b" ", header, SECRET, now_s=NOW)
    assert not client.verify_signature(BODY, header, "whsec_other", now_s=NOW)
    assert not client.verify_signature(BODY, header, SECRET, now_s=NOW + TOLERANCE_S + 1)
    assert client.SIGNATURE_TOLERANCE_S == TOLERANCE_S
