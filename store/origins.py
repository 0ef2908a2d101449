"""The origins a key may be restricted to: the grammar of an ``Origin`` a browser sends.

A key's allowed origins are matched by exact string comparison (spec, Authentication 5), so
:func:`validate_origins` refuses, when they are configured, the origins a browser can never
send, rather than keeping them as rules that never match.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from store.key_format import quoted

#: An origin as browsers serialise it (the WHATWG URL standard): ``http`` or ``https``, a
#: lowercase ASCII host (IDNs in punycode; an IP address in its canonical form), the port only
#: when it is not the scheme's default, and nothing else: no userinfo, path, trailing slash,
#: query, fragment or wildcard. Matching is exact string comparison (spec, Authentication 5), so
#: anything a browser can never send is refused when it is configured, not silently dead.
_ORIGIN_RE = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[(?P<ipv6>[0-9a-f:.]+)\])"
    r"(?::(?P<port>[1-9][0-9]{0,4}))?"
)
#: The port a browser leaves out of the Origin it sends, per scheme.
DEFAULT_PORTS = {"http": 80, "https": 443}
_MAX_PORT = 65535
#: A host whose last label is a number is an IPv4 address to a browser (``127.1``, ``0x7f.1``).
_NUMERIC_LABEL_RE = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)")


def validate_origins(origins: Iterable[str]) -> tuple[str, ...]:
    """Return ``origins`` as a de-duplicated tuple, in order, refusing what can never match.

    Raises ``ValueError`` for anything a browser never sends as an ``Origin`` (see
    ``_ORIGIN_RE``): another scheme, uppercase letters, a path or trailing slash, userinfo,
    a query, a wildcard, a non-ASCII host, the scheme's default port or a port out of range,
    an IP address not in its canonical form.
    """
    if isinstance(origins, str):
        raise ValueError("origins must be a list of strings, not one string")
    seen: list[str] = []
    for origin in origins:
        problem = _origin_problem(origin)
        if problem is not None:
            raise ValueError(f"not an origin: {quoted(origin)}; expected http(s)://host[:port] ({problem})")
        if origin not in seen:
            seen.append(origin)
    return tuple(seen)


def _origin_problem(origin: object) -> str | None:
    """Return why ``origin`` is not one a browser sends, or None when it is."""
    if not isinstance(origin, str):
        return "an origin is a string"
    if "*" in origin:
        return "wildcards are not supported; list each origin"
    if origin != origin.lower():
        return f"browsers send it lowercase: {quoted(origin.lower())}"
    if not origin.isascii():
        return "browsers send a non-ASCII host in its punycode (xn--) form"
    match = _ORIGIN_RE.fullmatch(origin)
    if match is None:
        rest = origin.partition("://")[2]
        if not origin.startswith(("http://", "https://")):
            return "only http and https origins can be configured"
        if "@" in rest:
            return "an origin has no user name or password"
        if any(mark in rest for mark in "/?#"):
            return "an origin has no path, trailing slash, query or fragment"
        return "not a host and optional port"
    scheme, host, port = match["scheme"], match["host"], match["port"]
    if port is not None and int(port) == DEFAULT_PORTS[scheme]:
        return f"browsers leave out the default port: {quoted(f'{scheme}://{host}')}"
    if port is not None and int(port) > _MAX_PORT:
        return f"a port is at most {_MAX_PORT}"
    canonical = _canonical_ip(match["ipv6"], host)
    if canonical == "":
        return "not a valid IP address"
    if canonical is not None and canonical != host:
        return f"browsers send this address as {quoted(canonical)}"
    return None


def _canonical_ip(ipv6: str | None, host: str) -> str | None:
    """Return the host as browsers write it when it is an IP address (``""`` when it is not
    a valid one), None when it is a domain name."""
    try:
        if ipv6 is not None:
            return f"[{ipaddress.IPv6Address(ipv6).compressed}]"
        if _NUMERIC_LABEL_RE.fullmatch(host.rsplit(".", 1)[-1]):
            return str(ipaddress.IPv4Address(host))
    except ValueError:
        return ""
    return None
