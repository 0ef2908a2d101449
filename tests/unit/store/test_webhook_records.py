"""store/webhook_records.py: ids sort in the order they were made, secrets are Standard
Webhooks' ``whsec_`` and the base64 of 256 random bits, never shown in a repr, the bounds a
subscription must keep, and documents round-trip (a former pause reason read as today's)."""

from __future__ import annotations

import base64
from dataclasses import replace

import pytest

from store.records import utc_now
from store.webhook_records import (
    ACTIVE,
    BY_OWNER,
    CHART_DELETED,
    ENDED,
    FAILING,
    MAX_LEAD_MINUTES,
    PAUSED,
    Delivery,
    Webhook,
    check_delivery,
    check_webhook,
    delivery_document,
    delivery_of,
    ended,
    is_event_id,
    is_webhook_id,
    new_secret,
    new_webhook_id,
    replacement,
    webhook_document,
    webhook_of,
)


def a_webhook(**changes) -> Webhook:
    return replace(
        Webhook(new_webhook_id(), "acct1", "https://example.com/h", ("lunation",), None, 0, new_secret()), **changes
    )


def test_webhook_ids_sort_in_the_order_they_were_made():
    ids = [new_webhook_id() for _ in range(50)]
    assert ids == sorted(ids) and all(is_webhook_id(i) for i in ids)


def test_a_secret_is_whsec_and_the_base64_of_32_random_bytes_each_new():
    secrets = {new_secret() for _ in range(20)}
    assert len(secrets) == 20
    assert all(s.startswith("whsec_") and len(base64.b64decode(s[6:], validate=True)) == 32 for s in secrets)


def test_the_secret_is_never_in_a_repr():
    webhook = a_webhook()
    assert webhook.secret not in repr(webhook) and "secret" not in repr(webhook)


@pytest.mark.parametrize(
    "changes",
    [
        {"webhook_id": "wh_x"},
        {"url": ""},
        {"url": "https://e.com/" + "a" * 2000},
        {"events": ()},
        {"lead_minutes": -1},
        {"lead_minutes": MAX_LEAD_MINUTES + 1},
        {"state": "sleeping"},
        {"secret": ""},
        {"paused_reason": "bored"},
        {"state": ENDED, "paused_reason": BY_OWNER},
        {"state": PAUSED, "paused_reason": CHART_DELETED},
    ],
)
def test_a_webhook_out_of_bounds_is_refused(changes):
    with pytest.raises(ValueError):
        check_webhook(a_webhook(**changes))


def test_a_subscription_ended_for_its_deleted_chart_is_within_bounds_and_no_longer_failing():
    failing = a_webhook(chart_id="chart_0123456789abc01234567", failing_since=utc_now())
    now = utc_now()
    gone = check_webhook(ended(failing, CHART_DELETED, now))
    assert (gone.state, gone.paused_reason, gone.failing_since, gone.updated_at) == (ENDED, CHART_DELETED, None, now)


def test_an_ended_subscription_takes_no_replacement_and_any_other_takes_it():
    kept = a_webhook()
    wanted = a_webhook(webhook_id=kept.webhook_id, state=PAUSED, paused_reason=BY_OWNER)
    assert replacement(kept, wanted) == wanted
    assert replacement(ended(kept, CHART_DELETED, utc_now()), replace(wanted, state=ACTIVE, paused_reason="")) is None


def test_a_delivery_names_a_webhook_an_event_and_an_attempt_from_one():
    with pytest.raises(ValueError):
        check_delivery(Delivery(new_webhook_id(), "fc_1", 0, 200, 1.0))
    with pytest.raises(ValueError):
        check_delivery(Delivery(new_webhook_id(), "fc.1", 1, 200, 1.0))
    assert not is_event_id("a.b") and not is_event_id("") and is_event_id("fc_0123abc")


def test_documents_round_trip():
    webhook = a_webhook(state=PAUSED, paused_reason="out_of_credits", chart_id="chart_0123456789abc01234567")
    assert webhook_of(webhook_document(webhook)) == webhook
    delivery = Delivery(webhook.webhook_id, "fc_1", 3, None, 10000.0, test=True, error="timeout")
    assert delivery_of(delivery_document(delivery)) == delivery


def test_a_subscription_paused_for_failing_24_hours_reads_as_paused_for_failing():
    document = webhook_document(a_webhook(state=PAUSED, paused_reason=FAILING))
    former = webhook_of({**document, "paused_reason": "failing_for_24_hours"})
    assert (former.paused_reason, check_webhook(former)) == (FAILING, former)


def test_only_a_2xx_succeeds():
    assert [Delivery("w", "e", 1, status, 1.0).succeeded for status in (200, 204, 299, 300, 404, 500, None)] == [
        True,
        True,
        True,
        False,
        False,
        False,
        False,
    ]
