"""The key the dashboard's "Try it" box writes its curl line with: one that works from a terminal."""

from __future__ import annotations

from typing import Any


def terminal_key(active: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, str | None]:
    """Return the key view (of ``active``, the account's active keys oldest first) that a curl
    line from a terminal can use, the newest one not browser-only, and None; or, when every
    active key is browser-only (a terminal sends no ``Origin``, so each is refused 403
    ``origin_required``), None and the sentence that says so. (None, None) without active keys."""
    usable = [view for view in active if not view["browser_only"]]
    if usable:
        return usable[-1], None
    if not active:
        return None, None
    return None, (
        "Every active key of this account is browser-only: a request from a terminal sends no Origin "
        "header, so each would be refused with 403 origin_required. Create a key without "
        "“Browser-only” for servers and the command line."
    )
