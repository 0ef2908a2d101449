"""A test-only service process on the real runtime: ComputeDeltaT stands in for a long scan.

``python -m tests.service.slow_service --queue N`` serves, as the EphemerisService:
ComputeDeltaT, a CPU-bound loop of up to 60 s that checks its deadline between steps (as
a scan does), and the real ComputePositions. It prints ``READY <port>`` once bound.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from celestial.v1 import ephemeris_service_pb2 as pb
from services.ephemeris import positions
from shared.kernel import engine
from shared.kernel.deadline import Deadline
from shared.runtime.config import load_settings
from shared.runtime.server import run_server

LONGEST_SCAN_S = 60.0


def long_scan(request: pb.ComputeDeltaTRequest, deadline: Deadline) -> pb.ComputeDeltaTResponse:
    """Return an empty reply after LONGEST_SCAN_S of work, unless the deadline stops it first."""
    stop_at = time.monotonic() + LONGEST_SCAN_S
    while time.monotonic() < stop_at:
        deadline.check()
        sum(range(20_000))  # a step of pure Python work, holding the GIL as the engine does
    return pb.ComputeDeltaTResponse()


HANDLERS = {"ComputeDeltaT": long_scan, "ComputePositions": positions.compute}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queue", type=int, default=1)
    args = parser.parse_args()
    engine.use_ephemeris_files(load_settings().ephe_path)
    asyncio.run(
        run_server(
            pb.DESCRIPTOR.services_by_name["EphemerisService"],
            HANDLERS,
            queue=args.queue,
            ready=lambda port: print(f"READY {port}", flush=True),
        )
    )


if __name__ == "__main__":
    main()
