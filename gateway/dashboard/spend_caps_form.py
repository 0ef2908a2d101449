"""The dashboard's spend-caps form (``/dashboard/spend-caps``): what an owner types for a cap,
read into the store's :class:`~store.spend_caps.SpendCap`, and the rows the page shows.

A field left empty means no cap; a whole number of credits from 0 (nothing may be spent) to
MAX_CAP sets one. Each form sets one scope: the account, or one of its keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gateway.admin.spend_caps import line_view
from store.records import KeyRecord
from store.spend_caps import MAX_CAP, PERIODS, SpendCap, SpendStatus


def read_cap_fields(daily: str, monthly: str) -> tuple[SpendCap | None, dict[str, str]]:
    """Return the cap the two fields ask for and no errors, or None and an error per field at
    fault (field name -> what is wrong)."""
    values: dict[str, int | None] = {}
    errors: dict[str, str] = {}
    for period, text in zip(PERIODS, (daily, monthly)):
        text = text.strip().replace(",", "").replace("_", "")
        if not text:
            values[period] = None
        elif text.isascii() and text.isdigit() and int(text) <= MAX_CAP:
            values[period] = int(text)
        else:
            errors[period] = f"Give a whole number of credits from 0 to {MAX_CAP:,}, or leave it empty for no cap."
    if errors:
        return None, errors
    return SpendCap(values["daily"], values["monthly"]), {}


def cap_rows(status: SpendStatus, keys: Iterable[KeyRecord]) -> list[dict[str, Any]]:
    """Return the page's rows: the account's caps, then each active key's (by creation), each
    with its ``scope`` (what the form posts: 'account' or the key id), a label and the figures
    of ``line_view``."""
    rows = [{"scope": "account", "label": "The whole account (every key)", **line_view(status.account, status)}]
    for key in keys:
        if key.state() == "active":
            rows.append(
                {
                    "scope": key.key_id,
                    "label": f"Key {key.name or key.key_id}",
                    **line_view(status.key(key.key_id), status),
                }
            )
    return rows
