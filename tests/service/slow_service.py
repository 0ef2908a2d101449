"""A test-only service process on the real runtime: ComputeDeltaT stands in for a long scan,
ComputeSiderealTime for a long engine call.

``python -m tests.service.slow_service --queue N`` serves, as the EphemerisService:
ComputeDeltaT, a CPU-bound loop of up to 60 s that checks its deadline between steps (as
a scan does); ComputeAyanamsha, the same loop ending after 3 s; ComputeSiderealTime, one C call that holds the GIL for
minutes and never looks at its deadline (as a heliacal search near the pole does); and the real ComputePositions. It
prints ``READY <port>`` once serving, and ``STARTED <method>`` as each test-only call begins to
compute (in the compute child, whose output is the process's), so a test waits on that line
rather than for a guessed time.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import time

from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.deadline import Deadline
from services.ephemeris import positions
from shared.runtime.config import load_settings
from shared.runtime.server import run_server

LONGEST_SCAN_S = 60.0


def announce(method: str) -> None:
    """Write ``STARTED <method>`` to the process's output at once: the call is computing now."""
    print(f"STARTED {method}", flush=True)


def long_scan(request: pb.ComputeDeltaTRequest, deadline: Deadline) -> pb.ComputeDeltaTResponse:
    """Return an empty reply after LONGEST_SCAN_S of work, unless the deadline stops it first."""
    announce("ComputeDeltaT")
    stop_at = time.monotonic() + LONGEST_SCAN_S
    while time.monotonic() < stop_at:
        deadline.check()
        sum(range(20_000))  # a step of pure Python work, holding the GIL as the engine does
    return pb.ComputeDeltaTResponse()


def frozen_call(request: pb.ComputeSiderealTimeRequest, deadline: Deadline) -> pb.ComputeSiderealTimeResponse:
    """Return an empty reply after one C call of minutes that holds the GIL (a builtin sum
    over a range runs without a bytecode boundary, so no signal or thread interrupts it)."""
    announce("ComputeSiderealTime")
    sum(range(10**12))
    return pb.ComputeSiderealTimeResponse()


TIMED_SCAN_S = 3.0
#: How long the process gives the calls it holds to finish on SIGTERM: more than a timed scan.
SHUTDOWN_GRACE_S = 5.0


def timed_scan(request: pb.ComputeAyanamshaRequest, deadline: Deadline) -> pb.ComputeAyanamshaResponse:
    """Return an empty reply after TIMED_SCAN_S of work checking its deadline: a scan that ends."""
    announce("ComputeAyanamsha")
    stop_at = time.monotonic() + TIMED_SCAN_S
    while time.monotonic() < stop_at:
        deadline.check()
        sum(range(20_000))
    return pb.ComputeAyanamshaResponse()


HANDLERS = {
    "ComputeDeltaT": long_scan,
    "ComputeSiderealTime": frozen_call,
    "ComputeAyanamsha": timed_scan,
    "ComputePositions": positions.compute,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queue", type=int, default=1)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    # By module name, not as __main__: the compute child imports the handlers by their module.
    handlers = importlib.import_module("tests.service.slow_service").HANDLERS
    asyncio.run(
        run_server(
            pb.DESCRIPTOR.services_by_name["EphemerisService"],
            handlers,
            process="slow",
            host=args.host,
            port=args.port,
            connection_age_s=load_settings().service_connection_age_s,
            shutdown_grace_s=SHUTDOWN_GRACE_S,
            queue=args.queue,
            ready=lambda port: print(f"READY {port}", flush=True),
            # Every call in the compute child, ComputePositions too: it is the quick call
            # these tests queue behind a scan, to see the process freed.
            in_process=(),
        )
    )


if __name__ == "__main__":
    main()
