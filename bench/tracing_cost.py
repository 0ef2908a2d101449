"""CPU per /v1/positions request with traces off, on, and sampled at 1%, beside the same
requests with the tracing hooks taken out (plain), in the same run (issue 50, part 2).

Everything runs in this process, so its CPU time is the whole request's: the gateway app (its
real middleware, authentication, credits on the in-memory store) through httpx's ASGI transport,
its real gRPC channel (gateway/rpc.py) to a real grpc.aio server of the ephemeris service's
positions RPC on loopback (shared/runtime/server.py, computed on the loop as a service process
computes it). Tracing on exports by OTLP/HTTP to a collector in another process
(tests/otlp_collector.py), so only the exporting side is counted. The four modes are measured
in alternating rounds (each starting with another mode), medians reported. Goals: off/plain
about 1.0 (the hooks return what they are given when off); on, the cost per request in ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from unittest import mock

import grpc
import httpx

from bench.figures import record
from bench.positions_throughput import varied_queries
from celestial.v1 import ephemeris_service_pb2
from gateway.app import create_app
from gateway.rpc import ServicePool
from services.ephemeris.server import HANDLERS
from shared.runtime import tracing
from shared.runtime.config import REPO_ROOT, SERVICE_NAMES, load_settings
from shared.runtime.engine_setup import open_engine
from shared.runtime.logging import configure_logging
from shared.runtime.server import ComputeQueue, service_handler
from store.memory_store import MemoryStore

REQUESTS = 1500
WARM_UP = 200
ROUNDS = 3
SERVICE = ephemeris_service_pb2.DESCRIPTOR.services_by_name["EphemerisService"]
#: The modes and the OTEL_* settings each runs under (``plain`` also has the hooks taken out).
MODES: dict[str, dict[str, str]] = {
    "plain": {},
    "off": {},
    "on": {"OTEL_TRACES_SAMPLER": "parentbased_always_on"},
    "1%": {"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.01"},
}
_TRACED_MODES = ("on", "1%")


def _identity(given, *_args, **_kwargs):
    return given


@contextlib.contextmanager
def _without_hooks() -> Iterator[None]:
    """Take the tracing hooks out: each returns what it is given, without even a test."""
    with contextlib.ExitStack() as patches:
        for hook in ("traced_asgi", "traced_method", "traced_compute"):
            patches.enter_context(mock.patch.object(tracing, hook, _identity))
        patches.enter_context(mock.patch.object(tracing, "client_interceptors", lambda pool: []))
        patches.enter_context(mock.patch.object(tracing, "job_context", lambda: None))
        yield


@contextlib.contextmanager
def _otel_environment(collector_port: int, mode: str) -> Iterator[None]:
    """Set the OTEL_* settings of ``mode`` (an endpoint only for the traced ones) while the block runs."""
    settings = dict(MODES[mode])
    if mode in _TRACED_MODES:
        settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = f"http://127.0.0.1:{collector_port}"
    with mock.patch.dict(os.environ, settings):
        yield


async def _cpu_per_request_s(queries: list[str]) -> float:
    """Return the CPU seconds per /v1/positions request of the whole app, built under the
    tracing state of the moment."""
    settings = load_settings()
    server = grpc.aio.server()
    # Positions are bounded: computed on this loop, the compute child is never asked. No health
    # service: the channel says once that it assumes the server healthy, and the gateway's
    # question whether it implements positions then finds it does.
    server.add_generic_rpc_handlers((service_handler(SERVICE, HANDLERS, ComputeQueue(4, None)),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    pools = {name: ServicePool(name, (f"127.0.0.1:{port}",)) for name in SERVICE_NAMES}
    store = MemoryStore()
    account = await store.create_account("bench", 10**12, rate_per_minute=10**9, max_concurrent=10**6)
    key = (await store.create_key(account.id))[0]
    app = create_app(settings, store=store, pools=pools)
    try:
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url="http://bench",
                headers={"Authorization": f"Bearer {key}"},
            ) as client,
        ):
            for query in queries[:WARM_UP]:
                (await client.get(query)).raise_for_status()
            gc.collect()  # the garbage of the modes before is not this one's cost
            started = time.process_time()
            for query in queries[WARM_UP : WARM_UP + REQUESTS]:
                (await client.get(query)).raise_for_status()
            if tracing.tracing_on():
                tracing._provider.force_flush()  # the export of these requests' spans counted too
            return (time.process_time() - started) / REQUESTS
    finally:
        await server.stop(None)


def _measure(collector_port: int, mode: str, queries: list[str]) -> float:
    """Return the CPU seconds per request in ``mode``."""
    with _otel_environment(collector_port, mode), _without_hooks() if mode == "plain" else contextlib.nullcontext():
        tracing.configure("bench")
        try:
            return asyncio.run(_cpu_per_request_s(queries))
        finally:
            tracing.shutdown()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _collector() -> Iterator[int]:
    """Run the counting OTLP collector in its own process; yield its port."""
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "tests.otlp_collector", str(port)], cwd=REPO_ROOT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait()


def main() -> None:
    # The app's line per request would be most of the output and some of the CPU measured.
    configure_logging(load_settings({**os.environ, "CELESTIAL_LOG_LEVEL": "WARNING"}), "bench")
    open_engine(load_settings())
    queries = varied_queries(WARM_UP + REQUESTS)
    per_mode: dict[str, list[float]] = {mode: [] for mode in MODES}
    with _collector() as port:
        for round_ in range(ROUNDS):
            # Each round starts with another mode: no mode always follows the same one.
            order = list(MODES)[round_ % len(MODES) :] + list(MODES)[: round_ % len(MODES)]
            for mode in order:
                per_mode[mode].append(_measure(port, mode, queries))
    median = {mode: sorted(runs)[len(runs) // 2] * 1000 for mode, runs in per_mode.items()}
    plain = median["plain"]
    print(f"tracing cost: CPU per /v1/positions request in one process (median of {ROUNDS} alternating rounds)")
    print(f"  plain (hooks taken out)      {plain:6.3f} ms")
    print(
        f"  off   (no OTLP endpoint)     {median['off']:6.3f} ms  ratio to plain "
        f"{record('tracing_off_over_plain', median['off'] / plain):.3f}  (goal about 1.0)"
    )
    print(
        f"  on    (every request traced) {median['on']:6.3f} ms  ratio to plain "
        f"{record('tracing_on_over_plain', median['on'] / plain):.3f}  cost "
        f"{record('tracing_on_cost_ms', median['on'] - plain):.3f} ms per request"
    )
    print(
        f"  1%    (parentbased_traceidratio 0.01) {median['1%']:6.3f} ms  ratio to plain "
        f"{record('tracing_sampled_1pct_over_plain', median['1%'] / plain):.3f}"
    )


if __name__ == "__main__":
    main()
