"""The one structlog setup of every process (shared/runtime/logging.py).

References: the module's contract (JSON lines, each with the process's name, the level, an ISO
UTC timestamp and, inside a request, the request id bound in contextvars; library loggers
through the same renderer; uvicorn's access log off; CELESTIAL_LOG_LEVEL and
CELESTIAL_LOG_FORMAT, shared/runtime/config.py).
"""

from __future__ import annotations

import io
import json
import logging

import pytest
import structlog

from shared.runtime.config import Settings
from shared.runtime.logging import configure_logging


@pytest.fixture(autouse=True)
def restored_logging():
    """Put the process's logging back as it was: configure_logging sets it process-wide. The
    structlog configuration is restored, not reset to the defaults: a logger another test
    module used (and cached) holds the configuration's processor list, and capture_logs only
    reaches it through that same list."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    access_disabled = logging.getLogger("uvicorn.access").disabled
    structlog_config = structlog.get_config()
    yield
    structlog.configure(**structlog_config)
    structlog.contextvars.clear_contextvars()
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("uvicorn.access").disabled = access_disabled


def configured(process: str = "gateway", **settings) -> io.TextIOWrapper:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    configure_logging(Settings(**settings), process, stream)
    return stream


def lines(stream: io.TextIOWrapper) -> list[str]:
    stream.flush()
    return stream.buffer.getvalue().decode().splitlines()


def test_a_line_is_json_with_the_process_the_level_a_utc_timestamp_and_the_event():
    stream = configured("ephemeris")
    structlog.get_logger("test").info("computed", bodies=3)
    (line,) = lines(stream)
    entry = json.loads(line)
    assert (entry["event"], entry["process"], entry["level"], entry["bodies"]) == ("computed", "ephemeris", "info", 3)
    assert entry["timestamp"].endswith("Z")


def test_a_line_inside_a_request_carries_its_request_id():
    stream = configured()
    structlog.contextvars.bind_contextvars(request_id="req-7")
    structlog.get_logger("test").warning("slow")
    assert json.loads(lines(stream)[0])["request_id"] == "req-7"


def test_a_library_loggers_line_is_rendered_the_same_way():
    stream = configured("search")
    logging.getLogger("grpc.somewhere").warning("channel closed")
    entry = json.loads(lines(stream)[0])
    assert (entry["event"], entry["process"], entry["level"]) == ("channel closed", "search", "warning")


def test_lines_under_the_level_are_dropped():
    stream = configured(log_level="warning")
    structlog.get_logger("test").info("quiet")
    logging.getLogger("library").info("quiet too")
    structlog.get_logger("test").error("loud")
    assert [json.loads(line)["event"] for line in lines(stream)] == ["loud"]


def test_uvicorns_access_log_is_off():
    stream = configured()
    logging.getLogger("uvicorn.access").warning("GET /v1/positions")
    assert lines(stream) == []


def test_the_console_format_writes_readable_lines_not_json():
    stream = configured(log_format="console")
    structlog.get_logger("test").info("computed", bodies=3)
    (line,) = lines(stream)
    assert "computed" in line and "bodies=3" in line
    with pytest.raises(json.JSONDecodeError):
        json.loads(line)
