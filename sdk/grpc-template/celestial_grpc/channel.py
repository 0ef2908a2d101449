"""The options of a channel to a pool, as the gateway's own (the server's
shared/runtime/pool_channel.py; a test holds the two equal): round robin over the processes
that answer their health check SERVING, a call retried on another process when one is full
(RESOURCE_EXHAUSTED) or going away (UNAVAILABLE), and keepalive pings that find a process
that stopped answering."""

from __future__ import annotations

import json
from typing import Any

# gRPC allows at most 5 attempts of one call.
MAX_ATTEMPTS = 5


def service_config(processes: int) -> str:
    """Return the channel's service config: round robin over healthy processes, and a retry
    on another process (as many attempts as processes, 2 to 5) when one is busy or going away.

    Going away is UNAVAILABLE, or CANCELLED: gRPC's own server shutdown answers CANCELLED to a
    call it received but had not yet handed to the service (grpc/grpc#41785), and a process
    cancels the calls it still holds when its shutdown grace ends. A client's own
    cancellation is never retried, and a pool never cancels a call otherwise."""
    return json.dumps(
        {
            "loadBalancingConfig": [{"round_robin": {}}],
            "healthCheckConfig": {"serviceName": ""},
            "methodConfig": [
                {
                    "name": [{}],
                    "retryPolicy": {
                        "maxAttempts": min(MAX_ATTEMPTS, max(2, processes)),
                        "initialBackoff": "0.005s",
                        "maxBackoff": "0.05s",
                        "backoffMultiplier": 2,
                        "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "CANCELLED"],
                    },
                }
            ],
        }
    )


def channel_options(processes: int = 2, keepalive_s: float = 1.0, ping_timeout_s: float = 2.0) -> list[tuple[str, Any]]:
    """Return the options of a channel to a pool of ``processes``: its service config,
    retries, reconnection backoff, and keepalive pings every ``keepalive_s`` seconds that
    close the connection when one stays unanswered for ``ping_timeout_s`` seconds (the
    gateway's defaults; a pool accepts pings at any rate)."""
    return [
        ("grpc.service_config", service_config(processes)),
        ("grpc.enable_retries", 1),
        # A DNS name (a headless Service) is resolved again when a connection closes (each
        # process closes its own every 30 s by default), at most this often.
        ("grpc.dns_min_time_between_resolutions_ms", 1000),
        ("grpc.initial_reconnect_backoff_ms", 200),
        ("grpc.max_reconnect_backoff_ms", 2000),
        ("grpc.keepalive_time_ms", round(keepalive_s * 1000)),
        ("grpc.keepalive_timeout_ms", round(ping_timeout_s * 1000)),
        # With grpcio 1.85 the keepalive timeout alone never fires while another ping is
        # outstanding; this limit covers every ping.
        ("grpc.http2.ping_timeout_ms", round(ping_timeout_s * 1000)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
    ]
