"""Where a webhook may be delivered (issue 46, part 1): only to public unicast addresses.

A subscription's URL is chosen by a stranger, and the worker POSTs to it from inside our
network: unchecked, it could aim our deliveries at the cloud's metadata service, at our own
services or at anything a private address reaches, and read the outcome back. So a URL is
read without the network first (:func:`read_url`: its scheme, its host in one canonical
spelling, its port and path), then its host's addresses are checked (:func:`checked_addresses`):
every address a name resolves to must be public (:func:`is_public`), and a delivery connects to
an address that was checked, never to the name, so a name answering otherwise by then (DNS
rebinding) changes nothing. The gateway checks at registration, the delivery at every attempt.

Every spelling of an address is read as a resolver would read it: a host that ``inet_aton``
takes is an IPv4 address (decimal ``2130706433``, octal ``0177.0.0.1``, hex ``0x7f.1``, short
``127.1``), percent-encoded and internationalised hosts are decoded (UTS #46, so full-width
digits are digits), a trailing dot is dropped; such a host never reaches DNS. Names of the
local network (``localhost``, ``*.local``, ``*.internal`` ...) are refused by name.

Development mode (``CELESTIAL_MODE`` other than production, what ``make run`` is) also takes
the loopback, over ``http`` or ``https``, for a receiver on the developer's machine; production
takes ``https`` only.

The special-purpose ranges are those of IANA's IPv4 and IPv6 Special-Purpose Address
Registries (RFC 6890 and its updates), with the multicast and reserved blocks of RFC 5771,
RFC 1112 and RFC 4291.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote, unquote_to_bytes

import idna

from store.webhook_records import MAX_URL_CHARS

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: host, port -> the host's addresses as texts (an IPv6 one may carry its %zone).
Resolver = Callable[[str, int], Awaitable[list[str]]]

HTTPS = "https"
HTTP = "http"
DEFAULT_PORTS = {HTTPS: 443, HTTP: 80}
#: Seconds the system's resolver gets to answer; a name slower than that counts as unresolvable.
RESOLVE_TIMEOUT_S = 5.0
#: What ``localhost`` is in development mode, without asking anyone (RFC 6761, section 6.3).
LOCALHOST_ADDRESSES = ("127.0.0.1", "::1")
#: The loopback development mode allows.
DEVELOPMENT_LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))

#: Names of a local network, refused before any resolution: ``localhost`` (RFC 6761) and the
#: domains under which a cluster, a cloud or a home network names its own machines.
RESERVED_NAMES = frozenset({"localhost"})
RESERVED_SUFFIXES = (".localhost", ".local", ".internal", ".home.arpa", ".localdomain")

#: Characters a path or query may not hold raw (RFC 3986 leaves them out; servers refuse them).
UNSAFE_IN_PATH = frozenset('"<>\\^`{|}')
#: Characters of an ASCII host name (underscores occur in real names, browsers take them).
_NAME_CHARS = re.compile(r"[a-z0-9_-]+")
_NUMBER_LABEL = re.compile(r"[0-9]+|0x[0-9a-f]*")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_MAX_NAME_CHARS = 253
_MAX_LABEL_CHARS = 63

SUGGESTION = "Send an https URL of a public host, e.g. https://example.com/celestial-hook."

# (network, what it is) of the IPv4 addresses never delivered to, first match named.
_REFUSED_IPV4 = tuple(
    (ipaddress.IPv4Network(network), what)
    for network, what in (
        ("0.0.0.0/8", "a 'this network' address (RFC 791)"),
        ("10.0.0.0/8", "a private address (RFC 1918)"),
        ("100.64.0.0/10", "a carrier-grade NAT address (RFC 6598)"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address (where clouds serve their metadata)"),
        ("172.16.0.0/12", "a private address (RFC 1918)"),
        ("192.0.0.0/24", "an IETF protocol assignment (RFC 6890)"),
        ("192.0.2.0/24", "a documentation address (RFC 5737)"),
        ("192.88.99.0/24", "a 6to4 relay anycast address (RFC 7526)"),
        ("192.168.0.0/16", "a private address (RFC 1918)"),
        ("198.18.0.0/15", "a benchmarking address (RFC 2544)"),
        ("198.51.100.0/24", "a documentation address (RFC 5737)"),
        ("203.0.113.0/24", "a documentation address (RFC 5737)"),
        ("224.0.0.0/4", "a multicast address (RFC 5771)"),
        ("240.0.0.0/4", "a reserved address (RFC 1112), or the broadcast address"),
    )
)
#: IPv6's global unicast (RFC 4291): no other IPv6 address is delivered to but NAT64's.
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the last 32 bits are an IPv4 address
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")  # RFC 3056
_TEREDO = ipaddress.IPv6Network("2001::/32")  # RFC 4380
# (network, what it is) of the IPv6 addresses never delivered to, first match named; any
# address outside global unicast is refused as reserved even when no entry names it.
_REFUSED_IPV6 = tuple(
    (ipaddress.IPv6Network(network), what)
    for network, what in (
        ("::/128", "the unspecified address"),
        ("::1/128", "the loopback address"),
        ("::ffff:0:0/96", "an IPv4-mapped address"),
        ("::ffff:0:0:0/96", "an IPv4-translated address (RFC 2765)"),
        ("::/96", "an IPv4-compatible address"),
        ("64:ff9b:1::/48", "a local-use NAT64 address (RFC 8215)"),
        ("100::/64", "a discard-only address (RFC 6666)"),
        ("2001:2::/48", "a benchmarking address (RFC 5180)"),
        ("2001:10::/28", "a deprecated ORCHID address (RFC 4843)"),
        ("2001:db8::/32", "a documentation address (RFC 3849)"),
        ("3fff::/20", "a documentation address (RFC 9637)"),
        ("fc00::/7", "a unique-local address (RFC 4193)"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address (RFC 3879)"),
        ("ff00::/8", "a multicast address"),
    )
)


class EgressRefused(Exception):
    """A URL a webhook may not be delivered to. ``rule``: a short snake_case name of the rule it
    breaks (e.g. "scheme", "credentials", "unreadable_url", "private_address", "unresolvable",
    "reserved_name" ...); ``message``: one sentence naming the rule and the address or part at
    fault (never a socket error); ``suggestion``: what to send instead."""

    def __init__(self, rule: str, message: str, suggestion: str):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.suggestion = suggestion


@dataclass(frozen=True)
class Target:
    """What a URL names, read without the network: ``scheme`` (https, or http), ``host`` (ASCII,
    lower-case, IDN as punycode, no trailing dot; an IP literal in its canonical form, IPv6
    without brackets), ``port`` (explicit or the scheme's), ``path`` (path and query as sent on
    the request line, at least "/"), ``literal`` (the ipaddress object when the host is an IP
    literal in any spelling, else None) and ``url`` (the URL as given)."""

    scheme: str
    host: str
    port: int
    path: str
    literal: Address | None
    url: str


def _refused(rule: str, message: str, suggestion: str = SUGGESTION) -> EgressRefused:
    return EgressRefused(rule, message, suggestion)


def _shown(text: str, limit: int = 80) -> str:
    """Return ``text`` short enough to quote in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_unsafe_character(character: str) -> bool:
    # Unicode's C (control, format, unassigned, private use) and Z (spaces, separators)
    # categories: what a request line cannot carry, or what would show one host and be another.
    return unicodedata.category(character)[0] in "CZ"


# --- reading a URL --------------------------------------------------------------------------------


def read_url(url: object, development: bool) -> Target:
    """Return the :class:`Target` ``url`` names, read without the network; raise
    :class:`EgressRefused` when no webhook may be delivered to it whatever its host resolves
    to: not an absolute http(s) URL of at most :data:`MAX_URL_CHARS` characters, a space or
    a control character anywhere, credentials, a fragment, an unsafe character in the path,
    a port outside 1-65535, a host no resolver could read or a reserved name, an IP literal
    that is not public (but the loopback in development mode), http outside development's loopback."""
    if not isinstance(url, str) or not url:
        raise _refused("unreadable_url", "The url must be a non-empty string.")
    if len(url) > MAX_URL_CHARS:
        raise _refused(
            "too_long", f"The url has {len(url)} characters, more than the {MAX_URL_CHARS} a webhook's URL may have."
        )
    unsafe = next((c for c in url if _is_unsafe_character(c)), None)
    if unsafe is not None:
        raise _refused(
            "unsafe_character",
            f"The url holds U+{ord(unsafe):04X} ({unicodedata.name(unsafe, 'a control character')}); a URL may hold "
            "no space or control character.",
            "Percent-encode spaces and control characters in the path (%20), and send the host as it is spelled.",
        )
    if "\\" in url:
        raise _refused(
            "unsafe_character",
            "The url holds a backslash, which clients read as a slash or as part of the host depending on who reads "
            "it.",
            "Write every slash as '/' and percent-encode a backslash in the path (%5C).",
        )
    matched = _SCHEME.match(url)
    scheme = matched.group(1).lower() if matched else ""
    if scheme not in DEFAULT_PORTS:
        raise _refused(
            "scheme", f"The url's scheme is {_shown(scheme) or 'missing'}: a webhook is delivered over https."
        )
    rest = url[matched.end() :]
    if not rest.startswith("//"):
        raise _refused("unreadable_url", f"The url must be absolute: {scheme}:// then the host.")
    rest = rest[2:]
    if "#" in rest:
        raise _refused(
            "fragment",
            "The url has a fragment (#...), which is never sent to the receiver.",
            "Leave out the # and what follows it.",
        )
    authority_end = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    authority, path = rest[:authority_end], rest[authority_end:]
    if "@" in authority:
        raise _refused(
            "credentials",
            "The url carries credentials (user:password@): a webhook authenticates by its signature.",
            "Leave the credentials out of the URL; verify the delivery's signature with the subscription's secret.",
        )
    host_text, port_text = _split_authority(authority)
    host, literal = _read_host(host_text)
    port = _read_port(port_text, scheme)
    target = Target(scheme, host, port, _request_path(path), literal, url)
    _check_name(target, development)
    if literal is not None:
        _check_address(literal, target, development)
    return target


def _split_authority(authority: str) -> tuple[str, str | None]:
    """Return (host as written, port as written or None) of a URL's authority."""
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise _refused("unreadable_url", f"The url's host {_shown(authority)} opens a bracket it does not close.")
        after = authority[end + 1 :]
        if after and not after.startswith(":"):
            raise _refused(
                "unreadable_url", f"The url's authority {_shown(authority)} has {_shown(after)} after its IPv6 address."
            )
        return authority[: end + 1], after[1:] if after else None
    host, colon, port = authority.partition(":")
    if ":" in port:
        raise _refused(
            "unreadable_url",
            f"The url's host {_shown(authority)} has several colons: an IPv6 address goes in brackets.",
            "Write an IPv6 address in brackets, e.g. https://[2001:4860:4860::8888]/hook.",
        )
    return host, port if colon else None


def _read_port(text: str | None, scheme: str) -> int:
    """Return the port written, or the scheme's when none is (an empty port is the scheme's, as
    browsers read it)."""
    if not text:
        return DEFAULT_PORTS[scheme]
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise _refused("port", f"The url's port {_shown(text)} is not a number from 1 to 65535.")
    return int(text)


def _request_path(path: str) -> str:
    """Return the path and query as the request line carries them: at least "/", non-ASCII
    characters percent-encoded as UTF-8."""
    unsafe = sorted(set(path) & UNSAFE_IN_PATH)
    if unsafe:
        raise _refused(
            "unsafe_character",
            f"The url's path or query holds {' '.join(unsafe)}, which a request line may not carry raw.",
            "Percent-encode those characters in the path and query (e.g. %22 for a double quote).",
        )
    if not path.startswith("/"):
        path = "/" + path
    return "".join(c if c.isascii() else quote(c, safe="") for c in path)


def _read_host(written: str) -> tuple[str, Address | None]:
    """Return (canonical host, its address when it is an IP literal) of the host as written."""
    if not written:
        raise _refused("empty_host", "The url names no host.")
    if written.startswith("["):
        return _read_ipv6(written[1:-1])
    host = _decoded(written)
    if not host.isascii():
        # UTS #46 maps what a browser maps (full-width digits and dots, case) before punycode.
        host = _idna_mapped(host, written)
    host = host.lower().removesuffix(".")
    if not host.isascii():
        host = _punycode(host, written)
    labels = host.split(".")
    if not host or len(host) > _MAX_NAME_CHARS or any(not label or len(label) > _MAX_LABEL_CHARS for label in labels):
        raise _refused(
            "invalid_host", f"The url's host {_shown(written)} is not a host name: an empty or over-long label."
        )
    if _NUMBER_LABEL.fullmatch(labels[-1]):
        # A resolver reads a name ending in a number as an IPv4 address (inet_aton; the URL
        # standard likewise): such a host is an address or nothing, and never goes to DNS.
        address = ipv4_of(host)
        if address is None:
            raise _refused(
                "invalid_host", f"The url's host {_shown(written)} reads as an IPv4 address, and is not one."
            )
        return str(address), address
    if not all(_NAME_CHARS.fullmatch(label) for label in labels):
        raise _refused("invalid_host", f"The url's host {_shown(written)} holds characters no host name has.")
    return host, None


def _idna_mapped(host: str, written: str) -> str:
    try:
        return idna.uts46_remap(host, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError):
        raise _refused(
            "invalid_host", f"The url's host {_shown(written)} is not a valid internationalised domain name."
        ) from None


def _punycode(host: str, written: str) -> str:
    try:
        return idna.encode(host, uts46=False).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        raise _refused(
            "invalid_host", f"The url's host {_shown(written)} is not a valid internationalised domain name."
        ) from None


def _decoded(written: str) -> str:
    """Return a host with its percent-encoding decoded (as UTF-8)."""
    if "%" not in written:
        return written
    try:
        host = unquote_to_bytes(written).decode("utf-8")
    except UnicodeDecodeError:
        raise _refused(
            "invalid_host", f"The url's host {_shown(written)} percent-encodes bytes that are not UTF-8."
        ) from None
    if "%" in host or any(_is_unsafe_character(c) for c in host):
        raise _refused("invalid_host", f"The url's host {_shown(written)} decodes to characters no host name has.")
    return host


def _read_ipv6(written: str) -> tuple[str, Address]:
    if "%" in written:
        raise _refused(
            "zone_id",
            f"The url's IPv6 host [{_shown(written)}] names a zone (%...), an interface of the machine that sends.",
        )
    try:
        address = ipaddress.IPv6Address(written)
    except ValueError:
        raise _refused("invalid_host", f"The url's host [{_shown(written)}] is not an IPv6 address.") from None
    return str(address), address


def ipv4_of(host: str) -> ipaddress.IPv4Address | None:
    """Return the IPv4 address ``inet_aton`` reads in ``host`` (one to four parts, each
    decimal, octal with a leading 0 or hex with 0x; the last part fills the remaining bytes),
    or None when it reads none."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_inet_number(part) for part in parts]
    if any(number is None for number in numbers):
        return None
    *leading, last = numbers
    if any(number > 0xFF for number in leading) or last >= 1 << (8 * (4 - len(leading))):
        return None
    value = last
    for index, number in enumerate(leading):
        value |= number << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _inet_number(part: str) -> int | None:
    if part.startswith(("0x", "0X")):
        digits, base = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    try:
        return int(digits, base) if digits and digits.isascii() and digits.isalnum() else None
    except ValueError:
        return None


# --- the rules --------------------------------------------------------------------------------------


def _check_name(target: Target, development: bool) -> None:
    """Raise unless ``target``'s scheme and name may be delivered to in this mode."""
    host = target.host
    loopback = host == "localhost" or (target.literal is not None and _is_development_loopback(target.literal))
    if target.scheme == HTTP and not (development and loopback):
        why = (
            "development mode takes http only to the loopback"
            if development
            else "production mode delivers over https only"
        )
        raise _refused("scheme", f"The url is http to {_shown(host)}: {why}.")
    if target.literal is not None or (development and host == "localhost"):
        return
    if host in RESERVED_NAMES or host.endswith(RESERVED_SUFFIXES) or "." not in host:
        raise _refused(
            "reserved_name", f"The url's host {_shown(host)} names a machine of a local network, not a public host."
        )


def _is_development_loopback(address: Address) -> bool:
    return any(address in network for network in DEVELOPMENT_LOOPBACK)


def why_not_public(address: Address) -> str | None:
    """Return what ``address`` is when no webhook may be delivered to it (e.g. "a private
    address (RFC 1918)"), or None when it is a public unicast address."""
    if isinstance(address, ipaddress.IPv4Address):
        return next((what for network, what in _REFUSED_IPV4 if address in network), None)
    refused = next((what for network, what in _REFUSED_IPV6 if address in network), None)
    if refused is not None:
        return refused
    if address.scope_id:
        return "an address with a zone, an interface of the machine that sends"
    if address in _NAT64:
        return _embedding("a NAT64 address", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address in _SIX_TO_FOUR:
        return _embedding("a 6to4 address", address.sixtofour)
    if address in _TEREDO:
        server, client = address.teredo
        return _embedding("a Teredo address", server) or _embedding("a Teredo address", client)
    if address not in _GLOBAL_UNICAST:
        return "a reserved address (outside IPv6's global unicast 2000::/3)"
    return None


def _embedding(kind: str, embedded: ipaddress.IPv4Address) -> str | None:
    what = why_not_public(embedded)
    return None if what is None else f"{kind} embedding {embedded}, {what}"


def is_public(address: Address) -> bool:
    """Return whether ``address`` is a public unicast address, one a webhook may be delivered to."""
    return why_not_public(address) is None


def _check_address(address: Address, target: Target, development: bool) -> None:
    """Raise unless a delivery to ``target`` may connect to ``address`` in this mode."""
    if development and _is_development_loopback(address):
        return
    what = why_not_public(address)
    if what is None:
        return
    named = f"is {address}" if target.literal is not None else f"{target.host} resolves to {address}"
    raise _refused(
        "private_address", f"The url's host {named}, {what}: a webhook is delivered only to public addresses."
    )


# --- resolving ---------------------------------------------------------------------------------------


async def system_resolver(host: str, port: int) -> list[str]:
    """Return the addresses (texts) the system's resolver gives ``host`` for TCP to ``port``,
    within :data:`RESOLVE_TIMEOUT_S` seconds (TimeoutError past them; socket.gaierror for none)."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(RESOLVE_TIMEOUT_S):
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return [info[4][0] for info in infos]


async def checked_addresses(target: Target, development: bool, resolve: Resolver = system_resolver) -> tuple[str, ...]:
    """Return the addresses a delivery to ``target`` may connect to (each checked); raises
    EgressRefused when the name does not resolve or ANY of its addresses is not allowed."""
    if target.literal is not None:
        _check_address(target.literal, target, development)
        return (str(target.literal),)
    if development and target.host == "localhost":
        return LOCALHOST_ADDRESSES
    try:
        answers = await resolve(target.host, target.port)
    except (OSError, UnicodeError):
        answers = []
    if not answers:
        raise _refused(
            "unresolvable",
            f"The url's host {_shown(target.host)} has no address.",
            "Check the host's spelling and its DNS records, then send the URL again.",
        )
    addresses = []
    for answer in answers:
        try:
            address = ipaddress.ip_address(answer)
        except ValueError:
            raise _refused(
                "unresolvable",
                f"The url's host {_shown(target.host)} resolves to {_shown(str(answer))}, which is not an address.",
            ) from None
        _check_address(address, target, development)
        addresses.append(str(address))
    return tuple(dict.fromkeys(addresses))
