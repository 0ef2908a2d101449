"""Stored charts (issue 40, part 1): the births an account keeps to name by id instead of
sending them again (``chart=<id>`` on every endpoint that takes a birth).

A stored chart is personal data: the store keeps it as given, under the account that made it,
reads it for that account only, and forgets it the moment it is deleted. What it holds is two
mappings of request parameters (names and values as the API takes them, values as text): the
``birth`` (datetime or jd, tz, fold, lat, lon, alt) and the chart ``settings`` (house_system,
bodies, ...). The gateway checks both before the store is asked to keep them.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime

from store.errors import StoreError
from store.records import from_unix_s, utc_now

#: A chart id: ``chart_``, 13 hex digits of the creation time in microseconds (so ids sort in
#: the order charts were made, which is the listing's order), then 8 random hex digits.
CHART_ID_RE = re.compile(r"chart_[0-9a-f]{13}[0-9a-f]{8}")
#: The most charts one account keeps (CELESTIAL_CHARTS_PER_ACCOUNT may lower or raise it).
DEFAULT_CHARTS_PER_ACCOUNT = 1000
#: The longest name, in characters.
MAX_NAME_CHARS = 200
#: The most parameters of a birth plus its settings, and the longest value, in characters:
#: a stored chart is a birth, not a place to keep documents.
MAX_PARAMETERS = 40
MAX_VALUE_CHARS = 500
#: The most charts one page of a listing holds.
MAX_PAGE = 100


class ChartLimitReached(StoreError, ValueError):
    """The account keeps as many charts as it may."""

    def __init__(self, limit: int):
        super().__init__(f"the account keeps {limit} charts, the most it may")
        self.limit = limit


@dataclass(frozen=True)
class StoredChart:
    """A birth kept by an account: ``birth`` and ``settings`` are request parameters as sent
    (name -> value as text), ``parameters`` the birth's parameters every request naming the
    chart receives (its place read into coordinates and zone); instants are aware UTC datetimes."""

    chart_id: str
    account_id: str
    name: str
    birth: dict[str, str] = field(repr=False)  # personal data: never in a repr, so never in a log
    settings: dict[str, str] = field(repr=False)
    parameters: dict[str, str] = field(repr=False)
    created_at: datetime = field(default_factory=utc_now)
    updated_at: datetime = field(default_factory=utc_now)


_last_micros = 0


def new_chart_id() -> str:
    """Return a new chart id (see :data:`CHART_ID_RE`); within one process each id's time part
    is above the last one's, so ids made in one process sort in the order they were made."""
    global _last_micros
    _last_micros = max(time.time_ns() // 1000, _last_micros + 1)
    return f"chart_{_last_micros:013x}{secrets.token_hex(4)}"


def is_chart_id(text: object) -> bool:
    """Return whether ``text`` has the shape of a chart id (anything else names no chart)."""
    return isinstance(text, str) and CHART_ID_RE.fullmatch(text) is not None


def check_chart(chart: StoredChart) -> StoredChart:
    """Return ``chart`` when its name and parameters are within the store's bounds; raises
    ValueError otherwise (the gateway refuses such input before it reaches the store)."""
    if not is_chart_id(chart.chart_id):
        raise ValueError(f"not a chart id: {chart.chart_id[:40]!r}")
    if not isinstance(chart.name, str) or len(chart.name) > MAX_NAME_CHARS:
        raise ValueError(f"a chart's name has at most {MAX_NAME_CHARS} characters")
    parameters = {**chart.birth, **chart.settings, **chart.parameters}
    if len(chart.birth) + len(chart.settings) > MAX_PARAMETERS:
        raise ValueError(f"a chart holds at most {MAX_PARAMETERS} parameters")
    if any(not isinstance(k, str) or not isinstance(v, str) or len(v) > MAX_VALUE_CHARS for k, v in parameters.items()):
        raise ValueError(f"a chart's parameters are text of at most {MAX_VALUE_CHARS} characters")
    return chart


def chart_document(chart: StoredChart) -> dict:
    """Return the chart as the JSON document the stores keep (instants as Unix seconds)."""
    return {
        "chart_id": chart.chart_id,
        "account_id": chart.account_id,
        "name": chart.name,
        "birth": chart.birth,
        "settings": chart.settings,
        "parameters": chart.parameters,
        "created_at_s": chart.created_at.timestamp(),
        "updated_at_s": chart.updated_at.timestamp(),
    }


def chart_of(document: dict) -> StoredChart:
    """Return the chart a document of :func:`chart_document` holds."""
    return StoredChart(
        document["chart_id"],
        document["account_id"],
        document["name"],
        dict(document["birth"]),
        dict(document["settings"]),
        dict(document["parameters"]),
        from_unix_s(document["created_at_s"]),
        from_unix_s(document["updated_at_s"]),
    )
