"""Moments as the account wing writes and reads them: ISO 8601 UTC text to the millisecond with
a ``Z``, as every answer writes a time stamp (:func:`iso`, every view, mail and answer of the
account resources; docs/conventions.md, "Names in answers"), the same text as
people read it on a page (:func:`readable_moment`), and an operator's moment read back
(:func:`utc_moment`)."""

from __future__ import annotations

from datetime import UTC, datetime

from store.key_format import quoted


def iso(moment: datetime | None) -> str | None:
    """Return ``moment`` as ISO 8601 UTC text to the millisecond with a ``Z`` suffix
    (``2026-11-25T14:33:44.123Z``), or None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def readable_moment(iso_text: str | None) -> str:
    """Return an ISO 8601 UTC moment of a view (``2026-11-25T14:33:44.123Z``) as people read it
    (``2026-11-25 14:33 UTC``); '' for None."""
    return "" if not iso_text else f"{iso_text[:10]} {iso_text[11:16]} UTC"


def utc_moment(text: str) -> datetime:
    """Return ISO 8601 ``text`` as an aware UTC datetime (no offset means UTC); raise
    ValueError for text that is no moment or one outside the calendar once in UTC
    (``9999-12-31T23:59:59-01:00``)."""
    try:
        moment = datetime.fromisoformat(text.strip())
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"not a moment between years 1 and 9999 in UTC: {quoted(text)}") from None
