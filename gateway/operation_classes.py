"""The operation classes of the public status page (issue 50, part 5): every operation the
gateway serves belongs to one, named by how long it is expected to take, so each class's
percentiles say something (a 2 ms position and a 2 s transit scan are not averaged together).

The table maps every operation's path (as the contract declares it, a template for the account
resources) to its class; ``tests/unit/gateway/test_operation_classes.py`` fails on an operation
without one. A path of no operation (the pages, ``/v1/status``, an unknown path) has no class
and is not counted.
"""

from __future__ import annotations

import re

#: The classes, in the order the status page shows them, each with what it holds.
OPERATION_CLASSES = {
    "quick": "positions, houses and the other single-moment look-ups (one service call, no search)",
    "chart": "whole charts: natal, wheels, the derived charts, the Vedic chart and dashas",
    "search": "scans over a range of time: transits, returns, eclipses, the calendar, the forecast",
    "map": "astrocartography maps and parans",
    "account": "the account resources: usage, account, stored charts, webhooks",
    "batch": "batches of requests (/v1/batch)",
}

#: Every operation's path -> its class.
CLASS_OF_PATH = {
    **dict.fromkeys(
        (
            "/v1/positions",
            "/v1/houses",
            "/v1/aspects",
            "/v1/dignities",
            "/v1/patterns",
            "/v1/lots",
            "/v1/midpoints",
            "/v1/void-of-course",
            "/v1/solar-proximity",
            "/v1/ayanamsha",
            "/v1/places",
            "/v1/timezone",
            "/v1/delta-t",
            "/v1/sidereal-time",
            "/v1/planetary-hours",
            "/v1/stars",
            "/v1/profections",
            "/v1/firdaria",
            "/v1/vedic/panchang",
        ),
        "quick",
    ),
    **dict.fromkeys(
        (
            "/v1/chart",
            "/v1/natal-chart",
            "/v1/chart-wheel",
            "/v1/synastry",
            "/v1/draconic",
            "/v1/davison",
            "/v1/progressed",
            "/v1/directions",
            "/v1/composite",
            "/v1/zodiacal-releasing",
            "/v1/vedic/chart",
            "/v1/vedic/dasha",
            "/v1/vedic/match",
            "/v1/vedic/ashtakavarga",
            "/v1/vedic/shadbala",
        ),
        "chart",
    ),
    **dict.fromkeys(
        (
            "/v1/transits",
            "/v1/returns",
            "/v1/ingresses",
            "/v1/eclipses/solar",
            "/v1/eclipses/lunar",
            "/v1/heliacal",
            "/v1/stations",
            "/v1/lunations",
            "/v1/void-of-course/periods",
            "/v1/calendar",
            "/v1/forecast",
            "/v1/natal-chart/sensitivity",
        ),
        "search",
    ),
    "/v1/explain-difference": "search",
    "/v1/astrocartography": "map",
    "/v1/parans": "map",
    **dict.fromkeys(
        (
            "/v1/usage",
            "/v1/account",
            "/v1/charts",
            "/v1/charts/{chart_id}",
            "/v1/webhooks",
            "/v1/webhooks/{webhook_id}",
            "/v1/webhooks/{webhook_id}/rotate-secret",
            "/v1/webhooks/{webhook_id}/test",
            "/v1/webhooks/{webhook_id}/deliveries",
        ),
        "account",
    ),
    "/v1/batch": "batch",
}

#: The templated paths as patterns of the paths a request may have, with their class.
_TEMPLATES = tuple(
    (re.compile(re.sub(r"\{[a-z_]+\}", "[^/]+", path) + r"\Z"), op_class)
    for path, op_class in CLASS_OF_PATH.items()
    if "{" in path
)


def class_of_path(path: str) -> str | None:
    """Return the class of the operation a request's ``path`` names; None for any other path."""
    found = CLASS_OF_PATH.get(path)
    if found is not None or not path.startswith(("/v1/charts/", "/v1/webhooks/")):
        return found
    for pattern, op_class in _TEMPLATES:
        if pattern.match(path):
            return op_class
    return None
