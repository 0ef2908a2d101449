"""The sky endpoints through the whole stack beside /v1/positions, measured by the same client
in the same run: median latency of one connection asking one request at a time. Goal: each
within 1.5x of /v1/positions (stars=all and ayanamsha system=all within 3x)."""

from __future__ import annotations

from bench.figures import record
from bench.loadclient import median_run
from bench.positions_throughput import _load, running_stack

SECONDS = 1.5
ROUNDS = 3
MOMENT = "datetime=2024-03-20T12:00:00Z"
QUERIES = {
    "positions": (f"/v1/positions?{MOMENT}", None),
    "void-of-course": (f"/v1/void-of-course?{MOMENT}", 1.5),
    "solar-proximity": (f"/v1/solar-proximity?{MOMENT}", 1.5),
    "ayanamsha lahiri": (f"/v1/ayanamsha?{MOMENT}&system=lahiri", 1.5),
    "ayanamsha all": (f"/v1/ayanamsha?{MOMENT}&system=all", 3.0),
    "delta-t": (f"/v1/delta-t?{MOMENT}", 1.5),
    "sidereal-time": (f"/v1/sidereal-time?{MOMENT}&lon=-0.13", 1.5),
    "planetary-hours": (f"/v1/planetary-hours?{MOMENT}&lat=51.5&lon=-0.13", 1.5),
    "stars one": (f"/v1/stars?{MOMENT}&star=Aldebaran", 1.5),
    "stars all": (f"/v1/stars?{MOMENT}&star=all", 3.0),
}


def main() -> None:
    with running_stack() as stack:
        runs: dict[str, list] = {name: [] for name in QUERIES}
        for path, _ in QUERIES.values():
            _load(stack, connections=1, seconds=0.3, paths=[path])  # warm
        # Rounds alternate over every endpoint, so a slow spell of the machine falls on all alike.
        for _ in range(ROUNDS):
            for name, (path, _) in QUERIES.items():
                runs[name].append(_load(stack, connections=1, seconds=SECONDS, paths=[path]))
    results = {name: median_run(found) for name, found in runs.items()}
    reference = results["positions"].p50_ms
    record("stars_all_over_positions", results["stars all"].p50_ms / reference)
    print(f"sky endpoints, whole stack (1 connection, one request at a time, median of {ROUNDS} alternating rounds)")
    for name, (_, goal) in QUERIES.items():
        result = results[name]
        ratio = result.p50_ms / reference
        goal_text = "" if goal is None else f"  ratio to positions {ratio:5.2f}  (goal <= {goal})"
        print(
            f"  {name:18s} p50 {result.p50_ms:6.2f} ms  p99 {result.p99_ms:6.2f} ms  errors {result.errors}{goal_text}"
        )


if __name__ == "__main__":
    main()
