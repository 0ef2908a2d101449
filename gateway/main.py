"""Run one gateway process: uvicorn with uvloop and httptools (bounded, see
``gateway/http_server.py``) on CELESTIAL_HTTP_HOST:PORT."""

from __future__ import annotations

import argparse

import uvicorn

from gateway.app import create_app
from gateway.http_server import bounded_protocol
from shared.runtime.config import load_settings
from shared.runtime.logging import configure_logging
from shared.runtime.metrics_endpoint import record_if_served
from shared.runtime.orphan import stop_when_orphaned


def main(argv: list[str] | None = None) -> None:
    """Serve the gateway until SIGINT/SIGTERM, then drain within CELESTIAL_SHUTDOWN_GRACE_S."""
    parser = argparse.ArgumentParser(description="Celestial HTTP gateway")
    parser.add_argument("--port", type=int, help="overrides CELESTIAL_HTTP_PORT")
    args = parser.parse_args(argv)
    settings = load_settings()
    configure_logging(settings, "gateway")
    stop_when_orphaned(settings.supervisor_pid)
    record_if_served(settings.metrics_port)
    port = args.port if args.port is not None else settings.http_port
    uvicorn.run(
        create_app(settings),
        host=settings.http_host,
        port=port,
        loop="uvloop",
        http=bounded_protocol(settings),
        timeout_keep_alive=settings.http_keep_alive_s,
        # On SIGTERM: stop accepting, let the requests under way finish (then cancel them:
        # each refunds itself), then the lifespan's shutdown drains the store's writes.
        timeout_graceful_shutdown=settings.shutdown_grace_s,
        access_log=False,
        log_config=None,
        lifespan="on",
    )


if __name__ == "__main__":
    main()
