"""Starlette requests made by hand for the dashboard's module tests: a scheme and cookies."""

from __future__ import annotations

from starlette.requests import Request


def request_with(cookies: dict[str, str] | None = None, scheme: str = "http") -> Request:
    """Return a GET request to /dashboard over ``scheme`` carrying ``cookies``."""
    header = "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())
    return Request(
        {
            "type": "http",
            "method": "GET",
            "path": "/dashboard",
            "query_string": b"",
            "scheme": scheme,
            "server": ("testserver", 443 if scheme == "https" else 80),
            "headers": [(b"cookie", header.encode())] if header else [],
        }
    )
