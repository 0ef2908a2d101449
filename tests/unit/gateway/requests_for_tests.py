"""Starlette requests made by hand for the gateway's module tests."""

from __future__ import annotations

from starlette.requests import Request

from gateway.request_state import SCOPE_KEY, RequestState


def request_to(
    method: str,
    path: str,
    *,
    request_id: str = "req-1",
    headers: dict[str, str] | None = None,
    query: str = "",
    body: bytes = b"",
) -> Request:
    """Return a request of ``method`` on ``path`` carrying ``headers`` and ``body``, with the
    request id the middleware would have given it."""
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(
        {
            "type": "http",
            "method": method,
            "path": path,
            "query_string": query.encode(),
            "scheme": "http",
            "server": ("testserver", 80),
            SCOPE_KEY: RequestState(request_id),
            "headers": [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()],
        },
        receive,
    )
