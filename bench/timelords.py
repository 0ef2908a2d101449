"""The widest request of each time-lord technique through the whole stack, beside /v1/positions,
measured by the same client in the same run: median latency of one connection asking one
request at a time. Goal: each within 3x of /v1/positions."""

from __future__ import annotations

from bench.figures import record
from bench.loadclient import median_run
from bench.positions_throughput import _load, running_stack

SECONDS = 2.0
ROUNDS = 3
# A different birth per request (as real traffic has), so no answer is served from what an
# earlier identical request left behind; the range spans 120 years from each birth.
BIRTHS = [
    f"datetime=1990-06-{1 + i % 28:02d}T{i % 24:02d}:{(7 * i) % 60:02d}:00Z&lat=51.5&lon=-0.13" for i in range(60)
]
SPAN = "start=1990-06-01T00:00:00Z&end=2110-05-01T00:00:00Z"
QUERIES = {
    "positions": [f"/v1/positions?datetime=2024-03-{1 + i % 28:02d}T{i % 24:02d}:00:00Z" for i in range(60)],
    "releasing 120 y, level 2": [f"/v1/zodiacal-releasing?{b}&{SPAN}&max_level=2" for b in BIRTHS],
    "profections 120 y + months": [f"/v1/profections?{b}&{SPAN}" for b in BIRTHS],
    "firdaria 120 y": [f"/v1/firdaria?{b}&{SPAN}" for b in BIRTHS],
}
GOAL = 3.0


def main() -> None:
    with running_stack() as stack:
        runs: dict[str, list] = {name: [] for name in QUERIES}
        for paths in QUERIES.values():
            _load(stack, connections=1, seconds=0.3, paths=paths)  # warm
        for _ in range(ROUNDS):
            for name, paths in QUERIES.items():
                runs[name].append(_load(stack, connections=1, seconds=SECONDS, paths=paths))
    results = {name: median_run(found) for name, found in runs.items()}
    reference = results["positions"].p50_ms
    print(
        f"time-lords, widest requests, whole stack (1 connection, one request at a time, median of {ROUNDS} "
        "alternating rounds)"
    )
    record("profections_widest_over_positions", results["profections 120 y + months"].p50_ms / reference)
    for name, result in results.items():
        ratio = (
            "" if name == "positions" else f"  ratio to positions {result.p50_ms / reference:5.2f}  (goal <= {GOAL:g})"
        )
        print(f"  {name:28s} p50 {result.p50_ms:7.2f} ms  p99 {result.p99_ms:7.2f} ms  errors {result.errors}{ratio}")


if __name__ == "__main__":
    main()
