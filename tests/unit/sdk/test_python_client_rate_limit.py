"""The Python client's template (sdk/python-template/celestial_client) reads the IETF
``RateLimit`` field (draft-ietf-httpapi-ratelimit-headers-11) for its retries: an answer's
``Retry-After`` first, else the window of a quota the field says is used up. Its modules are
loaded here from the template, in a package of their own beside a stand-in of the generated
``error_codes``, so the rule is proven without generating and building the client."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import http_sfv
import pytest

TEMPLATE = Path(__file__).resolve().parents[3] / "sdk" / "python-template" / "celestial_client"


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """Return the template's ``exceptions`` and ``rate_limit`` modules, imported as a package."""
    root = tmp_path_factory.mktemp("client")
    package = root / "celestial_client_template"
    package.mkdir()
    for name in ("exceptions.py", "rate_limit.py"):
        shutil.copy(TEMPLATE / name, package / name)
    (package / "__init__.py").write_text("")
    (package / "error_codes.py").write_text('ERROR_STATUS = {"rate_limit_exceeded": 429}\n')
    sys.path.insert(0, str(root))
    try:
        yield (
            importlib.import_module("celestial_client_template.exceptions"),
            importlib.import_module("celestial_client_template.rate_limit"),
        )
    finally:
        sys.path.remove(str(root))
        for name in [name for name in sys.modules if name.startswith("celestial_client_template")]:
            del sys.modules[name]


@pytest.mark.parametrize(
    "value",
    [
        '"minute";r=299;t=37',
        '"burst";r=0;t=30, "daily";r=9;t=86400',
        "default;r=50;t=30;pk=:dHJpYWwxMjEzMjM=:",
        '"a\\"b";r=1;flag;x=?0;d=1.5;s="q"',
    ],
)
def test_a_ratelimit_value_reads_as_a_structured_field_parser_reads_it(client_package, value):
    _, rate_limit = client_package
    reference = http_sfv.List()
    reference.parse(value.encode("ascii"))
    expected = [(str(item.value), dict(item.params)) for item in reference]
    assert rate_limit.parse_rate_limit(value) == expected


def test_the_wait_is_the_longest_window_of_a_quota_used_up(client_package):
    _, rate_limit = client_package
    assert rate_limit.exhausted_window_s(['"minute";r=0;t=37']) == 37.0
    assert rate_limit.exhausted_window_s(['"burst";r=0;t=30, "daily";r=0;t=86400']) == 86400.0
    assert rate_limit.exhausted_window_s(['"minute";r=3;t=37']) is None
    assert rate_limit.exhausted_window_s(['"minute";r=0']) is None  # no window: nothing to wait on


@pytest.mark.parametrize("value", ['"minute";r=0;t=', '"minute";r=0;t=37,', "minute;R=0", '"open;r=0;t=3'])
def test_a_malformed_field_is_ignored(client_package, value):
    _, rate_limit = client_package
    assert rate_limit.exhausted_window_s([value]) is None


def test_retry_after_wins_and_ratelimit_tells_the_wait_when_it_is_absent(client_package):
    exceptions, _ = client_package
    assert exceptions.retry_after_seconds({"Retry-After": "5", "RateLimit": '"minute";r=0;t=37'}) == 5.0
    assert exceptions.retry_after_seconds({"RateLimit": '"minute";r=0;t=37'}) == 37.0
    assert exceptions.retry_after_seconds({"RateLimit": '"minute";r=12;t=37'}) is None
    assert exceptions.retry_after_seconds({}) is None


def test_a_429_without_retry_after_is_retried_after_the_window_its_ratelimit_names(client_package):
    exceptions, _ = client_package
    error = exceptions.error_from_answer(
        429, {"ratelimit": '"minute";r=0;t=12'}, b'{"errors": [{"code": "rate_limit_exceeded", "message": "m"}]}'
    )
    assert isinstance(error, exceptions.RateLimited) and error.retry_after == 12.0
