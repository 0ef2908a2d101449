"""Verifies a webhook delivery with the installed client: reads the delivery (body file, its
headers as JSON, secret) and prints one JSON line per check: the real delivery, a tampered
body, a wrong secret and a stale timestamp (the present moved past the tolerance)."""

from __future__ import annotations

import base64
import json
import secrets
import sys
import time
from pathlib import Path

from celestial_client import SIGNATURE_TOLERANCE_S, verify_signature


def main(body_path: str, headers_json: str, secret: str) -> None:
    body = Path(body_path).read_bytes()
    headers = json.loads(headers_json)
    other_secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    checks = {
        "real": verify_signature(body, headers, secret),
        "tampered": verify_signature(body.replace(b'"test":true', b'"test":false'), headers, secret),
        "wrong_secret": verify_signature(body, headers, other_secret),
        "stale": verify_signature(body, headers, secret, now_s=time.time() + SIGNATURE_TOLERANCE_S + 60),
    }
    print(json.dumps(checks))


if __name__ == "__main__":
    main(*sys.argv[1:4])
