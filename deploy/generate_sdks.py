"""``make sdk``: generate the Python client (``sdk/python``, openapi-python-client) and the
TypeScript client (``sdk/typescript``, @hey-api/openapi-ts) from the served OpenAPI document.

Both generators are pinned: openapi-python-client in requirements-dev.txt, openapi-ts (and the
TypeScript compiler the tests build with) in ``sdk/generator/package.json`` and its lock
file, installed with ``npm ci``. The generated code is not committed, like the protos'.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import httpx

from shared.runtime.config import REPO_ROOT

SDK_DIR = REPO_ROOT / "sdk"
GENERATOR_DIR = SDK_DIR / "generator"
PYTHON_CONFIG = SDK_DIR / "openapi-python-client.yaml"
PYTHON_GENERATOR = Path(sys.executable).with_name("openapi-python-client")
TYPESCRIPT_GENERATOR = GENERATOR_DIR / "node_modules" / ".bin" / "openapi-ts"
TYPESCRIPT_COMPILER = GENERATOR_DIR / "node_modules" / ".bin" / "tsc"


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


def install_typescript_generator() -> None:
    """Install the pinned openapi-ts and tsc into sdk/generator/node_modules, once."""
    if not TYPESCRIPT_GENERATOR.exists() or not TYPESCRIPT_COMPILER.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=GENERATOR_DIR, check=True)


def generate_python(document: Path, output: Path) -> Path:
    """Return the folder of the Python client generated from ``document`` into ``output``."""
    subprocess.run(
        [str(PYTHON_GENERATOR), "generate", "--path", str(document), "--output-path", str(output), "--overwrite", "--config", str(PYTHON_CONFIG)],
        check=True,
        capture_output=True,
        text=True,
    )
    return output


def generate_typescript(document: Path, output: Path) -> Path:
    """Return the folder of the TypeScript client generated from ``document`` into ``output``."""
    install_typescript_generator()
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run(
        [str(TYPESCRIPT_GENERATOR), "-i", str(document), "-o", str(output), "-c", "@hey-api/client-fetch", "--no-log-file", "--silent"],
        cwd=GENERATOR_DIR,
        check=True,
    )
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running gateway to read the document from (default: this checkout's)")
    args = parser.parse_args(argv)
    document = SDK_DIR / "openapi.json"
    document.write_bytes(served_document(args.url))
    print(f"Python client: {generate_python(document, SDK_DIR / 'python')}")
    print(f"TypeScript client: {generate_typescript(document, SDK_DIR / 'typescript')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
