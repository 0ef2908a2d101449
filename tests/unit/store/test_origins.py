"""store/origins.py: the grammar of an allowed origin, as a browser serialises its ``Origin``
header (matching is exact, so what a browser never sends is refused when configured).

References: ../shared/spec/interface.md (Authentication 5), the WHATWG URL standard's origin
serialisation (lowercase scheme and host, default port omitted, IPv4 dotted decimal, IPv6
compressed in brackets), docs/stores.md.
"""

from __future__ import annotations

import pytest

from store.origins import validate_origins


@pytest.mark.parametrize(
    "origin",
    [
        "https://example.com",
        "http://localhost:3000",
        "https://app.example.co.uk:8443",
        "https://xn--mnchen-3ya.de",
        "http://127.0.0.1:8080",
        "http://[::1]:5173",
        "https://[2001:db8::1]",
        "http://my-host",
        "https://example.com:65535",
    ],
)
def test_an_origin_a_browser_sends_is_accepted(origin):
    assert validate_origins([origin]) == (origin,)


@pytest.mark.parametrize(
    ("origin", "why"),
    [
        ("ftp://example.com", "only http and https"),
        ("https://Example.com", "lowercase"),
        ("HTTPS://example.com", "lowercase"),
        ("https://example.com/", "no path, trailing slash"),
        ("https://example.com/app", "no path"),
        ("https://example.com?x=1", "query"),
        ("https://example.com#top", "fragment"),
        ("https://user:pw@example.com", "no user name or password"),
        ("https://*.example.com", "wildcards"),
        ("https://münchen.de", "punycode"),
        ("https://example.com:443", "default port"),
        ("http://example.com:80", "default port"),
        ("https://example.com:65536", "at most 65535"),
        ("https://example.com:0", "not a host and optional port"),
        ("example.com", "only http and https"),
        ("http://[0:0:0:0:0:0:0:1]", "[::1]"),
        ("http://256.0.0.1", "not a valid IP address"),
        (42, "a string"),
    ],
)
def test_an_origin_a_browser_never_sends_is_refused_saying_why(origin, why):
    with pytest.raises(ValueError) as refused:
        validate_origins([origin])
    assert why in str(refused.value)


def test_an_origin_with_the_other_schemes_default_port_is_kept():
    assert validate_origins(["https://example.com:80", "http://example.com:443"]) == (
        "https://example.com:80",
        "http://example.com:443",
    )


def test_origins_are_deduplicated_keeping_their_first_order():
    origins = ["https://b.example", "https://a.example", "https://b.example"]
    assert validate_origins(origins) == ("https://b.example", "https://a.example")


def test_no_origins_is_an_empty_tuple():
    assert validate_origins([]) == ()


def test_one_string_instead_of_a_list_is_refused_not_read_as_characters():
    with pytest.raises(ValueError, match="not one string"):
        validate_origins("https://example.com")


def test_one_bad_origin_refuses_the_whole_list():
    with pytest.raises(ValueError):
        validate_origins(["https://ok.example", "https://bad.example/"])


@pytest.mark.parametrize("origin", ["http://127.1", "http://0x7f.0.0.1", "http://2130706433", "http://127.000.000.001"])
def test_an_ipv4_address_in_a_shorthand_a_browser_rewrites_is_refused(origin):
    with pytest.raises(ValueError):
        validate_origins([origin])
