"""The names of each operation, from its path: its Markdown page's (``/docs/<page>.md``, the
path itself), and the identifier of its recorded examples, its MCP tool and its operationId."""

from __future__ import annotations

API_PREFIX = "/v1/"


def operation_name(path: str) -> str:
    """Return the operation's name: its path after ``/v1/`` with ``-`` and ``/`` as ``_``.

    >>> operation_name("/v1/eclipses/solar"), operation_name("/v1/natal-chart")
    ('eclipses_solar', 'natal_chart')
    """
    if not path.startswith(API_PREFIX):
        raise ValueError(f"{path!r} is not an API path (it does not start with {API_PREFIX})")
    return page_name(path).replace("-", "_").replace("/", "_")


def page_name(path: str) -> str:
    """Return the name of the operation's Markdown page, ``/docs/<name>.md``: its path after
    ``/v1/``, as the reader typed it.

    >>> page_name("/v1/eclipses/solar"), page_name("/v1/natal-chart"), page_name("/v1/charts/{chart_id}")
    ('eclipses/solar', 'natal-chart', 'charts/chart_id')
    """
    if not path.startswith(API_PREFIX):
        raise ValueError(f"{path!r} is not an API path (it does not start with {API_PREFIX})")
    # A path template's parameter is named without its braces: /v1/charts/{chart_id} is charts/chart_id.
    return path[len(API_PREFIX) :].replace("{", "").replace("}", "")
