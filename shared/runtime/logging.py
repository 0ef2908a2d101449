"""The one structlog setup of every process: JSON lines to stdout, request id from contextvars."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import orjson
import structlog

from shared.runtime.config import Settings


def configure_logging(settings: Settings, process: str, stream: TextIO | None = None) -> None:
    """Configure structlog and the stdlib loggers once, at process start, to write lines to
    ``stream`` (default: stdout).

    Every line carries ``process`` and, inside a request, the ``request_id`` bound by the
    gateway's middleware or the service's RPC wrapper.
    """
    stream = stream or sys.stdout
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    console = settings.log_format == "console"
    # orjson, not the stdlib encoder: one canonical line per request is on the hot path.
    renderer = (
        structlog.dev.ConsoleRenderer(colors=False)
        if console
        else structlog.processors.JSONRenderer(serializer=lambda event, **kw: orjson.dumps(event, default=str).decode())
    )
    structlog_renderer = (
        renderer if console else structlog.processors.JSONRenderer(serializer=orjson.dumps, default=str)
    )

    def add_process(_logger, _method, event: dict) -> dict:
        event.setdefault("process", process)
        return event

    shared_processors = [
        # Contextvars first, so the request id bound per request lands on every line.
        structlog.contextvars.merge_contextvars,
        add_process,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[
            *shared_processors,
            structlog.processors.format_exc_info,
            structlog_renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=(
            structlog.PrintLoggerFactory(file=stream) if console else structlog.BytesLoggerFactory(file=stream.buffer)
        ),
        # Caching is safe: configure() runs once, before the first log call.
        cache_logger_on_first_use=True,
    )
    # Library loggers (uvicorn, grpc) go through the same renderer, to the same stream.
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processor=renderer,
            foreign_pre_chain=shared_processors,
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # uvicorn's access log duplicates our canonical request line.
    logging.getLogger("uvicorn.access").disabled = True
