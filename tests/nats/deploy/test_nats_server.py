"""deploy/nats_server.py: a throwaway nats-server with JetStream on a free loopback port: started
and ready, stopped, restarted on the same port with its data, paused and resumed; and where
the binary is found.

References: the module's docstring (tests never use a NATS server they did not start; a
restart keeps port and storage), docs/contributing.md (deploy/nats_server.py). Readiness is
checked with a plain socket and a plain nats-py client, not through the module.
"""

from __future__ import annotations

import asyncio
import socket
import stat

import nats
import pytest

from deploy import nats_server
from deploy.nats_server import NatsServer, nats_server_binary

try:
    nats_server_binary()
except RuntimeError as missing:
    pytest.skip(str(missing), allow_module_level=True)

#: Every test here starts nats-server, a process of its own.
pytestmark = pytest.mark.usefixtures("processes")


def _greeting(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
        return conn.recv(4096)


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return True
    return False


def test_a_started_server_answers_on_its_loopback_port_with_jetstream_and_a_stopped_one_does_not(tmp_path):
    server = NatsServer(tmp_path / "nats")
    assert not server.running and server.pid is None
    server.start()
    try:
        assert server.running and server.pid is not None
        assert server.url == f"nats://127.0.0.1:{server.port}"
        greeting = _greeting(server.port)
        assert greeting.startswith(b"INFO ") and b'"jetstream":true' in greeting
    finally:
        server.stop()
    assert not server.running and server.pid is None
    assert _refused(server.port)


def test_two_servers_get_different_free_ports(tmp_path):
    first, second = NatsServer(tmp_path / "a"), NatsServer(tmp_path / "b")
    assert first.port != second.port


def test_a_restarted_server_keeps_its_port_and_its_jetstream_data(tmp_path):
    async def put(url: str) -> None:
        nc = await nats.connect(url)
        try:
            kv = await nc.jetstream().create_key_value(bucket="KEPT")
            await kv.put("k", b"v")
        finally:
            await nc.close()

    async def get(url: str) -> bytes:
        nc = await nats.connect(url)
        try:
            return (await (await nc.jetstream().key_value("KEPT")).get("k")).value
        finally:
            await nc.close()

    with NatsServer(tmp_path / "nats") as server:
        url = server.url
        asyncio.run(put(url))
        server.stop(kill=True)  # a crash, not a clean shutdown
        server.start()
        assert server.url == url
        assert asyncio.run(get(url)) == b"v"


def test_a_paused_server_is_stopped_in_the_kernel_until_resumed(tmp_path):
    with NatsServer(tmp_path / "nats") as server:
        server.pause()
        assert nats_server._process_state(server.pid) == "T"
        server.resume()
        assert _greeting(server.port).startswith(b"INFO ")


def test_a_paused_server_still_stops(tmp_path):
    server = NatsServer(tmp_path / "nats").start()
    server.pause()
    server.stop(timeout_s=5)
    assert not server.running and _refused(server.port)


def test_stopping_a_stopped_server_and_starting_a_running_one_change_nothing(tmp_path):
    server = NatsServer(tmp_path / "nats")
    server.stop()
    server.start()
    try:
        pid = server.pid
        assert server.start() is server and server.pid == pid
    finally:
        server.stop()
    server.stop()


def test_a_server_that_exits_at_once_is_reported_with_its_log(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(RuntimeError, match="nats-server exited"):
            NatsServer(tmp_path / "nats", port=taken.getsockname()[1]).start()
    finally:
        taken.close()


def test_the_binary_named_by_nats_server_bin_comes_first(tmp_path, monkeypatch):
    fake = tmp_path / "my-nats-server"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("NATS_SERVER_BIN", str(fake))
    assert nats_server_binary() == str(fake)


def test_a_missing_binary_is_a_runtime_error_saying_how_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("NATS_SERVER_BIN", str(tmp_path / "absent"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(nats_server, "_KNOWN_LOCATIONS", ())
    with pytest.raises(RuntimeError, match="NATS_SERVER_BIN"):
        nats_server_binary()
