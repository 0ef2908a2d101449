"""The webhooks tier at scale (issue 46, part 3): 10,000 subscriptions on stored charts, NATS,
1, 2 and 4 webhook worker processes (``webhooks.worker.run``), events delivered to a
receiver on the loopback. Figures, for each worker count:

- ``webhook_forecasts_per_subscription_day``: the days' computations the workers asked,
  over the (subscription, day) pairs there are (goal 1.00: each computed once in the cluster);
- ``webhook_worker_loop_block_ms_max``: the longest any worker's event loop was held at once
  (``webhooks/loop_watch.py``; goal <= 50);
- ``webhook_delivery_lag_p99_s``: the 99th percentile of (arrival at the receiver - due
  time) at about :data:`EVENTS_PER_S` events a second (goal <= 2), beside the reference
  measured in the same run: the lag of the release step alone (``RELEASE_STEP_S``).

It measures the webhooks tier, not the astronomy: the days' events come from a stand-in for
the search pool (:func:`stand_in_events_of`) that answers synthetic events after
:data:`ANSWER_S` (a gRPC round trip), so the 2-core machine runs it in a few minutes. The
subscriptions, charts and accounts are written straight into the store's buckets (the API's
per-account limits would cost a listing per creation). Run alone: ``python -m bench.webhook_scheduling``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import nats
import orjson

from bench.figures import record
from deploy.nats_server import NatsServer
from shared.runtime.config import REPO_ROOT
from store.chart_records import StoredChart, chart_document, new_chart_id
from store.webhook_records import Webhook, new_secret, new_webhook_id, webhook_document

SUBSCRIPTIONS = 10_000
ACCOUNTS = 100
#: Events a second falling due over :data:`WINDOW_S`: a subscription in five has two.
EVENTS_PER_S = 200
WINDOW_S = 60
#: Seconds from the workers' start to the first event's due time: the first planning and
#: computing of 10,000 days, and the workers' start-up, come before.
LEAD_IN_S = 45
WORKER_COUNTS = (1, 2, 4)
#: Seconds the stand-in search pool takes to answer a day.
ANSWER_S = 0.002
WORKER_ENV = {"CELESTIAL_WEBHOOK_RETRY_FOR_S": "600", "CELESTIAL_LOG_LEVEL": "WARNING"}


def _index(webhook_id: str) -> int:
    return int(hashlib.sha256(webhook_id.encode()).hexdigest()[:12], 16)


def stand_in_instants(webhook_id: str, start_s: float) -> list[float]:
    """Return the synthetic instants (Unix seconds) of a subscription's events: one or two in
    the window beginning :data:`LEAD_IN_S` after ``start_s``, spread evenly over all."""
    index = _index(webhook_id)
    count = 2 if index % 5 == 0 else 1
    window_ms = WINDOW_S * 1000
    return [start_s + LEAD_IN_S + ((index + number * 7919) % window_ms) / 1000.0 for number in range(count)]


def stand_in_events_of(start_s: float, calls: list[tuple[str, str]]):
    """Return an ``events_of`` answering the synthetic events of the day asked after
    :data:`ANSWER_S`, recording each (subscription, day) asked in ``calls``."""

    async def events_of(webhook, chart, day):
        calls.append((webhook.webhook_id, day.isoformat()))
        await asyncio.sleep(ANSWER_S)
        events = []
        for number, instant in enumerate(stand_in_instants(webhook.webhook_id, start_s)):
            moment = datetime.fromtimestamp(instant, UTC)
            if moment.date() == day.date():
                digest = hashlib.sha256(f"{webhook.webhook_id}.{number}".encode()).hexdigest()[:24]
                events.append(
                    {
                        "id": f"fc_{digest}",
                        "kind": "transit",
                        "phase": "exact",
                        "bodies": ["sun", "moon"],
                        "instant": {
                            "jd": instant / 86400.0 + 2440587.5,
                            "datetime": moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                        },
                    }
                )
        return events

    return events_of


class Receiver:
    """A loopback receiver answering 204 and noting each delivery's lag (arrival - instant, s)."""

    def __init__(self):
        self.lags: list[float] = []
        self.events: set[str] = set()
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                arrived = time.time()
                event = orjson.loads(body)["event"]
                due = datetime.fromisoformat(event["instant"]["datetime"].replace("Z", "+00:00")).timestamp()
                with lock:
                    outer.lags.append(arrived - due)
                    outer.events.add(event["id"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256  # the workers' connections arrive in bursts

        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


async def _seed(url: str, receiver_url: str) -> list[str]:
    """Write the accounts, charts and subscriptions into the store; return the subscriptions' ids."""
    from store.nats_store import open_nats_store

    store = await open_nats_store(url)
    accounts = [(await store.create_account(f"bench{n}", 10**9)).id for n in range(ACCOUNTS)]
    await store.close()
    nc = await nats.connect(url)
    js = nc.jetstream()
    charts, webhooks = await js.key_value("CELESTIAL_CHARTS"), await js.key_value("CELESTIAL_WEBHOOKS")
    birth = {"datetime": "1985-07-13T14:05:00", "tz": "Europe/Paris", "lat": "45.75", "lon": "4.85"}
    made = []
    pending = []
    for n in range(SUBSCRIPTIONS):
        account = accounts[n % ACCOUNTS]
        chart = StoredChart(new_chart_id(), account, f"c{n}", dict(birth), {}, dict(birth))
        webhook = Webhook(new_webhook_id(), account, receiver_url, ("transit",), chart.chart_id, 0, new_secret())
        pending.append(charts.put(f"acct.{account}.{chart.chart_id}", orjson.dumps(chart_document(chart))))
        pending.append(webhooks.put(f"acct.{account}.{webhook.webhook_id}", orjson.dumps(webhook_document(webhook))))
        made.append(webhook.webhook_id)
        if len(pending) >= 200:
            await asyncio.gather(*pending)
            pending = []
    await asyncio.gather(*pending)
    await nc.close()
    return made


def _run_workers(
    count: int, server: NatsServer, tmp: Path, start_s: float, expected: int, receiver: Receiver
) -> list[dict]:
    env = {**os.environ, **WORKER_ENV, "CELESTIAL_NATS_URL": server.url}
    outs = [tmp / f"worker{count}-{n}.json" for n in range(count)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.webhook_scheduling", "worker", str(start_s), str(out)],
            cwd=REPO_ROOT,
            env=env,
            stdout=(log := open(tmp / f"worker{count}-{n}.log", "wb")),
            stderr=log,
        )
        for n, out in enumerate(outs)
    ]
    deadline = start_s + LEAD_IN_S + WINDOW_S + 45  # a delivery failed once is tried again 30 s later
    while time.time() < deadline and len(receiver.events) < expected:
        time.sleep(0.5)
    time.sleep(2.0)
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        process.wait(timeout=60)
    for n in range(count):
        for line in (tmp / f"worker{count}-{n}.log").read_text().splitlines()[-5:]:
            print(f"  worker {n}: {line[:300]}")
    return [json.loads(out.read_text()) for out in outs]


def measure(count: int, tmp: Path) -> tuple[float, float, float]:
    """Run ``count`` workers; print and return the forecasts per (subscription, day), the
    longest loop block (ms) and the delivery lag's p99 (s)."""
    server = NatsServer(tmp / f"nats{count}").start()
    receiver = Receiver()
    try:
        made = asyncio.run(_seed(server.url, receiver.url))
        start_s = time.time() + 1.0
        expected = sum(len(stand_in_instants(webhook_id, start_s)) for webhook_id in made)
        reports = _run_workers(count, server, tmp, start_s, expected, receiver)
    finally:
        receiver.server.shutdown()
        server.stop()
    calls = [tuple(call) for report in reports for call in report["calls"]]
    per_day = len(calls) / max(1, len(set(calls)))
    block = max(report["loop_block_ms_max"] for report in reports)
    cpu = max(report["loop_cpu_ms_max"] for report in reports)
    lags = sorted(receiver.lags)
    p99 = lags[int(0.99 * (len(lags) - 1))] if lags else float("nan")
    from webhooks.worker import RELEASE_STEP_S

    print(
        f"webhooks, {count} worker(s), {SUBSCRIPTIONS} subscriptions on stored charts: forecasts per (subscription, "
        f"day) {record(f'webhook_forecasts_per_subscription_day_{count}w', per_day):.2f} ({len(calls)} asked, "
        f"{len(set(calls))} pairs; goal 1.00); loop block max "
        f"{record(f'webhook_worker_loop_block_ms_max_{count}w', block):.1f} ms (goal <= 50; of which the loop "
        f"computing at most {record(f'webhook_worker_loop_block_cpu_ms_max_{count}w', cpu):.1f} ms); delivery lag p99 "
        f"{record(f'webhook_delivery_lag_p99_s_{count}w', p99):.2f} s, median "
        f"{statistics.median(lags) if lags else float('nan'):.2f} s (goal <= 2; the release step alone "
        f"{RELEASE_STEP_S:.2f} s) over {len(receiver.events)} of {expected} events at {EVENTS_PER_S}/s"
    )
    return per_day, block, p99


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        figures = [measure(count, Path(tmp_name)) for count in WORKER_COUNTS]
    # The worst over the worker counts, under the names.
    record("webhook_forecasts_per_subscription_day", max(per_day for per_day, _block, _lag in figures))
    record("webhook_worker_loop_block_ms_max", max(block for _per_day, block, _lag in figures))
    record("webhook_delivery_lag_p99_s", max(lag for _per_day, _block, lag in figures))


def worker(start_s: float, out: Path) -> None:
    """One worker process of the bench: ``webhooks.worker.run`` with the stand-in's events;
    on SIGTERM, it writes the days it asked and its loop's longest block to ``out``."""
    from shared.runtime.config import load_settings
    from webhooks.loop_watch import LoopWatch
    from webhooks.settings import WorkerSettings
    from webhooks.worker import run

    calls: list[tuple[str, str]] = []
    watch = LoopWatch()

    async def body():
        if os.environ.get("BENCH_LOOP_DEBUG"):  # names each callback that held the loop over 40 ms
            asyncio.get_running_loop().set_debug(True)
            asyncio.get_running_loop().slow_callback_duration = 0.04
        stop = asyncio.Event()
        watching = asyncio.create_task(watch.watch(stop))
        await run(load_settings(), WorkerSettings.of(load_settings()), stand_in_events_of(start_s, calls))
        stop.set()
        await watching

    asyncio.run(body())
    out.write_text(
        json.dumps(
            {"calls": calls, "loop_block_ms_max": watch.longest_ever_ms, "loop_cpu_ms_max": watch.longest_cpu_ever_ms}
        )
    )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "worker":
        worker(float(sys.argv[2]), Path(sys.argv[3]))
    else:
        main()
