"""gateway/operation_names.py: an operation's name is its path after ``/v1/`` with ``-`` and
``/`` as ``_`` (its operationId, examples file and MCP tool); its Markdown page is the path
after ``/v1/`` as typed (``/docs/<page>.md``); any other path is refused."""

from __future__ import annotations

import pytest

from gateway.endpoints import discover_endpoints
from gateway.operation_names import operation_name, page_name


@pytest.mark.parametrize(
    ("path", "name", "page"),
    [
        ("/v1/positions", "positions", "positions"),
        ("/v1/natal-chart", "natal_chart", "natal-chart"),
        ("/v1/eclipses/solar", "eclipses_solar", "eclipses/solar"),
        ("/v1/void-of-course/periods", "void_of_course_periods", "void-of-course/periods"),
    ],
)
def test_names_and_pages_come_from_the_path(path, name, page):
    assert (operation_name(path), page_name(path)) == (name, page)


@pytest.mark.parametrize("path", ["/v2/positions", "positions", "/admin/v1/accounts", "/v1"])
def test_a_path_outside_v1_is_refused(path):
    with pytest.raises(ValueError, match="not an API path"):
        operation_name(path)
    with pytest.raises(ValueError):
        page_name(path)


def test_no_two_endpoints_share_an_operation_name():
    names = [operation_name(endpoint.path) for endpoint in discover_endpoints()]
    assert len(names) == len(set(names))
