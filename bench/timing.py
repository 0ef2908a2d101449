"""How the benchmarks time their work in process: a handler's service time request by request
(what a service's compute child spends on one: validation with its reader, the handler, the
reply and its serialization), and a piece of work's time over rounds; each the median."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

from kernel.deadline import Deadline
from shared.runtime.computation import compute_reply


def median_service_ms(handler: Callable, requests: Iterable) -> tuple[float, float]:
    """Return the median milliseconds, of CPU and of the clock, of each of ``requests`` through
    ``compute_reply`` with ``handler`` and the reply's serialization (a request is built before
    its timing starts, so a generator's building is not counted). The compute child is one
    thread, so its CPU time is its service time on a core of its own; the clock's also counts
    the waits a machine shared with other work adds (the CPU's is the figure)."""
    cpu, wall = [], []
    for request in requests:
        started, started_cpu = time.perf_counter(), time.process_time()
        compute_reply(handler, request, Deadline.never()).SerializeToString()
        cpu.append((time.process_time() - started_cpu) * 1e3)
        wall.append((time.perf_counter() - started) * 1e3)
    return statistics.median(cpu), statistics.median(wall)


def median_ms(work: Callable[[], object], rounds: int) -> float:
    """Return the median milliseconds by the clock of ``rounds`` calls of ``work``."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3
