"""gateway/main.py: one gateway process serves uvicorn on CELESTIAL_HTTP_HOST:PORT (``--port``
overriding the port) with the bounded httptools protocol (gateway/http_server.py), uvloop,
the app's lifespan, no access log of uvicorn's own (the middleware logs each request once),
and on SIGTERM drains within CELESTIAL_SHUTDOWN_GRACE_S. uvicorn.run is replaced by a
recorder: starting a real server is tests/e2e's part."""

from __future__ import annotations

import pytest

import gateway.main as main_module
from gateway.http_server import BoundedHttpProtocol
from shared import metrics_recording

ENV = {"CELESTIAL_HTTP_HOST": "127.0.0.9", "CELESTIAL_HTTP_PORT": "18099", "CELESTIAL_SHUTDOWN_GRACE_S": "7"}


@pytest.fixture
def served(monkeypatch, tmp_path):
    """Return the arguments main() gave uvicorn.run, with the settings of ENV."""
    for name, value in {**ENV, "CELESTIAL_DATA_DIR": str(tmp_path)}.items():
        monkeypatch.setenv(name, value)
    calls = []
    monkeypatch.setattr(main_module.uvicorn, "run", lambda app, **options: calls.append((app, options)))
    monkeypatch.setattr(main_module, "configure_logging", lambda settings, process: None)
    monkeypatch.setattr(main_module, "stop_when_orphaned", lambda pid: None)
    monkeypatch.setattr(main_module, "create_app", lambda settings: ("app of", settings))
    # main() stops this process's metric recording (its /metrics is off): given back after the
    # test, so the tests after it in this process still record.
    monkeypatch.setattr(metrics_recording, "_recording", True)

    def run(argv):
        main_module.main(argv)
        [call] = calls
        return call

    return run


def test_the_gateway_listens_on_the_configured_host_and_port(served):
    app, options = served([])
    assert (options["host"], options["port"]) == ("127.0.0.9", 18099)
    assert app[0] == "app of" and app[1].http_port == 18099


def test_port_overrides_the_configured_port(served):
    _, options = served(["--port", "18100"])
    assert (options["host"], options["port"]) == ("127.0.0.9", 18100)


def test_the_server_is_bounded_uvloop_with_its_lifespan_and_no_access_log(served):
    _, options = served([])
    assert issubclass(options["http"], BoundedHttpProtocol) and options["http"].settings.http_port == 18099
    assert (options["loop"], options["lifespan"], options["access_log"], options["log_config"]) == (
        "uvloop",
        "on",
        False,
        None,
    )


def test_a_sigterm_drains_within_the_shutdown_grace(served):
    _, options = served([])
    assert options["timeout_graceful_shutdown"] == 7
