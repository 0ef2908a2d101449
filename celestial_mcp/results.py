"""How a curated tool's result is kept small enough for a model to read: a summary first, then
the data, trimmed to at most ``RESULT_LIMIT`` characters of JSON.

Two rules, applied in this order:

- paging: a tool whose answer is a long list (a transit scan's events, a calendar's events,
  eclipses, astrocartography lines) returns the items from ``cursor`` on, as many as fit, and
  ``page.next_cursor`` for the rest (absent on the last page);
- cutting: whatever is still too long (a synastry of many bodies) has its longest lists cut,
  ``trimmed`` naming each list cut and how many items it kept, so the model knows to narrow
  the call (fewer bodies, aspects) rather than believe the list complete.

A result that fits is returned whole.
"""

from __future__ import annotations

import json
from typing import Any

#: The most characters of JSON a tool result carries by default: a few thousand tokens, a
#: small share of a model's context, and enough for a chart of the planets whole.
RESULT_LIMIT = 20_000


def size(value: Any) -> int:
    """Return the characters of ``value`` as the result's JSON text carries it."""
    return len(json.dumps(value, ensure_ascii=False))


#: Room kept for what paging adds after the items are chosen: the page's next_cursor and
#: the sentence the summary ends with.
PAGE_NOTE_CHARS = len(', "next_cursor": 000000') + len(
    " Page: items 000000-000000 of 000000; call again with cursor=000000 for the next."
)


def paged(result: dict[str, Any], items: list[Any], cursor: int, key: str, limit: int = RESULT_LIMIT) -> dict[str, Any]:
    """Return ``result`` with ``result["data"][key]`` the items from ``cursor`` on that fit in
    ``limit`` characters (at least one), ``result["page"]`` saying which they are (``total``,
    ``from`` the cursor, ``returned``, and ``next_cursor`` when items are left), and the
    summary ending with where the next page is when there is one."""
    total = len(items)
    start = min(max(cursor, 0), total)
    page: dict[str, Any] = {"total": total, "from": start, "returned": 0}
    shaped = {**result, "data": {**result["data"], key: []}, "page": page}
    budget = limit - size(shaped) - PAGE_NOTE_CHARS
    taken = 0
    used = 0
    for item in items[start:]:
        cost = size(item) + 2
        if taken and used + cost > budget:
            break
        used += cost
        taken += 1
    shaped["data"][key] = items[start : start + taken]
    page["returned"] = taken
    if start + taken < total:
        page["next_cursor"] = start + taken
        shaped["summary"] += (
            f" Page: items {start + 1}-{start + taken} of {total}; call again with cursor={start + taken} for the next."
        )
    return shaped


def cut_to_fit(result: dict[str, Any], limit: int = RESULT_LIMIT) -> dict[str, Any]:
    """Return ``result`` whole when it fits in ``limit`` characters; otherwise a copy whose
    longest list inside ``data`` loses its last items, then the next longest, until it fits,
    with ``trimmed`` listing each list cut as ``{"path", "kept", "of"}`` and the summary
    saying so."""
    if size(result) <= limit:
        return result
    shaped = json.loads(json.dumps(result))
    shaped["summary"] += CUT_NOTE
    originals: dict[str, int] = {}
    while size(shaped) > limit:
        found = _longest_list(shaped["data"], "data")
        if found is None:
            break
        path, values = found
        originals.setdefault(path, len(values))
        excess = size(shaped) - limit
        while len(values) > 1 and excess > 0:
            excess -= size(values.pop()) + 2
        shaped["trimmed"] = [{"path": p, "kept": len(_at(shaped, p)), "of": n} for p, n in originals.items()]
    return shaped


#: What the summary of a cut result ends with: the lists are not whole, and how to get them.
CUT_NOTE = " Some lists were cut to fit (trimmed says which): ask for fewer bodies or aspects to see them whole."


def _longest_list(value: Any, path: str) -> tuple[str, list[Any]] | None:
    """Return (path, list) of the list inside ``value`` whose JSON is longest, or None."""
    best: tuple[str, list[Any]] | None = None
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    if isinstance(value, list) and len(value) > 1:
        best = (path, value)
    for key, child in children:
        found = _longest_list(child, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}")
        if found is not None and (best is None or size(found[1]) > size(best[1])):
            best = found
    return best


def _at(value: Any, path: str) -> Any:
    """Return the value at ``path`` (``data.chart_a.aspects``, ``data[0].x``) in ``value``."""
    for part in path.replace("[", ".[").split("."):
        value = value[int(part[1:-1])] if part.startswith("[") else value[part]
    return value
