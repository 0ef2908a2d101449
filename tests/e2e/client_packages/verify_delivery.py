"""Verifies a webhook delivery with the installed client: reads the delivery (body file,
header, secret) and prints one JSON line per check: the real delivery, a tampered body, a
wrong secret and a stale timestamp (the present moved past the tolerance)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from celestial_client import SIGNATURE_TOLERANCE_S, verify_signature


def main(body_path: str, header: str, secret: str) -> None:
    body = Path(body_path).read_bytes()
    checks = {
        "real": verify_signature(body, header, secret),
        "tampered": verify_signature(body.replace(b'"test":true', b'"test":false'), header, secret),
        "wrong_secret": verify_signature(body, header, secret + "0"),
        "stale": verify_signature(body, header, secret, now_s=time.time() + SIGNATURE_TOLERANCE_S + 60),
    }
    print(json.dumps(checks))


if __name__ == "__main__":
    main(*sys.argv[1:4])
