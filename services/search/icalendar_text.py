"""The text of an iCalendar file (RFC 5545) holding a calendar's events: one VEVENT each, an
instant as an event without duration (DTSTART alone), a period with DTSTART and DTEND, each a
UTC DATE-TIME rounded to the nearest second from the event's Julian Day (the format has no
fraction)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from celestial.v1 import search_service_pb2 as pb
from kernel.timescale import iso_utc

PRODUCT_ID = "-//Celestial//Sky events//EN"
UID_DOMAIN = "celestial"
# RFC 5545 section 3.1: lines are folded at 75 octets, with CRLF and one space.
_LINE_OCTETS = 75


class VEvent(NamedTuple):
    """One VEVENT: its ``uid`` (before the domain), ``start_jd`` and ``end_jd`` (UT1; None for
    an instant), ``summary`` and ``category``."""

    uid: str
    start_jd: float
    end_jd: float | None
    summary: str
    category: str


def calendar(events: list[pb.TimelineEvent]) -> str:
    """Return the iCalendar text of a sky calendar's ``events``, lines ending in CRLF."""
    return vcalendar(
        (VEvent(e.id, e.instant.jd, e.end.jd if e.HasField("end") else None, e.summary, e.kind) for e in events),
        "Sky events",
    )


def vcalendar(events: Iterable[VEvent], name: str) -> str:
    """Return the iCalendar text of ``events`` in a calendar called ``name``, lines ending in CRLF.

    DTSTAMP, which RFC 5545 asks of every VEVENT, is the event's own start: the answer is then
    the same for the same request, so a subscribed calendar sees no change where none happened.
    """
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODUCT_ID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{_text(name)}",
    ]
    for event in events:
        start = _stamp(event.start_jd)
        lines += [
            "BEGIN:VEVENT",
            f"UID:{_text(event.uid)}@{UID_DOMAIN}",
            f"DTSTAMP:{start}",
            f"DTSTART:{start}",
        ]
        if event.end_jd is not None:
            lines.append(f"DTEND:{_stamp(event.end_jd)}")
        lines += [
            f"SUMMARY:{_text(event.summary)}",
            f"CATEGORIES:{_text(event.category)}",
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)


def _stamp(jd: float) -> str:
    """Return a UT1 Julian Day as an iCalendar UTC DATE-TIME (20240408T181742Z)."""
    return iso_utc(jd, "second").replace("-", "").replace(":", "")


def _text(value: str) -> str:
    """Return ``value`` escaped as an iCalendar TEXT value (section 3.3.11)."""
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """Return ``line`` folded into lines of at most 75 octets, never inside a UTF-8 character."""
    encoded = line.encode()
    if len(encoded) <= _LINE_OCTETS:
        return line
    parts, current, limit = [], b"", _LINE_OCTETS
    for char in line:
        octets = char.encode()
        if len(current) + len(octets) > limit:
            parts.append(current.decode())
            current, limit = b"", _LINE_OCTETS - 1  # a continuation line begins with a space
        current += octets
    parts.append(current.decode())
    return "\r\n ".join(parts)
