"""Requests per second of /v1/positions with an ``Idempotency-Key`` on every request, over the
same requests without one (issue 39: ``positions_idempotent_over_plain`` >= 0.9), through the
whole stack on its default store (SQLite), measured by the same client in alternating rounds.

Every request carries a key no other request has, so each one is claimed, computed, charged
and kept (none is a replay, which would cost less than a computation). The plain requests
carry a header of a unique value too (``X-Bench-Nonce``, which the gateway ignores), so the
client sends the same bytes and does the same work for both.
"""

from __future__ import annotations

from bench.figures import record
from bench.loadclient import median_run, run_load
from bench.positions_throughput import CONNECTIONS, running_stack

SECONDS = 4.0
ROUNDS = 3


def main() -> None:
    with running_stack() as stack:

        def load(header: str, seconds: float = SECONDS):
            return run_load(
                "127.0.0.1",
                stack.port,
                stack.paths,
                stack.headers,
                connections=CONNECTIONS,
                seconds=seconds,
                unique_header=header,
            )

        for header in ("X-Bench-Nonce", "Idempotency-Key"):
            load(header, 1.0)  # warm: connections, caches
        plain_runs, keyed_runs = [], []
        for _ in range(ROUNDS):
            plain_runs.append(load("X-Bench-Nonce"))
            keyed_runs.append(load("Idempotency-Key"))
    plain, keyed = median_run(plain_runs), median_run(keyed_runs)
    print(
        f"positions with an Idempotency-Key ({CONNECTIONS} keep-alive connections, median of {ROUNDS} alternating "
        "rounds)"
    )
    print(
        f"  without a key:            {plain.rps:8.0f} req/s  p50 {plain.p50_ms:6.2f} ms  p99 {plain.p99_ms:6.2f} ms  "
        f"errors {plain.errors}"
    )
    print(
        f"  a new key on every request: {keyed.rps:8.0f} req/s  p50 {keyed.p50_ms:6.2f} ms  p99 {keyed.p99_ms:6.2f} "
        f"ms  errors {keyed.errors}"
    )
    print(
        f"  ratio keyed/plain throughput: {record('positions_idempotent_over_plain', keyed.rps / plain.rps):.2f}  "
        "(goal >= 0.90)"
    )


if __name__ == "__main__":
    main()
