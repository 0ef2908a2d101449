"""``make sdk``: generate the Python client (``sdk/python``, openapi-python-client) and the
TypeScript client (``sdk/typescript``, @hey-api/openapi-ts) from the served OpenAPI document,
and build them into the packages a developer installs (``sdk/dist``: a wheel, an sdist and an
npm tarball).

Each client is its own module (:mod:`deploy.python_client_package`,
:mod:`deploy.typescript_client_package`); what both read from the document is
:mod:`deploy.client_contract`. The generated code is not committed, like the protos'.
"""

from __future__ import annotations

import argparse
import sys

import httpx

from deploy.client_contract import SDK_DIR
from deploy.python_client_package import build_python, generate_python
from deploy.typescript_client_package import build_typescript, generate_typescript
from shared.runtime.config import REPO_ROOT

DIST_DIR = SDK_DIR / "dist"


def served_document(base_url: str | None = None) -> bytes:
    """Return /v1/openapi.json as the gateway serves it: from ``base_url``, or from the
    gateway app built in this process (no stack needed: the document needs no service)."""
    if base_url:
        answer = httpx.get(f"{base_url}/v1/openapi.json", timeout=30)
        answer.raise_for_status()
        return answer.content
    from dataclasses import replace

    from starlette.testclient import TestClient

    from gateway.app import create_app
    from shared.runtime.config import load_settings
    from shared.runtime.logging import configure_logging

    # The gateway's request line is not the command's output: only warnings and errors, on
    # stderr (make sdk printed a request_finished line among its own).
    settings = replace(load_settings(), log_level="WARNING")
    configure_logging(settings, "generate_sdks", stream=sys.stderr)
    # Without entering the client, the app's lifespan (its store, its services) never runs.
    answer = TestClient(create_app(settings)).get("/v1/openapi.json")
    answer.raise_for_status()
    return answer.content


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running gateway to read the document from (default: this checkout's)")
    args = parser.parse_args(argv)
    document = SDK_DIR / "openapi.json"
    document.write_bytes(served_document(args.url))
    for built in build_python(generate_python(document, SDK_DIR / "python"), DIST_DIR):
        print(f"Python client: {built.relative_to(REPO_ROOT)} ({built.stat().st_size:,} bytes)")
    built = build_typescript(generate_typescript(document, SDK_DIR / "typescript"), DIST_DIR)
    print(f"TypeScript client: {built.relative_to(REPO_ROOT)} ({built.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
