"""The webhook signature is Standard Webhooks 1.0: ``webhook-id`` (the event's id),
``webhook-timestamp`` (Unix seconds, when sent) and ``webhook-signature: v1,<base64 HMAC-SHA256
of "id.timestamp.body" keyed with the secret's base64-decoded bytes>``, verified in constant time
within five minutes of the timestamp, by our code and by the specification's own library."""

from __future__ import annotations

import base64
import importlib.util
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook as StandardWebhook
from standardwebhooks import WebhookVerificationError

from store.webhook_records import new_secret
from webhooks.signing import (
    TOLERANCE_S,
    delivery_headers,
    secret_key,
    signature,
    verify_signature,
)

BODY = b'{"event":{"id":"fc_0123456789abcdef01234567"},"attempt":1}'
EVENT_ID = "fc_0123456789abcdef01234567"
SECRET = "whsec_" + base64.b64encode(bytes(range(200, 232))).decode()
NOW = 1_800_000_000

#: The specification's reference vector: the ``test_sign_function`` test of the reference
#: library (libraries/python/tests/test_webhooks.py and libraries/javascript/src/webhook.test.ts
#: of github.com/standard-webhooks/standard-webhooks), computed by their code, not ours.
SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
SPEC_TIMESTAMP = 1614265330
SPEC_BODY = b'{"test": 2432232314}'
SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def signed(body: bytes = BODY, secret: str = SECRET, at_s: int = NOW, attempt: int = 1) -> dict[str, str]:
    return delivery_headers(EVENT_ID, attempt, body, secret, at_s)


def test_the_signature_of_the_specifications_example_is_the_one_it_gives():
    assert delivery_headers(SPEC_ID, 1, SPEC_BODY, SPEC_SECRET, SPEC_TIMESTAMP)["webhook-signature"] == SPEC_SIGNATURE


def test_the_specifications_example_verifies():
    headers = {"webhook-id": SPEC_ID, "webhook-timestamp": str(SPEC_TIMESTAMP), "webhook-signature": SPEC_SIGNATURE}
    assert verify_signature(SPEC_BODY, headers, SPEC_SECRET, now_s=SPEC_TIMESTAMP)


def test_a_delivery_names_its_event_its_timestamp_its_signature_and_its_attempt():
    headers = signed(attempt=3)
    assert set(headers) == {"webhook-id", "webhook-timestamp", "webhook-signature", "Celestial-Attempt"}
    assert (headers["webhook-id"], headers["webhook-timestamp"], headers["Celestial-Attempt"]) == (
        EVENT_ID,
        str(NOW),
        "3",
    )
    assert headers["webhook-signature"] == f"v1,{signature(EVENT_ID, NOW, BODY, SECRET)}"


def test_a_retry_keeps_the_id_and_is_signed_anew_at_its_own_timestamp():
    first, retry = signed(at_s=NOW, attempt=1), signed(at_s=NOW + 30, attempt=2)
    assert first["webhook-id"] == retry["webhook-id"]
    assert retry["webhook-timestamp"] == str(NOW + 30) and retry["webhook-signature"] != first["webhook-signature"]


def test_the_signing_time_defaults_to_now():
    before = int(time.time())
    stamped = int(signed(at_s=None)["webhook-timestamp"])
    assert before <= stamped <= int(time.time())


def test_a_delivery_signed_with_the_secret_verifies():
    assert verify_signature(BODY, signed(), SECRET, now_s=NOW + 1)


def test_header_names_are_read_in_any_case():
    headers = {name.upper(): value for name, value in signed().items()}
    assert verify_signature(BODY, headers, SECRET, now_s=NOW)


def test_a_tampered_body_does_not_verify():
    assert not verify_signature(BODY.replace(b"1", b"2"), signed(), SECRET, now_s=NOW)


def test_a_wrong_secret_does_not_verify():
    assert not verify_signature(BODY, signed(), new_secret(), now_s=NOW)


def test_a_timestamp_further_than_the_tolerance_does_not_verify_either_way():
    assert verify_signature(BODY, signed(), SECRET, now_s=NOW + TOLERANCE_S)
    assert verify_signature(BODY, signed(), SECRET, now_s=NOW - TOLERANCE_S)
    assert not verify_signature(BODY, signed(), SECRET, now_s=NOW + TOLERANCE_S + 1)
    assert not verify_signature(BODY, signed(), SECRET, now_s=NOW - TOLERANCE_S - 1)


def test_the_tolerance_is_the_specifications_five_minutes():
    assert TOLERANCE_S == 5 * 60


def test_a_changed_id_or_timestamp_does_not_verify():
    assert not verify_signature(BODY, {**signed(), "webhook-id": "fc_other"}, SECRET, now_s=NOW)
    assert not verify_signature(BODY, {**signed(), "webhook-timestamp": str(NOW + 1)}, SECRET, now_s=NOW)


@pytest.mark.parametrize("missing", ["webhook-id", "webhook-timestamp", "webhook-signature"])
def test_a_delivery_missing_a_header_does_not_verify(missing):
    headers = {name: value for name, value in signed().items() if name != missing}
    assert not verify_signature(BODY, headers, SECRET, now_s=NOW)


@pytest.mark.parametrize("value", ["", "v1", "v1,", "v1,not base64!", "v2," + "A" * 44, "garbage"])
def test_a_malformed_signature_does_not_verify(value):
    assert not verify_signature(BODY, {**signed(), "webhook-signature": value}, SECRET, now_s=NOW)


@pytest.mark.parametrize("value", ["", "soon", "-1", "1.8e9", "１８"])
def test_a_malformed_timestamp_does_not_verify(value):
    assert not verify_signature(BODY, {**signed(), "webhook-timestamp": value}, SECRET, now_s=NOW)


def test_any_one_of_several_space_separated_v1_signatures_may_match():
    good = signed()["webhook-signature"]
    listed = f"v1a,{'A' * 88} v1,{'A' * 44} {good}"
    assert verify_signature(BODY, {**signed(), "webhook-signature": listed}, SECRET, now_s=NOW)


def test_a_secret_is_whsec_and_base64_with_or_without_prefix_and_padding():
    key = secret_key(SECRET)
    assert secret_key(SECRET.removeprefix("whsec_")) == key == secret_key(SECRET.rstrip("="))


@pytest.mark.parametrize("secret", ["", "whsec_", "whsec_not base64", "whsec_a", "whsec_ab%d"])
def test_a_secret_that_is_not_base64_is_refused(secret):
    with pytest.raises(ValueError):
        secret_key(secret)


def test_a_secret_made_before_standard_webhooks_still_verifies_with_the_specifications_library():
    # whsec_ and 64 hex digits: hex digits are base64 characters, so it decodes as 48 bytes.
    old = "whsec_" + "ab" * 32
    assert len(secret_key(old)) == 48
    headers = delivery_headers(EVENT_ID, 1, BODY, old, int(time.time()))
    assert StandardWebhook(old).verify(BODY, headers) == {"event": {"id": EVENT_ID}, "attempt": 1}


def test_the_specifications_library_verifies_our_delivery():
    secret = new_secret()
    headers = delivery_headers(EVENT_ID, 1, BODY, secret, int(time.time()))
    assert StandardWebhook(secret).verify(BODY, headers) == {"event": {"id": EVENT_ID}, "attempt": 1}


def test_the_specifications_library_refuses_a_tampered_body():
    secret = new_secret()
    headers = delivery_headers(EVENT_ID, 1, BODY, secret, int(time.time()))
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(secret).verify(BODY.replace(b"1", b"2"), headers)


def test_the_specifications_library_refuses_a_wrong_secret():
    headers = delivery_headers(EVENT_ID, 1, BODY, new_secret(), int(time.time()))
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(new_secret()).verify(BODY, headers)


def test_the_specifications_library_refuses_a_stale_timestamp():
    secret = new_secret()
    headers = delivery_headers(EVENT_ID, 1, BODY, secret, int(time.time()) - TOLERANCE_S - 60)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(secret).verify(BODY, headers)


def test_our_verifier_accepts_what_the_specifications_library_signs():
    secret = new_secret()
    library = StandardWebhook(secret)
    headers = {
        "webhook-id": EVENT_ID,
        "webhook-timestamp": str(NOW),
        "webhook-signature": library.sign(EVENT_ID, datetime.fromtimestamp(NOW, UTC), BODY.decode()),
    }
    assert verify_signature(BODY, headers, secret, now_s=NOW)


def _client_webhooks_module():
    """The client package's own module (sdk/python-template), read from its file: it imports
    nothing of the server, so the two implementations are checked against each other."""
    from shared.runtime.config import REPO_ROOT

    path = REPO_ROOT / "sdk" / "python-template" / "celestial_client" / "webhooks.py"
    spec = importlib.util.spec_from_file_location("client_webhooks", path)
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    return client


@pytest.mark.parametrize(
    "secret",
    [
        "whsec_" + "ab" * 32,
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw==",
        "whsec_",
        "whsec_!!",
        "whsec_====",
    ],
)
def test_the_python_client_reads_a_secret_as_the_signer_does(secret):
    client = _client_webhooks_module()
    try:
        expected = secret_key(secret)
    except ValueError:
        with pytest.raises(ValueError):
            client._secret_key(secret)
    else:
        assert client._secret_key(secret) == expected


def test_the_python_clients_verifier_agrees_with_the_signer():
    client = _client_webhooks_module()
    headers = signed()
    assert client.verify_signature(BODY, headers, SECRET, now_s=NOW)
    assert client.verify_signature(BODY.decode(), headers, SECRET, now_s=NOW)
    assert client.verify_signature(
        SPEC_BODY,
        {
            "webhook-id": SPEC_ID,
            "webhook-timestamp": str(SPEC_TIMESTAMP),
            "webhook-signature": SPEC_SIGNATURE,
        },
        SPEC_SECRET,
        now_s=SPEC_TIMESTAMP,
    )
    assert not client.verify_signature(BODY + b" ", headers, SECRET, now_s=NOW)
    assert not client.verify_signature(BODY, headers, new_secret(), now_s=NOW)
    assert not client.verify_signature(BODY, headers, SECRET, now_s=NOW + TOLERANCE_S + 1)
    assert not client.verify_signature(BODY, {k: v for k, v in headers.items() if k != "webhook-id"}, SECRET, now_s=NOW)
    assert client.SIGNATURE_TOLERANCE_S == TOLERANCE_S
