"""A service process of an older release: it serves a service's health checks and none of its
RPCs, so the gateway's answer for an RPC no process implements (501) is proven on real processes.

    python -m tests.e2e.unimplementing_service search --port 50123
"""

from __future__ import annotations

import importlib
import sys

from shared.runtime.server import serve_main


def main(argv: list[str]) -> None:
    name = argv[0]
    serve_main(name, importlib.import_module(f"services.{name}.server").SERVICE, {}, argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
