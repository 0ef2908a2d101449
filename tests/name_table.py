"""A resolver for the tests (``webhooks.egress.Resolver``): names answered from a table, every
question recorded, so that no test sends a DNS query.

A literal is never a question for a resolver (webhooks/egress.py reads it as an address), so
the table fails the test that asks it one: an AssertionError, which no code under test catches.
"""

from __future__ import annotations

import ipaddress
import re
import socket

#: Public names the tests subscribe, with an address each (example.com's A record, RFC 2606's
#: domain as IANA serves it): never connected to, only checked.
PUBLIC_NAMES = {"example.com": ["93.184.215.14"]}

#: What a resolver takes for an IPv4 address: numbers (decimal, octal, 0x-hex) between dots.
_NUMBER = r"(?:[0-9]+|0x[0-9a-f]*)"
_LITERAL = re.compile(rf"{_NUMBER}(?:\.{_NUMBER})*\.?", re.IGNORECASE)


class NameTable:
    """A resolver answering ``names`` (host -> address texts); ``asked`` holds each host asked."""

    def __init__(self, names: dict[str, list[str]] | None = None):
        self.names = dict(PUBLIC_NAMES if names is None else names)
        self.asked: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if ":" in host or _LITERAL.fullmatch(host) or _is_address(host):
            raise AssertionError(f"a resolver was asked for the literal {host!r}")
        if host not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(self.names[host])


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
