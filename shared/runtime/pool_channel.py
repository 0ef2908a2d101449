"""A channel to one service pool, as every client of the pools opens it (the gateway's
``gateway/rpc.py`` and the webhook worker's ``webhooks/events.py``): its target naming every
process, round robin over the healthy ones, a call retried on another process when one is
busy or going away, keepalive pings that find a frozen process, and the metadata a call sends
(docs/grpc.md says it for clients outside the project; ``sdk/grpc-template``'s
``celestial_grpc.channel`` is the same, a test holds the two equal).

Kernel-free: whoever calls a pool imports this, not the service runtime.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

#: The request metadata naming the call's request id in the pool's log lines (docs/grpc.md).
REQUEST_ID_METADATA_KEY = "x-request-id"

# gRPC allows at most 5 attempts of one call.
MAX_ATTEMPTS = 5


def channel_target(addresses: tuple[str, ...]) -> str:
    """Return the gRPC target naming every process of a pool: ``ipv4:a:p,b:q`` for IPv4
    literals, ``dns:///name:port`` for one DNS name (a Kubernetes headless Service, whose
    answer lists every ready replica), or a ``dns://server/name:port`` target as given (a
    DNS server of one's own)."""
    if len(addresses) == 1 and addresses[0].startswith("dns:"):
        return addresses[0]
    hosts = [address.rsplit(":", 1)[0] for address in addresses]
    try:
        for host in hosts:
            ipaddress.IPv4Address(host)
    except ValueError:
        if len(addresses) != 1:
            raise ValueError(
                f"Several addresses must be IPv4 literals; use one DNS name instead: {addresses}"
            ) from None
        return f"dns:///{addresses[0]}"
    return "ipv4:" + ",".join(addresses)


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


def channel_options(processes: int, keepalive_s: float, ping_timeout_s: float) -> list[tuple[str, Any]]:
    """Return the options of a channel to a pool of ``processes``: its service config,
    retries, reconnection backoff, and keepalive pings every ``keepalive_s`` that close the
    connection when one stays unanswered for ``ping_timeout_s``."""
    return [
        ("grpc.service_config", service_config(processes)),
        ("grpc.enable_retries", 1),
        # A DNS name (a headless Service) is resolved again when a connection closes (each
        # process closes its own at CELESTIAL_SERVICE_CONNECTION_AGE_S), at most this often:
        # gRPC's default of 30 s would keep an added replica idle up to that much longer.
        ("grpc.dns_min_time_between_resolutions_ms", 1000),
        ("grpc.initial_reconnect_backoff_ms", 200),
        ("grpc.max_reconnect_backoff_ms", 2000),
        ("grpc.keepalive_time_ms", round(keepalive_s * 1000)),
        ("grpc.keepalive_timeout_ms", round(ping_timeout_s * 1000)),
        # With grpcio 1.85 the keepalive timeout alone never fires while another ping (the
        # flow-control estimator's) is outstanding; this limit covers every ping.
        ("grpc.http2.ping_timeout_ms", round(ping_timeout_s * 1000)),
        # The health stream is the only traffic of an idle connection: ping it anyway, and
        # without the default cap of two pings between data frames.
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
    ]
