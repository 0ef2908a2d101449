"""Configuration: the only module that reads the environment. Every setting and its default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

SERVICE_NAMES = ("ephemeris", "timelords", "search", "astrocartography")
DEFAULT_SERVICE_BASE_PORT = 18100
#: The values of CELESTIAL_MODE: `make run` on a workstation, or a deployment serving customers.
MODES = ("development", "production")


def _int(env: dict, name: str, default: int) -> int:
    return int(env.get(name, default))


def _float(env: dict, name: str, default: float) -> float:
    return float(env.get(name, default))


@dataclass(frozen=True)
class Settings:
    """Every runtime setting, read once from the environment by :func:`load_settings`."""

    # CELESTIAL_EPHE_PATH: folder of the Swiss Ephemeris .se1 files.
    ephe_path: Path = REPO_ROOT / "data" / "ephe"
    # CELESTIAL_PLACES_PATH: the places database of /v1/places and place= (make setup builds it).
    places_path: Path = REPO_ROOT / "data" / "places" / "gazetteer.sqlite"
    # CELESTIAL_TZ_PATH: the tz database (built with backzone) and its zones compiled by zic
    # (make setup builds them: deploy/build_zoneinfo.py).
    tz_path: Path = REPO_ROOT / "data" / "tz"
    # CELESTIAL_GUIDES_PATH: the folder holding README.md and docs/, which the gateway serves
    # as HTML under /docs/guides (the repository's own; the container image copies them to /app).
    guides_path: Path = REPO_ROOT
    # CELESTIAL_DATA_DIR: where the embedded SQLite store keeps its file.
    data_dir: Path = REPO_ROOT / "var"
    # CELESTIAL_HTTP_HOST / CELESTIAL_HTTP_PORT: where the gateway listens.
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    # CELESTIAL_<SERVICE>_ADDRESSES: comma-separated host:port list of one service's processes.
    service_addresses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # CELESTIAL_<SERVICE>_PROCESSES: how many processes `make run` starts for a service, and how
    # many a gateway plans for when the service's address is one DNS name (a cluster's headless
    # Service): its fair share sends that many scans of one account, that many x the queue calls.
    service_processes: dict[str, int] = field(default_factory=dict)
    # CELESTIAL_SERVICE_BASE_PORT: first gRPC port `make run` hands out. Below every
    # system's ephemeral range (Linux 32768-60999, IANA 49152-65535), where an outgoing
    # connection could hold the port at any moment.
    service_base_port: int = DEFAULT_SERVICE_BASE_PORT
    # CELESTIAL_SERVICE_QUEUE: requests one service process accepts at once (one computes,
    # the rest wait). Short, so a busy process refuses at once (RESOURCE_EXHAUSTED) and the
    # gateway's channel retries another process instead of queueing behind a long scan; when
    # every process refuses, the gateway answers 503.
    service_queue: int = 4
    # CELESTIAL_QUEUE_WAIT_S: how long a call may wait in the gateway for its turn at a
    # service pool (gateway/fair_share.py) before it is answered 503 service_unavailable with
    # Retry-After, refunded. Short beside the deadlines: a client that cannot be served soon
    # hears so at once and can retry, rather than waiting out a deadline for a 504.
    queue_wait_s: float = 5.0
    # CELESTIAL_HTTP_HEADER_TIMEOUT_S: how long a client may take to send a request's line
    # and headers, from its first byte (or the connection's opening); then 408 and close.
    http_header_timeout_s: float = 10.0
    # CELESTIAL_HTTP_BODY_TIMEOUT_S: how long a client may take to send a request's body once
    # its headers are in; then 408 and close. A body is read before any limit slot is taken.
    http_body_timeout_s: float = 30.0
    # CELESTIAL_HTTP_KEEP_ALIVE_S: how long an idle keep-alive connection stays open.
    http_keep_alive_s: float = 5.0
    # CELESTIAL_HTTP_MAX_CONNECTIONS: open connections one gateway process accepts; one more
    # is answered 503 and closed.
    http_max_connections: int = 1000
    # CELESTIAL_SERVICE_KEEPALIVE_S / CELESTIAL_SERVICE_PING_TIMEOUT_S: the gateway pings each
    # connection to a service process this often, and closes a connection whose ping stays
    # unanswered this long. A frozen process (SIGSTOP, a stuck machine) keeps its TCP
    # connections and its health stream open but answers no ping, so this is what takes it
    # out of the rotation (within their sum) until it answers again.
    service_keepalive_s: float = 1.0
    service_ping_timeout_s: float = 2.0
    # CELESTIAL_RESTART_UNHEALTHY_AFTER_S: the supervisor kills (SIGKILL) and starts again a
    # process that has not answered its health check for this long. A service process answers
    # from its event loop while its child computes (even through one long engine call), so
    # silence this long means frozen or stuck; it is still far above a health check's usual
    # milliseconds, so a loaded machine does not get its processes restarted.
    restart_unhealthy_after_s: float = 5.0
    # CELESTIAL_SHUTDOWN_GRACE_S: on SIGTERM a service process reports NOT_SERVING, refuses
    # new calls (the gateway's channel sends them to another process) and gives the calls it
    # holds this long to finish before it stops them. Kubernetes' terminationGracePeriodSeconds
    # must be longer (deploy/k8s sets it a few seconds above).
    shutdown_grace_s: float = 25.0
    # CELESTIAL_SERVICE_CONNECTION_AGE_S: a service process closes (GOAWAY) each connection
    # this old, so a gateway whose pool is a DNS name resolves it again and a replica added
    # since takes calls within this long; calls under way get the scan deadline to finish.
    service_connection_age_s: float = 30.0
    # CELESTIAL_SUPERVISOR_PID: set by `make run`'s supervisor in the environment of each
    # process it starts, which stops when that supervisor is gone (shared/runtime/orphan.py).
    supervisor_pid: int | None = None
    # CELESTIAL_FAST_DEADLINE_S / CELESTIAL_SCAN_DEADLINE_S / CELESTIAL_ENGINE_SEARCH_DEADLINE_S:
    # gRPC deadline per deadline class. An engine search (heliacal) cannot stop between steps:
    # its deadline is what one call may hold a process (plus the compute child's hard-stop grace).
    fast_deadline_s: float = 10.0
    scan_deadline_s: float = 60.0
    engine_search_deadline_s: float = 2.5
    # CELESTIAL_KEY_CACHE_S: how long a key record is trusted before it is read again.
    key_cache_s: float = 60.0
    # CELESTIAL_USAGE_CACHE_S: how long a /v1/usage figure is answered from the cache (at most 60).
    usage_cache_s: float = 30.0
    # CELESTIAL_CHARTS_PER_ACCOUNT: the most stored charts one account keeps (issue 40).
    charts_per_account: int = 1000
    # CELESTIAL_WEBHOOKS_PER_ACCOUNT: the most webhook subscriptions one account keeps (issue 40).
    webhooks_per_account: int = 100
    # --- webhook deliveries (issue 40, part 3; webhooks/worker.py, docs/webhooks.md) ---
    # CELESTIAL_WEBHOOK_TIMEOUT_S: how long a webhook receiver has to answer a delivery.
    webhook_timeout_s: float = 10.0
    # CELESTIAL_WEBHOOK_WORKERS: the webhook workers `make run` starts.
    webhook_workers: int = 1
    # CELESTIAL_WEBHOOK_TICK_S: how often a worker looks for deliveries fallen due.
    webhook_tick_s: float = 5.0
    # CELESTIAL_WEBHOOK_FIRST_RETRY_S / _MAX_RETRY_S: the backoff's first ceiling and its cap
    # (each delay is jittered between half its ceiling and all of it);
    # CELESTIAL_WEBHOOK_RETRY_FOR_S: how long an event is retried after it fell due, and how
    # long a subscription fails before it pauses: 72 hours, at most (the tests shorten all three).
    webhook_first_retry_s: float = 30.0
    webhook_max_retry_s: float = 3600.0
    webhook_retry_for_s: float = 259200.0
    # CELESTIAL_WEBHOOK_ACK_WAIT_S: (NATS) a dead worker's delivery goes to another after this;
    # more than CELESTIAL_WEBHOOK_TIMEOUT_S.
    webhook_ack_wait_s: float = 30.0
    # CELESTIAL_WEBHOOK_CONCURRENCY: delivery attempts one worker has in flight at once (on
    # asyncio, no thread each: webhooks/in_flight.py argues the default).
    webhook_concurrency: int = 256
    # CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY: attempts one account may have in flight at once in
    # one process (a worker, or a gateway's /test), so one account's slow receivers hold only
    # its own (webhooks/account_slots.py).
    webhook_account_concurrency: int = 4
    # CELESTIAL_WEBHOOK_HEARTBEAT_PATH: a file the worker touches every tick (its liveness
    # probe on Kubernetes); unset: none.
    webhook_heartbeat_path: str | None = None
    # CELESTIAL_LOG_FORMAT: json (default outside a terminal) or console.
    log_format: str = "json"
    # CELESTIAL_LOG_LEVEL
    log_level: str = "INFO"
    # CELESTIAL_NATS_URL: when set, the key and credit store is NATS JetStream (issue 3).
    nats_url: str | None = None
    # CELESTIAL_NATS_REPLICAS: the replication factor of the ledger stream and the key-value
    # buckets the NATS store creates (3 on a 3-node JetStream cluster; deploy/k8s/overlays/prod).
    nats_replicas: int = 1
    # CELESTIAL_ADMIN_TOKEN: bearer token of the admin HTTP API; unset disables it.
    admin_token: str | None = None
    # --- the account dashboard (issue 24) ---
    # CELESTIAL_PUBLIC_URL: the gateway's address as customers reach it (scheme, host, port;
    # no path), used in the links the operator hands out (invites); unset means
    # http://CELESTIAL_HTTP_HOST:CELESTIAL_HTTP_PORT, right only on the machine itself.
    public_url: str | None = None
    # CELESTIAL_SESSION_IDLE_S: a dashboard session unused this long is over (30 minutes, the
    # idle timeout OWASP's Session Management Cheat Sheet gives for low-risk applications).
    session_idle_s: float = 1800.0
    # CELESTIAL_SESSION_ABSOLUTE_S: a dashboard session is over this long after sign-in, used
    # or not (12 hours: a working day, then a fresh sign-in).
    session_absolute_s: float = 43200.0
    # CELESTIAL_SMTP_URL: where the dashboard sends mail (smtp://[user:password@]host[:port],
    # or smtps:// for TLS from the start); unset: no mail, so no sign-up and no "forgot password".
    smtp_url: str | None = None
    # CELESTIAL_MAIL_FROM: the sender of the dashboard's mail.
    mail_from: str = "Celestial <no-reply@localhost>"
    # CELESTIAL_SIGNUP: "open" lets visitors create an account from the dashboard (it needs
    # CELESTIAL_SMTP_URL, to confirm their address); anything else, or no SMTP, keeps it off.
    signup_open: bool = False
    # CELESTIAL_SIGNUP_CREDITS: the credits a new account from sign-up starts with.
    signup_credits: int = 100
    # CELESTIAL_MODE: "development" (the default, for `make run`) or "production" (set by the
    # container image, so every cluster runs in it). Only development has the mail catcher
    # and its outbox page, which show every mailed link to whoever holds the outbox token.
    mode: str = "development"
    # --- metrics (issue 50, part 1; docs/operating.md) ---
    # CELESTIAL_METRICS_HOST / CELESTIAL_METRICS_PORT: where this process serves /metrics
    # (shared/runtime/metrics_endpoint.py), never on the public port; port 0 (the default): off.
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 0
    # CELESTIAL_METRICS_BASE_PORT: the first of the /metrics ports `make run` hands its
    # processes, one each in the order it starts them; 0 (the default): none serves /metrics.
    metrics_base_port: int = 0
    # CELESTIAL_DEV_OUTBOX_TOKEN: set by `make run`'s supervisor, for its gateway only, when
    # it runs the development mail catcher: the secret of the outbox page's address.
    dev_outbox_token: str | None = None

    @property
    def database_path(self) -> Path:
        """Return the path of the embedded store's SQLite file."""
        return self.data_dir / "celestial.sqlite3"

    @property
    def production(self) -> bool:
        """Return whether this is a deployment serving customers (CELESTIAL_MODE=production)."""
        return self.mode == "production"

    @property
    def dev_outbox_dir(self) -> Path:
        """Return the folder where the development mail catcher keeps the messages it received."""
        return self.data_dir / "dev-outbox"

    @property
    def signup_enabled(self) -> bool:
        """Return whether the dashboard offers sign-up: CELESTIAL_SIGNUP=open and mail configured."""
        return self.signup_open and self.smtp_url is not None

    @property
    def base_url(self) -> str:
        """Return the gateway's address for links: CELESTIAL_PUBLIC_URL, else the listening address."""
        return self.public_url or f"http://{self.http_host}:{self.http_port}"


def default_process_counts(cpus: int | None = None) -> dict[str, int]:
    """Return how many processes `make run` starts per service when the environment does not say.

    The ephemeris service takes every core but one, which the gateway keeps: one more
    ephemeris process only competes for the same cores and costs more CPU per
    /v1/positions request, not less (see docs/performance.md). The other services are idle until their endpoints land.
    """
    cpus = cpus if cpus is not None else (os.cpu_count() or 2)
    return {"ephemeris": max(1, cpus - 1), "timelords": 1, "search": 1, "astrocartography": 1}


def load_settings(env: dict | None = None) -> Settings:
    """Return the settings read from ``env`` (default: the process environment)."""
    env = dict(os.environ if env is None else env)
    mode = env.get("CELESTIAL_MODE", "development").strip().lower()
    if mode not in MODES:
        # A typo must not leave a production deployment in development mode.
        raise ValueError(f"CELESTIAL_MODE must be one of {', '.join(MODES)}, not {mode!r}")
    base_port = _int(env, "CELESTIAL_SERVICE_BASE_PORT", DEFAULT_SERVICE_BASE_PORT)
    default_processes = default_process_counts()
    processes: dict[str, int] = {}
    addresses: dict[str, tuple[str, ...]] = {}
    port = base_port
    for name in SERVICE_NAMES:
        count = _int(env, f"CELESTIAL_{name.upper()}_PROCESSES", default_processes[name])
        processes[name] = count
        listed = env.get(f"CELESTIAL_{name.upper()}_ADDRESSES")
        if listed:
            addresses[name] = tuple(a.strip() for a in listed.split(",") if a.strip())
        else:
            addresses[name] = tuple(f"127.0.0.1:{port + i}" for i in range(count))
        port += count
    return Settings(
        ephe_path=Path(env.get("CELESTIAL_EPHE_PATH", REPO_ROOT / "data" / "ephe")),
        places_path=Path(env.get("CELESTIAL_PLACES_PATH", REPO_ROOT / "data" / "places" / "gazetteer.sqlite")),
        tz_path=Path(env.get("CELESTIAL_TZ_PATH", REPO_ROOT / "data" / "tz")),
        data_dir=Path(env.get("CELESTIAL_DATA_DIR", REPO_ROOT / "var")),
        guides_path=Path(env.get("CELESTIAL_GUIDES_PATH", REPO_ROOT)),
        http_host=env.get("CELESTIAL_HTTP_HOST", "127.0.0.1"),
        http_port=_int(env, "CELESTIAL_HTTP_PORT", 8080),
        service_addresses=addresses,
        service_processes=processes,
        service_base_port=base_port,
        service_queue=_int(env, "CELESTIAL_SERVICE_QUEUE", 4),
        queue_wait_s=_float(env, "CELESTIAL_QUEUE_WAIT_S", 5.0),
        http_header_timeout_s=_float(env, "CELESTIAL_HTTP_HEADER_TIMEOUT_S", 10.0),
        http_body_timeout_s=_float(env, "CELESTIAL_HTTP_BODY_TIMEOUT_S", 30.0),
        http_keep_alive_s=_float(env, "CELESTIAL_HTTP_KEEP_ALIVE_S", 5.0),
        http_max_connections=_int(env, "CELESTIAL_HTTP_MAX_CONNECTIONS", 1000),
        service_keepalive_s=_float(env, "CELESTIAL_SERVICE_KEEPALIVE_S", 1.0),
        service_ping_timeout_s=_float(env, "CELESTIAL_SERVICE_PING_TIMEOUT_S", 2.0),
        restart_unhealthy_after_s=_float(env, "CELESTIAL_RESTART_UNHEALTHY_AFTER_S", 5.0),
        shutdown_grace_s=_float(env, "CELESTIAL_SHUTDOWN_GRACE_S", 25.0),
        service_connection_age_s=_float(env, "CELESTIAL_SERVICE_CONNECTION_AGE_S", 30.0),
        supervisor_pid=int(env["CELESTIAL_SUPERVISOR_PID"]) if env.get("CELESTIAL_SUPERVISOR_PID") else None,
        fast_deadline_s=_float(env, "CELESTIAL_FAST_DEADLINE_S", 10.0),
        scan_deadline_s=_float(env, "CELESTIAL_SCAN_DEADLINE_S", 60.0),
        engine_search_deadline_s=_float(env, "CELESTIAL_ENGINE_SEARCH_DEADLINE_S", 2.5),
        key_cache_s=_float(env, "CELESTIAL_KEY_CACHE_S", 60.0),
        usage_cache_s=_float(env, "CELESTIAL_USAGE_CACHE_S", 30.0),
        charts_per_account=_int(env, "CELESTIAL_CHARTS_PER_ACCOUNT", 1000),
        webhooks_per_account=_int(env, "CELESTIAL_WEBHOOKS_PER_ACCOUNT", 100),
        webhook_timeout_s=_float(env, "CELESTIAL_WEBHOOK_TIMEOUT_S", 10.0),
        webhook_workers=_int(env, "CELESTIAL_WEBHOOK_WORKERS", 1),
        webhook_tick_s=_float(env, "CELESTIAL_WEBHOOK_TICK_S", 5.0),
        webhook_first_retry_s=_float(env, "CELESTIAL_WEBHOOK_FIRST_RETRY_S", 30.0),
        webhook_max_retry_s=_float(env, "CELESTIAL_WEBHOOK_MAX_RETRY_S", 3600.0),
        webhook_retry_for_s=_float(env, "CELESTIAL_WEBHOOK_RETRY_FOR_S", 259200.0),
        webhook_ack_wait_s=_float(env, "CELESTIAL_WEBHOOK_ACK_WAIT_S", 30.0),
        webhook_concurrency=_int(env, "CELESTIAL_WEBHOOK_CONCURRENCY", 256),
        webhook_account_concurrency=_int(env, "CELESTIAL_WEBHOOK_ACCOUNT_CONCURRENCY", 4),
        webhook_heartbeat_path=env.get("CELESTIAL_WEBHOOK_HEARTBEAT_PATH") or None,
        log_format=env.get("CELESTIAL_LOG_FORMAT", "json"),
        log_level=env.get("CELESTIAL_LOG_LEVEL", "INFO"),
        nats_url=env.get("CELESTIAL_NATS_URL") or None,
        nats_replicas=_int(env, "CELESTIAL_NATS_REPLICAS", 1),
        admin_token=env.get("CELESTIAL_ADMIN_TOKEN") or None,
        public_url=(env.get("CELESTIAL_PUBLIC_URL") or "").rstrip("/") or None,
        session_idle_s=_float(env, "CELESTIAL_SESSION_IDLE_S", 1800.0),
        session_absolute_s=_float(env, "CELESTIAL_SESSION_ABSOLUTE_S", 43200.0),
        smtp_url=env.get("CELESTIAL_SMTP_URL") or None,
        mail_from=env.get("CELESTIAL_MAIL_FROM") or "Celestial <no-reply@localhost>",
        signup_open=env.get("CELESTIAL_SIGNUP", "off").strip().lower() == "open",
        signup_credits=_int(env, "CELESTIAL_SIGNUP_CREDITS", 100),
        mode=mode,
        dev_outbox_token=env.get("CELESTIAL_DEV_OUTBOX_TOKEN") or None,
        metrics_host=env.get("CELESTIAL_METRICS_HOST") or "127.0.0.1",
        metrics_port=_int(env, "CELESTIAL_METRICS_PORT", 0),
        metrics_base_port=_int(env, "CELESTIAL_METRICS_BASE_PORT", 0),
    )
