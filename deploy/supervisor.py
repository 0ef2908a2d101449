"""The local supervisor behind `make run`: every service process and the gateway on loopback.

It starts CELESTIAL_<SERVICE>_PROCESSES processes per service (each on its own port from
CELESTIAL_SERVICE_BASE_PORT on) and one gateway on CELESTIAL_HTTP_PORT, waits until /readyz
answers, prints the development key and a ready curl line, and stops every process on
Ctrl-C (SIGINT) or SIGTERM. Meanwhile it starts again any process, the gateway included,
that dies, and kills (SIGKILL) and starts again one that has answered no health check for
CELESTIAL_RESTART_UNHEALTHY_AFTER_S (a frozen or stuck process): the gRPC health check of a
service process, any answer of the gateway's ``/healthz``. Each process gets the
supervisor's pid as CELESTIAL_SUPERVISOR_PID and stops by itself once the supervisor is gone
(``shared/runtime/orphan.py``), even when the supervisor was killed with SIGKILL.

It also runs CELESTIAL_WEBHOOK_WORKERS webhook workers (``webhooks/worker.py``, default
1), each told the search processes' addresses (CELESTIAL_SEARCH_ADDRESSES: it asks them for
its forecasts), started again when they exit: a worker serves no port, so its health is its
being alive (a worker that hangs mid-delivery loses its delivery to another all the same: the
queue hands out again what was not acknowledged, and the SQLite scheduler's lease lapses).

In development mode (CELESTIAL_MODE, the default) without CELESTIAL_SMTP_URL it also runs the
development mail catcher (``deploy/mail_catcher.py``) and points the gateway's mail at it, with
sign-up open unless CELESTIAL_SIGNUP says otherwise: the mail lands in the development outbox,
which the gateway shows at an address holding a secret made for the run, printed here.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import os
import secrets
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy.mail_catcher import MailCatcher
from deploy.metrics_ports import with_metrics_ports
from shared.runtime.config import REPO_ROOT, SERVICE_NAMES, Settings, load_settings
from store.choice import open_configured_store
from store.key_format import hash_key

READY_LINE = "CELESTIAL READY"
# A process that died is started again, but at most once per this interval, so one that
# dies at start-up does not take the machine's cores restarting.
RESTART_BACKOFF_S = 1.0
# Each running process is asked for its health this often, and a probe fails after
# HEALTH_PROBE_TIMEOUT_S: far longer than a healthy process takes on a loaded machine.
HEALTH_PROBE_INTERVAL_S = 1.0
HEALTH_PROBE_TIMEOUT_S = 2.0
# A starting process (imports, ephemeris files, the store) has at least this long for its
# first answer: start-up takes seconds, several times more on a busy 2-core machine.
START_UP_S = 30.0
# A process draining after a SIGTERM (it refuses its health probes) has its shutdown grace
# (CELESTIAL_SHUTDOWN_GRACE_S) and this much more to exit before it is killed: its own
# stopping path, the store's last writes.
DRAIN_MARGIN_S = 5.0
# The development account `make run` makes a key for, its opening balance, and the file in
# CELESTIAL_DATA_DIR keeping that key between runs (the store keeps only its hash).
DEV_ACCOUNT = "dev"
DEV_CREDITS = 1_000_000
DEV_KEY_FILE = "dev-key"


class Health(enum.Enum):
    """What one health probe found. A process that refuses (its port closed, or NOT_SERVING:
    draining after a SIGTERM, or replacing its compute child) is alive and at work, and is
    given the shutdown grace; only a silent one (no answer within the timeout: frozen or
    stuck) is killed after the unhealthy limit. Killing a draining gateway after 5 s lost the
    answer of any request it held longer (a year's transit scan on a loaded machine)."""

    ANSWERED = "answered"
    REFUSED = "refused"
    SILENT = "silent"


Probe = Callable[[], Health]
#: The settings of the gateway's mail the webhook workers share (their notices are mail too).
MAIL_SETTINGS = ("CELESTIAL_SMTP_URL", "CELESTIAL_MAIL_FROM")


def service_health(address: str) -> Health:
    """Return what the service process at ``address`` says to its health check: SERVING is
    answered; NOT_SERVING (it is stopping) or a refused connection is refused; no answer
    within HEALTH_PROBE_TIMEOUT_S (a frozen process's port still accepts) is silent."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=HEALTH_PROBE_TIMEOUT_S
            )
        except grpc.RpcError as error:
            return Health.REFUSED if error.code() == grpc.StatusCode.UNAVAILABLE else Health.SILENT
    return Health.ANSWERED if reply.status == health_pb2.HealthCheckResponse.SERVING else Health.REFUSED


def grpc_serving(address: str) -> bool:
    """Return whether the service process at ``address`` answers its health check SERVING."""
    return service_health(address) is Health.ANSWERED


def _always() -> Health:
    """Return answered: the health of a process that serves no port is its being alive."""
    return Health.ANSWERED


def http_health(url: str) -> Health:
    """Return whether ``url`` answers at all, whatever its status: a gateway refusing a
    connection over its limit (503) is busy, not stuck, and restarting it would help whoever
    holds its connections. A refused connection is a gateway draining after a SIGTERM (its
    port closed); no answer within HEALTH_PROBE_TIMEOUT_S is silence."""
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_PROBE_TIMEOUT_S):
            return Health.ANSWERED
    except urllib.error.HTTPError:
        return Health.ANSWERED
    except urllib.error.URLError as error:
        return Health.REFUSED if isinstance(error.reason, ConnectionRefusedError) else Health.SILENT
    except ConnectionRefusedError:
        return Health.REFUSED
    except (ConnectionError, TimeoutError):
        return Health.SILENT


@dataclass
class Child:
    """One supervised process, how to start it again and how to ask for its health."""

    name: str
    argv: list[str]
    probe: Probe = field(repr=False)
    process: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = field(default=0.0)
    # When the running process last answered its health probe; None before its first answer.
    healthy_at: float | None = None
    probing: Future | None = field(default=None, repr=False)
    probed_at: float = 0.0
    # When the running process was first asked for its health; None before. Its start-up time
    # counts from then: while `make run` waits for the gateway to be ready nothing is asked,
    # and a process that took long to start on a busy machine is not to be killed unasked.
    first_probed_at: float | None = None
    # Since when the running process has refused its health probes after answering them (it
    # drains after a SIGTERM); None while it answers or is silent.
    refusing_since: float | None = None
    # Settings of this process only, over the supervisor's environment.
    env: dict[str, str] = field(default_factory=dict, repr=False)

    def start(self) -> None:
        env = {**os.environ, **self.env, "CELESTIAL_SUPERVISOR_PID": str(os.getpid())}
        self.process = subprocess.Popen(self.argv, cwd=REPO_ROOT, env=env)
        self.started_at = time.monotonic()
        self.healthy_at = None
        self.probing = None
        self.first_probed_at = None
        self.refusing_since = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def restart_reason(child: Child, now: float, unhealthy_after_s: float, drain_s: float | None = None) -> str | None:
    """Return why ``child`` must be started again at ``now`` (it exited, or has answered no
    health probe for ``unhealthy_after_s``, or for START_UP_S since it was first asked, or has
    refused them, draining, for ``drain_s``: the shutdown grace and a margin), or None."""
    if child.process is None:
        return None
    if not child.alive():
        if now - child.started_at < RESTART_BACKOFF_S:
            return None
        return f"it exited with status {child.process.returncode}"
    if child.healthy_at is None:
        if child.first_probed_at is None:
            return None
        silent_s, limit_s = now - child.first_probed_at, max(unhealthy_after_s, START_UP_S)
    elif child.refusing_since is not None and drain_s is not None:
        refusing_s = now - child.refusing_since
        if refusing_s <= max(unhealthy_after_s, drain_s):
            return None
        return f"it has drained for {refusing_s:.1f} s, longer than its shutdown grace"
    else:
        silent_s, limit_s = now - child.healthy_at, unhealthy_after_s
    if silent_s <= limit_s:
        return None
    return f"it answered no health check for {silent_s:.1f} s"


def plan(settings: Settings, gateway_env: Mapping[str, str] | None = None) -> list[Child]:
    """Return the processes to run: every service process, the webhook workers, then the
    gateway (the workers and the gateway with ``gateway_env`` over the supervisor's environment)."""
    children: list[Child] = []
    for service in SERVICE_NAMES:
        for index, address in enumerate(settings.service_addresses[service]):
            port = address.rsplit(":", 1)[1]
            argv = [sys.executable, "-m", f"services.{service}.server", "--port", port]
            children.append(Child(f"{service}-{index}", argv, partial(service_health, address)))
    for index in range(settings.webhook_workers):
        # The gateway's mail server too (not its outbox token): a paused subscription's email
        # goes where the dashboard's mail goes.
        mail = {name: value for name, value in (gateway_env or {}).items() if name in MAIL_SETTINGS}
        env = {**mail, **search_pool_environment(settings)}
        worker = Child(f"webhook-worker-{index}", [sys.executable, "-m", "webhooks.worker"], _always, env=env)
        children.append(worker)
    healthz = f"http://{settings.http_host}:{settings.http_port}/healthz"
    children.append(
        Child(
            "gateway",
            [sys.executable, "-m", "gateway.main"],
            partial(http_health, healthz),
            env=dict(gateway_env or {}),
        )
    )
    return children


def search_pool_environment(settings: Settings) -> dict[str, str]:
    """Return the environment naming the search pool's processes this supervisor starts
    (CELESTIAL_SEARCH_ADDRESSES): a webhook worker asks them for its forecasts over gRPC."""
    return {"CELESTIAL_SEARCH_ADDRESSES": ",".join(settings.service_addresses["search"])}


def busy_ports(settings: Settings) -> list[tuple[str, int]]:
    """Return (what listens there, port) for each port of the plan that cannot be bound now,
    probed as the servers bind (SO_REUSEADDR: a port in TIME_WAIT is free for them)."""
    wanted = [
        (f"{service}-{index}", address)
        for service in SERVICE_NAMES
        for index, address in enumerate(settings.service_addresses[service])
    ]
    wanted.append(("gateway", f"{settings.http_host}:{settings.http_port}"))
    busy = []
    for name, address in wanted:
        host, port = address.rsplit(":", 1)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, int(port)))
            except OSError:
                busy.append((name, int(port)))
    return busy


def wait_ready(settings: Settings, children: list[Child], timeout_s: float = 90.0) -> None:
    """Return once the gateway's /readyz answers 200; raise if a process dies or time runs out."""
    url = f"http://{settings.http_host}:{settings.http_port}/readyz"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for child in children:
            if not child.alive():
                raise RuntimeError(f"{child.name} exited with status {child.process.returncode} during start-up")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the gateway was not ready at {url} within {timeout_s:.0f} s")


def development_key(settings: Settings) -> str:
    """Return the development key: the one kept in CELESTIAL_DATA_DIR/dev-key while it is an
    active key of the `dev` account, else a new key of that account (created with
    DEV_CREDITS when missing), kept there in its place."""
    return asyncio.run(_development_key(settings, settings.data_dir / DEV_KEY_FILE))


async def _development_key(settings: Settings, kept_at: Path) -> str:
    store = await open_configured_store(settings)
    try:
        account = await store.get_account(DEV_ACCOUNT) or await store.create_account(DEV_ACCOUNT, DEV_CREDITS)
        kept = kept_at.read_text().strip() if kept_at.is_file() else ""
        record = await store.find_key_by_hash(hash_key(kept)) if kept else None
        if record is not None and record.account_id == account.id and record.state() == "active":
            if not kept_at.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
                return kept
            # Readable by other users: it may have leaked, so it stops working.
            await store.revoke_key(record.key_id)
        plain, _ = await store.create_key(account.id)
        _write_private(kept_at, plain)
        return plain
    finally:
        await store.close()


def _write_private(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in a file only its owner can read (mode 0600) at every moment."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # created 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text + "\n")
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def wants_mail_catcher(settings: Settings) -> bool:
    """Return whether `make run` runs the development mail catcher: in development mode, when
    no mail server is configured."""
    return not settings.production and settings.smtp_url is None


def catcher_environment(environ: Mapping[str, str], smtp_url: str, outbox_token: str) -> dict[str, str]:
    """Return the gateway's settings while the mail catcher at ``smtp_url`` runs: its mail goes
    there, the outbox page answers to ``outbox_token``, and sign-up is open unless
    CELESTIAL_SIGNUP (in ``environ``) says otherwise."""
    extra = {"CELESTIAL_SMTP_URL": smtp_url, "CELESTIAL_DEV_OUTBOX_TOKEN": outbox_token}
    if "CELESTIAL_SIGNUP" not in environ:
        extra["CELESTIAL_SIGNUP"] = "open"
    return extra


def outbox_line(settings: Settings, base: str) -> str:
    """Return what `make run` says of the development outbox when its catcher runs."""
    return (
        f"Mail: caught, never delivered (CELESTIAL_SMTP_URL is not set). "
        f"Development outbox: {base}/dashboard/outbox?token={settings.dev_outbox_token}"
    )


def signup_line(settings: Settings, base: str) -> str:
    """Return what `make run` says of the dashboard and of sign-up (off without SMTP)."""
    if settings.signup_enabled:
        return f"Dashboard: {base}/dashboard   Sign-up: open (mail through CELESTIAL_SMTP_URL)"
    why = "CELESTIAL_SMTP_URL is not set" if settings.signup_open else "CELESTIAL_SIGNUP is not open"
    return (
        f"Dashboard: {base}/dashboard   Sign-up: off ({why}); owners come by invitation: "
        f"celestial-admin account invite ACCOUNT EMAIL"
    )


def stop(children: list[Child], grace_s: float = 5.0) -> None:
    """Send SIGTERM to every process, then SIGKILL to any still running after ``grace_s``."""
    for child in children:
        if child.alive():
            child.process.send_signal(signal.SIGTERM)
            # A frozen (SIGSTOPped) process acts on its SIGTERM only once it runs again.
            child.process.send_signal(signal.SIGCONT)
    deadline = time.monotonic() + grace_s
    for child in children:
        if child.process is None:
            continue
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()


def supervise(
    children: list[Child], settings: Settings, stopping: Callable[[], bool], probes: ThreadPoolExecutor
) -> None:
    """Return once ``stopping()`` is true; until then probe every running process's health
    (in ``probes``' threads, so a frozen process delays no other) and start again any that
    :func:`restart_reason` names."""
    while not stopping():
        now = time.monotonic()
        for child in children:
            if child.probing is not None and child.probing.done():
                health = child.probing.result()
                if health is Health.ANSWERED:
                    child.healthy_at, child.refusing_since = child.probed_at, None
                elif health is Health.REFUSED:
                    child.refusing_since = child.refusing_since or child.probed_at
                else:
                    child.refusing_since = None
                child.probing = None
            if child.probing is None and child.alive() and now - child.probed_at >= HEALTH_PROBE_INTERVAL_S:
                child.probed_at = now
                if child.first_probed_at is None:
                    child.first_probed_at = now
                child.probing = probes.submit(child.probe)
            reason = restart_reason(
                child, now, settings.restart_unhealthy_after_s, settings.shutdown_grace_s + DRAIN_MARGIN_S
            )
            if reason is not None and not stopping():
                child.restarts += 1
                print(
                    f"supervisor: restarting {child.name} (restart {child.restarts}): {reason}",
                    file=sys.stderr,
                    flush=True,
                )
                if child.alive():
                    child.process.kill()
                    child.process.wait()
                child.start()
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run every Celestial process on loopback")
    parser.add_argument("--no-dev-key", action="store_true", help="do not print the development key")
    args = parser.parse_args(argv)
    settings = load_settings()
    busy = busy_ports(settings)
    if busy:
        listed = ", ".join(f"{port} ({name})" for name, port in busy)
        print(
            f"supervisor: ports already in use: {listed}. Free them, or choose others with "
            "CELESTIAL_SERVICE_BASE_PORT (gRPC services) and CELESTIAL_HTTP_PORT (gateway).",
            file=sys.stderr,
            flush=True,
        )
        return 1
    catcher: MailCatcher | None = None
    gateway_env: dict[str, str] = {}
    if wants_mail_catcher(settings):
        catcher = MailCatcher(settings.dev_outbox_dir).start()
        gateway_env = catcher_environment(os.environ, catcher.url, secrets.token_urlsafe(32))
        settings = load_settings({**os.environ, **gateway_env})
    children = with_metrics_ports(plan(settings, gateway_env), settings.metrics_base_port)
    stopping = {"now": False}

    def request_stop(signum, frame):
        stopping["now"] = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    for child in children:
        child.start()
    probes = ThreadPoolExecutor(max_workers=len(children), thread_name_prefix="health-probe")
    status = 0
    try:
        wait_ready(settings, children)
        base = f"http://{settings.http_host}:{settings.http_port}"
        print(f"{READY_LINE} {base}", flush=True)
        if not args.no_dev_key:
            key = development_key(settings)
            print(f"\nDevelopment key (account '{DEV_ACCOUNT}'): {key}", flush=True)
            print(
                f"Try:\n  curl -s -H 'Authorization: Bearer {key}' "
                f"'{base}/v1/positions?datetime=2024-03-20T12:00:00Z'\n",
                flush=True,
            )
            print(f"Docs: {base}/docs   OpenAPI: {base}/v1/openapi.json   Stop: Ctrl-C", flush=True)
        print(signup_line(settings, base), flush=True)
        if catcher is not None:
            print(outbox_line(settings, base), flush=True)
        supervise(children, settings, lambda: stopping["now"], probes)
    except RuntimeError as error:
        print(f"supervisor: {error}", file=sys.stderr, flush=True)
        status = 1
    finally:
        probes.shutdown(wait=False, cancel_futures=True)
        stop(children)
        if catcher is not None:
            catcher.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
