"""webhooks/egress.py: a webhook is delivered only to public unicast addresses, whatever the
spelling of the URL, and development mode adds the loopback and nothing else.

No test here sends a packet: names are answered by a :class:`~tests.name_table.NameTable`,
which fails the test when it is asked for a literal (a literal never reaches a resolver).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

import pytest

from store.webhook_records import MAX_URL_CHARS
from tests.name_table import NameTable
from webhooks.egress import (
    LOCALHOST_ADDRESSES,
    EgressRefused,
    checked_addresses,
    ipv4_of,
    is_public,
    read_url,
    system_resolver,
    why_not_public,
)

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"
NAMES = {
    "example.com": [PUBLIC_V4, PUBLIC_V6, PUBLIC_V4],
    "intranet.example.net": ["10.0.0.5"],
    "metadata.example.net": ["169.254.169.254"],
    "half.example.net": [PUBLIC_V4, "192.168.1.1"],
    "ula.example.net": ["fd00::1"],
    "mapped.example.net": ["::ffff:127.0.0.1"],
    "zone.example.net": ["fe80::1%eth0"],
    "loop.example.net": ["127.0.0.1"],
    "nothing.example.net": [],
    "garbage.example.net": ["not-an-address"],
}


def refusal(url: object, development: bool = False, names: NameTable | None = None) -> EgressRefused | None:
    """Return why a delivery to ``url`` is refused (read, then every address checked), or None."""
    table = names if names is not None else NameTable(NAMES)
    try:
        asyncio.run(checked_addresses(read_url(url, development), development, table))
    except EgressRefused as refused:
        return refused
    return None


def addresses(url: str, development: bool = False, names: NameTable | None = None) -> tuple[str, ...]:
    table = names if names is not None else NameTable(NAMES)
    return asyncio.run(checked_addresses(read_url(url, development), development, table))


#: Hostile URLs and the rule each breaks in production mode.
HOSTILE = [
    # The examples.
    ("https://169.254.169.254/latest/meta-data/", "private_address"),
    ("https://10.0.0.1/", "private_address"),
    ("https://[fd00::1]/", "private_address"),
    ("https://2130706433/", "private_address"),
    ("https://0177.0.0.1/", "private_address"),
    ("https://localhost/", "reserved_name"),
    # Every spelling of an IPv4 address inet_aton reads.
    ("https://0x7f.1/", "private_address"),
    ("https://0x7f000001/", "private_address"),
    ("https://0X7F.0.0.1/", "private_address"),
    ("https://127.1/", "private_address"),
    ("https://10.1/", "private_address"),
    ("https://0x0a.0.0x0.01/", "private_address"),
    ("https://0/", "private_address"),
    ("https://127.0.0.1./", "private_address"),
    ("https://１２７．０．０．１/", "private_address"),
    ("https://%31%32%37.0.0.1/", "private_address"),
    # Each refused IPv4 range.
    ("https://0.0.0.0/", "private_address"),
    ("https://100.64.0.1/", "private_address"),
    ("https://172.16.0.1/", "private_address"),
    ("https://192.168.1.1/", "private_address"),
    ("https://192.0.0.8/", "private_address"),
    ("https://192.0.2.1/", "private_address"),
    ("https://198.51.100.7/", "private_address"),
    ("https://203.0.113.9/", "private_address"),
    ("https://198.18.0.1/", "private_address"),
    ("https://224.0.0.1/", "private_address"),
    ("https://240.0.0.1/", "private_address"),
    ("https://255.255.255.255/", "private_address"),
    # IPv6 forms.
    ("https://[::1]/", "private_address"),
    ("https://[::]/", "private_address"),
    ("https://[0:0:0:0:0:0:0:1]/", "private_address"),
    ("https://[::ffff:127.0.0.1]/", "private_address"),
    ("https://[::ffff:7f00:1]/", "private_address"),
    ("https://[::ffff:8.8.8.8]/", "private_address"),
    ("https://[::127.0.0.1]/", "private_address"),
    ("https://[64:ff9b::a00:1]/", "private_address"),
    ("https://[64:ff9b:1::1]/", "private_address"),
    ("https://[2002:a9fe:a9fe::1]/", "private_address"),
    ("https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "private_address"),
    ("https://[fe80::1]/", "private_address"),
    ("https://[fe80::1%25eth0]/", "zone_id"),
    ("https://[fec0::1]/", "private_address"),
    ("https://[fc00::1]/", "private_address"),
    ("https://[ff02::1]/", "private_address"),
    ("https://[2001:db8::1]/", "private_address"),
    ("https://[3fff::1]/", "private_address"),
    ("https://[100::1]/", "private_address"),
    ("https://[4000::1]/", "private_address"),
    # Names of a local network, in any spelling.
    ("https://localhost./", "reserved_name"),
    ("https://LOCALHOST/", "reserved_name"),
    ("https://ｌｏｃａｌｈｏｓｔ/", "reserved_name"),
    ("https://%6c%6f%63%61%6c%68%6f%73%74/", "reserved_name"),
    ("https://api.localhost/", "reserved_name"),
    ("https://printer.local/", "reserved_name"),
    ("https://metadata.google.internal/computeMetadata/v1/", "reserved_name"),
    ("https://router.home.arpa/", "reserved_name"),
    ("https://kubernetes/", "reserved_name"),
    # Names resolving to refused addresses (the injected resolver).
    ("https://intranet.example.net/", "private_address"),
    ("https://metadata.example.net/", "private_address"),
    ("https://half.example.net/", "private_address"),
    ("https://ula.example.net/", "private_address"),
    ("https://mapped.example.net/", "private_address"),
    ("https://zone.example.net/", "private_address"),
    ("https://loop.example.net/", "private_address"),
    ("https://unknown.example.net/", "unresolvable"),
    ("https://nothing.example.net/", "unresolvable"),
    ("https://garbage.example.net/", "unresolvable"),
    # URLs that can never be delivered.
    ("http://example.com/", "scheme"),
    ("http://127.0.0.1:9/h", "scheme"),
    ("ftp://example.com/", "scheme"),
    ("example.com/hook", "scheme"),
    ("https:example.com", "unreadable_url"),
    ("https://[::1/", "unreadable_url"),
    ("https://::1/", "unreadable_url"),
    ("https://[::1]x/", "unreadable_url"),
    ("", "unreadable_url"),
    (42, "unreadable_url"),
    (None, "unreadable_url"),
    ("https://user:pw@example.com/", "credentials"),
    ("https://example.com@10.0.0.1/", "credentials"),
    ("https://example.com/h#frag", "fragment"),
    ("https://", "empty_host"),
    ("https:///path", "empty_host"),
    ("https://:443/", "empty_host"),
    ("https://example.com:0/", "port"),
    ("https://example.com:65536/", "port"),
    ("https://example.com:8o/", "port"),
    ("https://example.com:-1/", "port"),
    ("https://exa mple.com/", "unsafe_character"),
    ("https://example.com/a b", "unsafe_character"),
    ("https://example.com/\t", "unsafe_character"),
    ("https://example.com/\r\nX-Injected: 1", "unsafe_character"),
    ("https://example.com\u202e/", "unsafe_character"),
    ("https://example.com/\u3000", "unsafe_character"),
    ("https://example.com\\@10.0.0.1/", "unsafe_character"),
    *((f"https://example.com/a{c}b", "unsafe_character") for c in '"<>^`{|}'),
    ("https://example.com/?q=<script>", "unsafe_character"),
    ("https://example.com/" + "a" * MAX_URL_CHARS, "too_long"),
    ("https://1.2.3.4.5/", "invalid_host"),
    ("https://256.256.256.256/", "invalid_host"),
    ("https://0x/", "invalid_host"),
    ("https://08.0.0.1/", "invalid_host"),
    ("https://a..b/", "invalid_host"),
    ("https://exa%3Cmple.com/", "invalid_host"),
    ("https://exa%ffmple.com/", "invalid_host"),
    ("https://[1.2.3.4]/", "invalid_host"),
    ("https://" + "a" * 64 + ".com/", "invalid_host"),
]


@pytest.mark.parametrize("url, rule", HOSTILE, ids=[str(url)[:60] for url, _ in HOSTILE])
def test_a_hostile_url_is_refused_in_production_naming_the_rule(url, rule):
    refused = refusal(url)
    assert refused is not None and refused.rule == rule, (url, refused and (refused.rule, refused.message))
    assert refused.message.endswith(".") and refused.suggestion.endswith(".")


def test_the_table_holds_at_least_forty_hostile_urls_and_every_rule():
    assert len(HOSTILE) >= 40
    assert {rule for _, rule in HOSTILE} == {
        "private_address",
        "reserved_name",
        "unresolvable",
        "scheme",
        "unreadable_url",
        "credentials",
        "fragment",
        "empty_host",
        "port",
        "unsafe_character",
        "too_long",
        "invalid_host",
        "zone_id",
    }


#: The hostile URLs naming the loopback (in any spelling), which development mode takes.
LOOPBACK = {
    "https://2130706433/",
    "https://0177.0.0.1/",
    "https://localhost/",
    "https://0x7f.1/",
    "https://0x7f000001/",
    "https://0X7F.0.0.1/",
    "https://127.1/",
    "https://127.0.0.1./",
    "https://１２７．０．０．１/",
    "https://%31%32%37.0.0.1/",
    "https://[::1]/",
    "https://[0:0:0:0:0:0:0:1]/",
    "https://localhost./",
    "https://LOCALHOST/",
    "https://ｌｏｃａｌｈｏｓｔ/",
    "https://%6c%6f%63%61%6c%68%6f%73%74/",
    "https://loop.example.net/",
    "http://127.0.0.1:9/h",
}


@pytest.mark.parametrize("url", [url for url, _ in HOSTILE], ids=[str(url)[:60] for url, _ in HOSTILE])
def test_every_hostile_url_but_the_loopbacks_is_refused_in_development_too(url):
    assert (refusal(url, development=True) is None) == (url in LOOPBACK)


@pytest.mark.parametrize(
    "url",
    [
        "https://2130706433/",
        "https://0177.0.0.1/",
        "https://0x7f.1/",
        "https://127.1/",
        "https://[::1]/",
        "https://[::ffff:127.0.0.1]/",
        "https://%31%32%37.0.0.1/",
        "https://１２７．０．０．１/",
        "https://10.1/",
    ],
)
def test_a_literal_is_never_asked_of_a_resolver(url):
    table = NameTable(NAMES)  # it fails the test when asked for a literal
    refusal(url, names=table)
    refusal(url, development=True, names=table)
    assert table.asked == []


def test_a_private_message_names_the_address_and_what_it_is():
    assert refusal("https://0177.0.0.1/").message == (
        "The url's host is 127.0.0.1, a loopback address: a webhook is delivered only to public addresses."
    )
    assert (
        "intranet.example.net resolves to 10.0.0.5, a private address (RFC 1918)"
        in refusal("https://intranet.example.net/").message
    )
    assert "192.168.1.1" in refusal("https://half.example.net/").message


def test_an_unresolvable_message_carries_no_socket_error():
    refused = refusal("https://unknown.example.net/")
    assert refused.message == "The url's host unknown.example.net has no address."
    assert "Name or service" not in refused.message and "errno" not in refused.message.lower()


# --- accepted ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://example.com/hook", (PUBLIC_V4, PUBLIC_V6)),
        ("https://EXAMPLE.com./hook", (PUBLIC_V4, PUBLIC_V6)),
        (f"https://{PUBLIC_V4}/hook", (PUBLIC_V4,)),
        ("https://1.1.1.1:8443/h?x=1", ("1.1.1.1",)),
        ("https://16843009/", ("1.1.1.1",)),
        ("https://[2606:4700:4700::1111]/", ("2606:4700:4700::1111",)),
        ("https://[64:ff9b::808:808]/", ("64:ff9b::808:808",)),
        ("https://[2002:808:808::1]/", ("2002:808:808::1",)),
    ],
)
def test_a_public_address_or_a_name_resolving_only_to_public_ones_is_taken(url, expected):
    assert refusal(url) is None
    assert addresses(url) == expected


def test_a_target_names_its_host_in_one_canonical_spelling():
    target = read_url("HTTPS://Example.COM.:08443/a/ü?q=é&r", development=False)
    assert (target.scheme, target.host, target.port, target.path, target.literal) == (
        "https",
        "example.com",
        8443,
        "/a/%C3%BC?q=%C3%A9&r",
        None,
    )
    assert target.url == "HTTPS://Example.COM.:08443/a/ü?q=é&r"
    assert read_url("https://bücher.de/", False).host == "xn--bcher-kva.de"
    assert read_url("https://faß.de/", False).host == "xn--fa-hia.de"  # UTS #46 non-transitional, as browsers
    six = read_url("https://[2606:4700:4700:0:0:0:0:1111]?x", False)
    assert (six.host, six.port, six.path, six.literal) == (
        "2606:4700:4700::1111",
        443,
        "/?x",
        ipaddress.ip_address("2606:4700:4700::1111"),
    )
    four = read_url("https://0x01.0x01.0x01.0x01:/", False)
    assert (four.host, four.port, four.literal) == ("1.1.1.1", 443, ipaddress.ip_address("1.1.1.1"))
    assert read_url("http://localhost:9", development=True).path == "/"


# --- development mode ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("http://127.0.0.1:9/h", ("127.0.0.1",)),
        ("http://127.0.0.2/h", ("127.0.0.2",)),
        ("http://0x7f.1:9/h", ("127.0.0.1",)),
        ("http://[::1]:9/h", ("::1",)),
        ("https://[::1]/h", ("::1",)),
        ("http://localhost:9/h", LOCALHOST_ADDRESSES),
        ("https://localhost./h", LOCALHOST_ADDRESSES),
        ("https://loop.example.net/h", ("127.0.0.1",)),
        ("https://example.com/h", (PUBLIC_V4, PUBLIC_V6)),
    ],
)
def test_development_mode_takes_the_loopback(url, expected):
    assert addresses(url, development=True) == expected


def test_development_mode_answers_localhost_without_a_resolver():
    table = NameTable(NAMES)
    assert addresses("http://localhost:9/h", development=True, names=table) == LOCALHOST_ADDRESSES
    assert table.asked == []


@pytest.mark.parametrize(
    "url, rule",
    [
        ("https://10.0.0.1/", "private_address"),
        ("https://169.254.169.254/", "private_address"),
        ("https://[::ffff:127.0.0.1]/", "private_address"),
        ("https://[fd00::1]/", "private_address"),
        ("https://intranet.example.net/", "private_address"),
        ("https://api.localhost/", "reserved_name"),
        ("http://10.0.0.1/", "scheme"),
        ("http://example.com/", "scheme"),
        ("http://loop.example.net/", "scheme"),
    ],
)
def test_development_mode_refuses_every_other_private_address_and_http_elsewhere(url, rule):
    assert refusal(url, development=True).rule == rule


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9/h", "https://[::1]/h", "https://localhost/h", "https://loop.example.net/h"]
)
def test_production_mode_refuses_the_loopback(url):
    assert refusal(url, development=False) is not None


# --- resolving ------------------------------------------------------------------------------------------


def test_a_name_answering_a_private_address_later_is_refused_then():
    table = NameTable({"rebind.example.net": [PUBLIC_V4]})
    target = read_url("https://rebind.example.net/h", development=False)
    assert asyncio.run(checked_addresses(target, False, table)) == (PUBLIC_V4,)
    table.names["rebind.example.net"] = ["169.254.169.254"]
    with pytest.raises(EgressRefused) as refused:
        asyncio.run(checked_addresses(target, False, table))
    assert refused.value.rule == "private_address"
    assert table.asked == ["rebind.example.net", "rebind.example.net"]


def test_a_name_is_asked_with_the_urls_port():
    seen = []

    async def resolve(host: str, port: int) -> list[str]:
        seen.append((host, port))
        return [PUBLIC_V4]

    asyncio.run(checked_addresses(read_url("https://example.com:8443/h", False), False, resolve))
    assert seen == [("example.com", 8443)]


def test_a_resolver_that_fails_makes_the_host_unresolvable():
    async def failing(host: str, port: int) -> list[str]:
        raise TimeoutError("no answer")

    with pytest.raises(EgressRefused) as refused:
        asyncio.run(checked_addresses(read_url("https://example.com/h", False), False, failing))
    assert refused.value.rule == "unresolvable" and "no answer" not in refused.value.message


def test_the_system_resolver_answers_address_texts():
    # A numeric host is answered by getaddrinfo itself: no packet leaves the machine.
    assert asyncio.run(system_resolver("127.0.0.1", 443)) == ["127.0.0.1"]


# --- addresses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "2130706433",
        "0177.0.0.1",
        "0x7f.1",
        "127.1",
        "10.1",
        "0x0a.0.0x0.01",
        "0",
        "00",
        "0X7F.1",
        "0x7fffffff",
        "017777777777",
        "0xffffffff",
        "4294967296",
        "1.16777216",
        "1.2.65536",
        "1.2.3.256",
        "08",
        "0x",
        "0x.1",
        "1..2",
        "1.2.3.4.5",
        "00000000000000000000127.0.0.1",
        "0x00000000000000000000000007f.1",
        "1.0x",
        "099",
    ],
)
def test_an_ipv4_spelling_is_read_as_inet_aton_reads_it(text):
    try:
        expected = ipaddress.IPv4Address(socket.inet_aton(text))
    except OSError:
        expected = None
    assert ipv4_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        PUBLIC_V4,
        "1.1.1.1",
        "8.8.8.8",
        "100.63.255.255",
        "100.128.0.0",
        "172.32.0.1",
        "192.0.1.255",
        "198.20.0.1",
        "223.255.255.255",
        PUBLIC_V6,
        "2606:4700:4700::1111",
        "64:ff9b::808:808",
        "2002:808:808::",
        "2001:4860:4860::8888",
    ],
)
def test_a_public_unicast_address_is_public(text):
    assert is_public(ipaddress.ip_address(text)) and why_not_public(ipaddress.ip_address(text)) is None


@pytest.mark.parametrize(
    "text, what",
    [
        ("0.1.2.3", "'this network'"),
        ("10.255.0.1", "private"),
        ("100.64.0.0", "carrier-grade NAT"),
        ("127.255.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("172.31.255.255", "private"),
        ("192.0.0.170", "IETF protocol"),
        ("192.0.2.1", "documentation"),
        ("192.88.99.1", "6to4 relay"),
        ("192.168.0.1", "private"),
        ("198.19.255.255", "benchmarking"),
        ("198.51.100.1", "documentation"),
        ("203.0.113.1", "documentation"),
        ("239.255.255.250", "multicast"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "broadcast"),
        ("::", "unspecified"),
        ("::1", "loopback"),
        ("::ffff:1.1.1.1", "IPv4-mapped"),
        ("::ffff:0:1.1.1.1", "IPv4-translated"),
        ("::1.1.1.1", "IPv4-compatible"),
        ("64:ff9b::7f00:1", "NAT64 address embedding 127.0.0.1"),
        ("64:ff9b:1::a", "local-use NAT64"),
        ("100::1", "discard-only"),
        ("2001:2::1", "benchmarking"),
        ("2001:10::1", "ORCHID"),
        ("2001:db8::1", "documentation"),
        ("3fff:fff::1", "documentation"),
        ("fc00::1", "unique-local"),
        ("fdff::1", "unique-local"),
        ("fe80::1", "link-local"),
        ("fe80::1%eth0", "link-local"),
        ("2606:4700::1%2", "zone"),
        ("fec0::1", "site-local"),
        ("ff02::1", "multicast"),
        ("2002:c0a8:101::", "6to4 address embedding 192.168.1.1"),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo address embedding 10.0.0.1"),
        ("5f00::1", "reserved"),
        ("4000::1", "reserved"),
    ],
)
def test_a_refused_address_is_named_by_what_it_is(text, what):
    address = ipaddress.ip_address(text)
    assert not is_public(address) and what in why_not_public(address)
