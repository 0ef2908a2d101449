"""How many replicas a gateway plans for behind a pool named by one DNS name (issue 50).

A Kubernetes headless Service answers its name with the address of every ready replica. The
gateway's fair share of a pool (``gateway/fair_share.py``) holds processes x queue calls and
divides each call's expected wait by the processes; planned for CELESTIAL_<SERVICE>_PROCESSES,
the most the autoscaler may run, that wait stays low until the last replica is added, and an
autoscaler scaling on it never sees what customers wait. So every CELESTIAL_POOL_RESOLVE_S
seconds the gateway resolves each such name again and plans for the distinct addresses it
answers: at most CELESTIAL_<SERVICE>_PROCESSES, at least 1.

A resolution that fails (an error, no address, no answer within
:data:`~webhooks.egress.RESOLVE_TIMEOUT_S`) keeps the last good count, logged once until one
succeeds again; before the first answer the gateway plans for CELESTIAL_<SERVICE>_PROCESSES,
as it did before it counted. A pool given as a list of addresses keeps its count, and so does
a target naming a DNS server of its own (``dns://server/name:port``): the gateway's resolver is
not that server.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

import structlog

from shared.runtime.config import SERVICE_NAMES, Settings
from shared.runtime.pool_channel import channel_target
from webhooks.egress import RESOLVE_TIMEOUT_S, Resolver

log = structlog.get_logger("celestial.gateway")

#: The channel target of a pool named by one DNS name that the gateway's resolver answers.
_NAMED_TARGET = "dns:///"


def pool_name(addresses: tuple[str, ...]) -> tuple[str, int] | None:
    """Return the (host, port) of a pool named by one DNS name (``name:port`` or
    ``dns:///name:port``), or None for a pool given as addresses or through a DNS server of
    its own."""
    try:
        target = channel_target(addresses)
    except ValueError:
        return None
    if not target.startswith(_NAMED_TARGET):
        return None
    host, colon, port = target[len(_NAMED_TARGET) :].rpartition(":")
    if not colon or not host or not port.isdigit() or _is_address(host):
        return None
    return host, int(port)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def live_replicas(answers: list[str], most: int) -> int:
    """Return how many replicas to plan for from a name's ``answers`` (address texts): the
    distinct addresses, at most ``most``, at least 1."""
    return max(1, min(most, len(set(answers))))


@dataclass
class PoolReplicas:
    """One pool named by a DNS name, and the replicas its last good answer counted."""

    service: str
    host: str
    port: int
    #: CELESTIAL_<SERVICE>_PROCESSES: the most replicas planned for.
    most: int
    #: The replicas the last good answer counted; None before any.
    count: int | None = None
    failing: bool = False

    async def resolve(self, resolve: Resolver) -> int | None:
        """Return the replicas the name answers now, or, when it does not resolve, the last
        good count (None before any); the first failure after a success (or the start) is logged."""
        try:
            async with asyncio.timeout(RESOLVE_TIMEOUT_S):
                answers = await resolve(self.host, self.port)
            if not answers:
                raise LookupError("no address")
        except Exception as error:  # any failure keeps the last count: the loop goes on
            if not self.failing:
                self.failing = True
                log.warning(
                    "pool_resolution_failed",
                    service=self.service,
                    name=self.host,
                    error=type(error).__name__,
                    detail=str(error),
                    planned=self.count if self.count is not None else self.most,
                )
            return self.count
        self.failing = False
        count = live_replicas(answers, self.most)
        if count != self.count:
            log.info("pool_replicas_planned", service=self.service, name=self.host, replicas=count)
        self.count = count
        return count


def named_pools(settings: Settings) -> list[PoolReplicas]:
    """Return the pools whose addresses are one DNS name the gateway's resolver can count."""
    pools = []
    for service in SERVICE_NAMES:
        named = pool_name(settings.service_addresses.get(service, ()))
        if named is not None:
            most = max(1, settings.service_processes.get(service, 1))
            pools.append(PoolReplicas(service, *named, most=most))
    return pools


async def follow_pools(settings: Settings, resolve: Resolver, plan_for: Callable[[str, int], None]) -> None:
    """Plan each pool named by one DNS name for the replicas the name answers
    (``plan_for(service, replicas)``), resolving them again every CELESTIAL_POOL_RESOLVE_S
    seconds until cancelled; return at once when no pool is named so."""
    pools = named_pools(settings)
    if not pools:
        return
    while True:
        counts = await asyncio.gather(*(pool.resolve(resolve) for pool in pools))
        for pool, count in zip(pools, counts):
            if count is not None:
                plan_for(pool.service, count)
        await asyncio.sleep(settings.pool_resolve_s)
