"""Where a delivery may go (a stub of issue 46 part 1's interface, for the delivery's tests).

The real module, written on another branch, refuses every private range and every spelling of
them; this stand-in has its names and types only, and the rule the delivery's tests need: in
development mode ``http`` and ``https`` to the loopback, in production ``https`` to public
addresses.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit


class EgressRefused(Exception):
    """A destination a delivery may not go to: ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str, suggestion: str = "Send an https URL to a public host."):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.suggestion = suggestion


@dataclass(frozen=True)
class Target:
    """A URL read: its scheme, host (no brackets), port, path with its query, and the host's
    address when the URL spells one."""

    url: str
    scheme: str
    host: str
    port: int
    path: str
    literal: ipaddress.IPv4Address | ipaddress.IPv6Address | None


Resolver = Callable[[str, int], Awaitable[list[str]]]


def read_url(url: object, development: bool) -> Target:
    """Return the URL's parts; raises EgressRefused. No DNS."""
    if not isinstance(url, str):
        raise EgressRefused("not_a_url", "The URL is not a string.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise EgressRefused("not_a_url", "The URL cannot be read.") from None
    allowed = ("http", "https") if development else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise EgressRefused("scheme", "The URL must be https.")
    try:
        literal = ipaddress.ip_address(parts.hostname)
    except ValueError:
        literal = None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(url, parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path, literal)


async def system_resolver(host: str, port: int) -> list[str]:
    """Return the addresses the system's resolver gives ``host``."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


async def checked_addresses(target: Target, development: bool, resolve: Resolver = system_resolver) -> tuple[str, ...]:
    """Return the addresses ``target`` may be delivered to; raises EgressRefused."""
    addresses = [str(target.literal)] if target.literal is not None else await resolve(target.host, target.port)
    if not addresses:
        raise EgressRefused("unresolved", "The host has no address.")
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if development and ip.is_loopback:
            continue
        if not ip.is_global:
            raise EgressRefused("private_address", "The host resolves to a private address.")
        if target.scheme != "https":
            raise EgressRefused("scheme", "The URL must be https.")
    return tuple(addresses)
