"""The short name of each operation, from its path: the name of its Markdown page
(``/docs/<name>.md``), of its recorded examples and of its MCP tool."""

from __future__ import annotations

API_PREFIX = "/v1/"


def operation_name(path: str) -> str:
    """Return the operation's name: its path after ``/v1/`` with ``-`` and ``/`` as ``_``.

    >>> operation_name("/v1/eclipses/solar"), operation_name("/v1/natal-chart")
    ('eclipses_solar', 'natal_chart')
    """
    if not path.startswith(API_PREFIX):
        raise ValueError(f"{path!r} is not an API path (it does not start with {API_PREFIX})")
    return path[len(API_PREFIX):].replace("-", "_").replace("/", "_")
