"""gateway/reference/webhooks_openapi.py: the webhook subscriptions' operations, all free
resources, each with its own operationId, the secret only where it is shown."""

from __future__ import annotations

from gateway.endpoints import discover_endpoints
from gateway.reference.openapi import build_openapi
from gateway.reference.webhooks_openapi import WEBHOOK_SCHEMAS, webhook_paths


def _operations():
    return {(path, verb): op for path, item in webhook_paths().items() for verb, op in item.items()}


def test_the_webhook_paths_hold_every_operation_all_free_resources():
    operations = _operations()
    assert {op["operationId"] for op in operations.values()} == {
        "list_webhooks",
        "create_webhook",
        "get_webhook",
        "update_webhook",
        "delete_webhook",
        "rotate_webhook_secret",
        "test_webhook",
        "list_webhook_deliveries",
    }
    assert all(op["x-credits"] == 0 and op["x-resource"] for op in operations.values())
    assert all("404" in op["responses"] for (path, _), op in operations.items() if "{webhook_id}" in path)


def test_the_secret_is_in_the_answer_of_creation_and_rotation_only():
    def has_secret(op):
        data = op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"]
        named = WEBHOOK_SCHEMAS.get(data.get("$ref", "").rsplit("/", 1)[-1], data)
        return "secret" in named.get("properties", {})

    assert {op["operationId"] for op in _operations().values() if has_secret(op)} == {
        "create_webhook",
        "rotate_webhook_secret",
    }


def test_the_document_holds_the_webhook_paths_with_unique_operation_ids():
    document = build_openapi(discover_endpoints(), version="x")
    assert "/v1/webhooks/{webhook_id}/test" in document["paths"]
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))


def test_a_subscription_is_described_as_signed_by_standard_webhooks_and_retried_for_72_hours():
    described = _operations()[("/v1/webhooks", "post")]["description"]
    assert all(
        name in described
        for name in ("Standard Webhooks", "webhook-id", "webhook-timestamp", "webhook-signature", "300 s")
    )
    assert "72 hours" in described and "at least once, in no particular order" in described
    assert (
        "Celestial-Signature" not in described and "for 24 hours" not in described
    )  # (24 hours is the Idempotency-Key's window)
