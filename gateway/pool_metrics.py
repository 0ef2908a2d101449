"""The service pools as the gateway's fair share sees them (``gateway/fair_share.py``): each
pool's waiting calls by lane and the wait a call arriving now can expect (gauges read at each
scrape), the time calls waited for their turn, and the calls shed before their turn."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Protocol

from gateway.fair_share import FairShare
from shared.metrics_recording import before_scrape, counter, duration_histogram, gauge, recording

#: The ``lane`` label of each fair-share lane (by its calls' expected service time), and of the
#: bounded calls' own share (positions, houses: ``gateway/paid_requests.py``).
LANE_NAMES = ("under_10ms", "under_100ms", "under_1s", "longer")
BOUNDED_LANE = "bounded"

#: Whose wait :data:`EXPECTED_WAIT` reports: an account with no call waiting yet.
NEW_ARRIVAL = ""

QUEUE_DEPTH = gauge(
    "celestial_pool_queue_depth", "Calls waiting for their turn at a service pool in this gateway.", ("pool", "lane")
)
EXPECTED_WAIT = gauge(
    "celestial_pool_expected_wait_seconds",
    "Seconds a call of an account with none waiting would wait now for its turn at the pool (the fair share's figure).",
    ("pool",),
)
QUEUE_WAIT = duration_histogram(
    "celestial_pool_queue_wait_seconds", "Seconds a granted call waited for its turn at the pool.", ("pool",)
)
SHED = counter(
    "celestial_requests_shed_total",
    "Calls refused before their turn at a pool (expected wait too long, or the turn not come), by error code.",
    ("pool", "reason"),
)


class Pools(Protocol):
    """What the gauges read of a gateway (``gateway/paid_requests.py``'s Gateway): each pool's
    fair share, and its bounded calls' own."""

    shares: Mapping[str, FairShare]
    bounded_shares: Mapping[str, FairShare]


_watched: list[weakref.ref] = []


def watch(pools: Pools) -> None:
    """Report ``pools``' queues at every scrape (the latest watched: one gateway a process)."""
    _watched[:] = [weakref.ref(pools)]


def refresh() -> None:
    """Set the queue gauges from the watched gateway's fair shares."""
    pools = _watched[0]() if _watched else None
    if pools is None:
        return
    shares, bounded_shares = pools.shares, pools.bounded_shares
    for pool, share in shares.items():
        by_lane = share.waiting_by_lane()
        for lane, name in enumerate(LANE_NAMES):
            QUEUE_DEPTH.labels(pool, name).set(by_lane.get(lane, 0))
        bounded = bounded_shares.get(pool)
        QUEUE_DEPTH.labels(pool, BOUNDED_LANE).set(bounded.waiting() if bounded is not None else 0)
        waits = [expected_wait_now_s(s) for s in (share, bounded) if s is not None]
        EXPECTED_WAIT.labels(pool).set(max(waits))


def expected_wait_now_s(share: FairShare) -> float:
    """Return the seconds a call of an account with none waiting, expected to take no time,
    would wait now at ``share``: nothing while the pool has room and nobody waits."""
    if not share.waiting():
        return 0.0
    return share.expected_wait_s(NEW_ARRIVAL, 0, 0.0)


def record_queue_wait(pool: str, waited_s: float) -> None:
    """Count one call granted at ``pool`` after ``waited_s`` seconds."""
    if not recording():
        return
    QUEUE_WAIT.labels(pool).observe(waited_s)


def record_shed(pool: str, code: str) -> None:
    """Count one call of ``pool`` refused before its turn with the error ``code``."""
    if not recording():
        return
    SHED.labels(pool, code).inc()


before_scrape(refresh)
