"""No key, key hash or admin token ever appears in a log line (a full run's captured logs)."""

from __future__ import annotations

import os

import httpx

from deploy.local_stack import start_stack, stop_stack
from store.key_format import hash_key

ADMIN_TOKEN = "adm-" + os.urandom(16).hex()


def test_no_key_key_hash_or_admin_token_appears_in_any_log_line(processes, tmp_path):
    stack = start_stack(tmp_path, {"CELESTIAL_ADMIN_TOKEN": ADMIN_TOKEN, "CELESTIAL_LOG_LEVEL": "DEBUG"})
    secrets: list[str] = [ADMIN_TOKEN]
    try:
        name, cli_key = stack.new_key(credits=100)
        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        with httpx.Client(base_url=stack.base_url, timeout=30) as client:
            created = client.post(
                f"/admin/v1/accounts/{name}/keys", json={"allowed_origins": ["https://app.example"]}, headers=admin
            )
            assert created.status_code == 201, created.text
            api_key = created.json()["data"]["key"]
            key_id = created.json()["data"]["key_id"]
            rotated = client.post(f"/admin/v1/keys/{key_id}/rotate", json={}, headers=admin)
            assert rotated.status_code in (200, 201), rotated.text
            rotated_key = rotated.json()["data"]["key"]
            secrets += [cli_key, api_key, rotated_key]
            params = {"datetime": "2024-03-20T12:00:00Z"}
            for key in (cli_key, api_key, rotated_key):
                client.get("/v1/positions", params=params, headers={"Authorization": f"Bearer {key}"})
                client.get("/v1/positions", params=params, headers={"X-API-Key": key})
                client.get("/v1/positions", params=params, headers={"X-API-Key": key, "Origin": "https://evil.example"})
                client.get(
                    "/v1/positions", params={**params, "bodies": "vulcan"}, headers={"Authorization": f"Bearer {key}"}
                )
                client.post(
                    "/v1/batch",
                    json={"requests": [{"endpoint": "/v1/aspects", "params": params}]},
                    headers={"Authorization": f"Bearer {key}"},
                )
            # A key sent where a parameter belongs, and a wrong admin token that resembles one.
            client.get(
                "/v1/positions", params={**params, "api_key": cli_key}, headers={"Authorization": f"Bearer {cli_key}"}
            )
            client.get(f"/admin/v1/accounts/{name}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}x"})
            client.get(f"/admin/v1/keys/{cli_key}", headers=admin)  # a key pasted where its id belongs
            client.post(f"/admin/v1/keys/{key_id}/revoke", headers=admin)
            client.get("/v1/positions", params=params, headers={"Authorization": f"Bearer {api_key}"})
    finally:
        stop_stack(stack)
    logs = stack.log_path.read_text(errors="replace")
    assert "request_finished" in logs  # the logs were captured: the check below is not vacuous
    secrets += [hash_key(secret) for secret in secrets if secret.startswith("svc_live_")]
    for secret in secrets:
        assert secret not in logs, f"a secret ({secret[:12]}...) appears in the logs"
